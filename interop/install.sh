#!/bin/sh
# Installs the DuckDB client (pinned in package-lock.json) that the Parquet
# interoperability test and the README's SQL examples use. Without npm it
# says so and succeeds: those tests then skip, naming what is missing
# (with CI=true they fail instead), and nothing else needs Node.js.
case $0 in */*) cd "${0%/*}" || exit 1 ;; esac
if ! command -v npm >/dev/null 2>&1; then
  echo "interop: npm not found: skipping the DuckDB client. Only the DuckDB interoperability test and the SQL examples need it (they are skipped with a message); install Node.js 18 or later and run this again to enable them."
  exit 0
fi
exec npm ci --no-audit --no-fund
