#!/bin/sh
# ctest bench_serve_load_returns_results: the serving load bench, short, against this build's
# `strata serve` must return results (it exits 1 when no query does), over one index and over 2
# xapian-tcpsrv shards (`serve --shard`). Skipped without ../shared.
# Usage: smoke_test.sh BENCH_SERVE_LOAD STRATA SOURCE_DIR WORK_DIR
bench="$1" strata="$2" source="$3" work="$4"
archive="${STRATA_SHARED:-$source/../shared}/data/archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"
if [ ! -f "$archive" ]; then
  echo "skipped: $archive not found (../shared or $STRATA_SHARED absent)"
  exit 77
fi
rm -rf "$work"
exec "$bench" --archive "$archive" --work "$work" --server "this=$strata" \
  --clients 8 --seconds 2 --slowloris 8 --probe-seconds 2 --remote-shards 2
