// sql.mjs runs the SQL statements of a file with DuckDB and prints, per
// statement, its row count and first row as one JSON line:
//
//   node sql.mjs FILE.sql
//
// It exits with status 1 and a message on stderr when a statement fails
// or returns no rows. Statements are separated by ';' at the end of a line.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const text = readFileSync(process.argv[2], 'utf8');
const statements = text.split(/;\s*$/m).map((s) => s.trim()).filter((s) => s.replace(/--.*$/gm, '').trim() !== '');
const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
for (const sql of statements) {
  try {
    const r = await conn.runAndReadAll(sql);
    const rows = r.getRowObjectsJS();
    if (rows.length === 0) {
      console.error(`no rows from:\n${sql}`);
      process.exit(1);
    }
    console.log(JSON.stringify({ rows: rows.length, first: rows[0] }, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));
  } catch (e) {
    console.error(`${e.message}\nin:\n${sql}`);
    process.exit(1);
  }
}
