#!/bin/sh
# ctest bench_search_returns_results: the search benchmark, tiny, must return results
# (it exits non-zero when a measured load returned none). Skipped without ../shared.
# Usage: smoke_test.sh BENCH_SEARCH SOURCE_DIR WORK_DIR
bench="$1" source="$2" work="$3"
queries="${STRATA_SHARED:-$source/../shared}/data/arquivo/queries-pt-2word.txt"
if [ ! -f "$queries" ]; then
  echo "skipped: $queries not found (../shared or $STRATA_SHARED absent)"
  exit 77
fi
rm -rf "$work"
exec "$bench" --docs 2000 --subset 50 --http-queries 50 --sample-scale tiny \
  --queries "$queries" --work "$work"
