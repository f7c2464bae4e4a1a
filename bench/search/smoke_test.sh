#!/bin/sh
# ctest bench_search_returns_results and bench_shards_returns_results: a search benchmark, tiny,
# must return results (it exits non-zero when a measured load returned none). Skipped without
# ../shared.
# Usage: smoke_test.sh BENCH SOURCE_DIR WORK_DIR OPTION... (the bench's; --queries and --work
# are added)
bench="$1" source="$2" work="$3"
shift 3
queries="${STRATA_SHARED:-$source/../shared}/data/arquivo/queries-pt-2word.txt"
if [ ! -f "$queries" ]; then
  echo "skipped: $queries not found (../shared or $STRATA_SHARED absent)"
  exit 77
fi
rm -rf "$work"
exec "$bench" "$@" --queries "$queries" --work "$work"
