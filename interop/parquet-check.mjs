// parquet-check.mjs opens Parquet files with DuckDB and prints, as one JSON
// object on stdout, what a consumer of schedfarm's outputs would see:
//
//   node parquet-check.mjs FILE.parquet...
//
//   {"files": [{"path": ..., "rows": N, "columns": [...],
//               "bsd_mean": M,                 (files with a bsd column)
//               "bsd_mean_by_task": {"0": M0}, (files with bsd and task_index)
//               "admission": {"rejected": R, "rejected_with_start": 0,
//                             "with_deadline": D, "resource_charge": C},
//                                              (jobs files)
//               "metadata": {"schedfarm.spec_sha256": ..., ...}}]}
//
// It exits with status 1 and a message on stderr when a file cannot be read.
import { DuckDBInstance } from '@duckdb/node-api';

function literal(s) {
  return "'" + String(s).replaceAll("'", "''") + "'";
}

async function inspect(conn, path) {
  const src = `read_parquet(${literal(path)})`;
  const head = await conn.runAndReadAll(`SELECT * FROM ${src} LIMIT 0`);
  const columns = head.columnNames();
  const count = await conn.runAndReadAll(`SELECT count(*) AS n FROM ${src}`);
  const out = { path, rows: Number(count.getRowObjectsJS()[0].n), columns };
  if (columns.includes('bsd')) {
    const avg = await conn.runAndReadAll(`SELECT avg(bsd) AS m FROM ${src}`);
    out.bsd_mean = avg.getRowObjectsJS()[0].m;
    if (columns.includes('task_index')) {
      const by = await conn.runAndReadAll(
        `SELECT task_index AS t, avg(bsd) AS m FROM ${src} GROUP BY task_index ORDER BY task_index`);
      out.bsd_mean_by_task = {};
      for (const r of by.getRowObjectsJS()) {
        out.bsd_mean_by_task[String(r.t)] = r.m;
      }
    }
  }
  if (columns.includes('admitted') && columns.includes('start')) {
    const a = await conn.runAndReadAll(
      `SELECT count(*) FILTER (WHERE NOT admitted) AS rejected,
              count(*) FILTER (WHERE NOT admitted AND start IS NOT NULL) AS rejected_with_start,
              count(deadline) AS with_deadline,
              sum(resource_charge) AS resource_charge FROM ${src}`);
    const r = a.getRowObjectsJS()[0];
    out.admission = {
      rejected: Number(r.rejected), rejected_with_start: Number(r.rejected_with_start),
      with_deadline: Number(r.with_deadline), resource_charge: r.resource_charge,
    };
  }
  const kv = await conn.runAndReadAll(
    `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${literal(path)}) ORDER BY k`);
  out.metadata = {};
  for (const r of kv.getRowObjectsJS()) {
    out.metadata[r.k] = r.v;
  }
  return out;
}

async function main(paths) {
  if (paths.length === 0) {
    console.error('usage: node parquet-check.mjs FILE.parquet...');
    process.exit(2);
  }
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const files = [];
    for (const p of paths) {
      files.push(await inspect(conn, p));
    }
    process.stdout.write(JSON.stringify({ files }) + '\n');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`parquet-check: ${err.message}`);
  process.exit(1);
});
