#!/bin/sh
# ctest bench_shards_returns_results: the shards benchmark, tiny, must return results and flag
# the killed shard. Skipped without ../shared or xapian-tcpsrv.
# Usage: smoke_test.sh BENCH_SHARDS SOURCE_DIR WORK_DIR
bench="$1" source="$2" work="$3"
queries="${STRATA_SHARED:-$source/../shared}/data/arquivo/queries-pt-2word.txt"
if [ ! -f "$queries" ]; then
  echo "skipped: $queries not found (../shared or $STRATA_SHARED absent)"
  exit 77
fi
rm -rf "$work"
exec "$bench" --docs 2000 --subset 50 --clients 4 --queries "$queries" --work "$work"
