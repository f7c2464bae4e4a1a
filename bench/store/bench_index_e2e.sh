#!/usr/bin/env bash
# bench_index_e2e.sh SAMPLE [RUNS] [BATCH_FILES] [BATCH_CRAWL] [STRATA]
# What a user pays for an incremental add, extraction included: indexes every crawl folder of
# SAMPLE (`strata sample --out SAMPLE --scale N`) but BATCH_CRAWL (default: the largest), one
# `strata index --no-analysis` per crawl (the base), then times, as medians of RUNS (default
# 3), indexing the first BATCH_FILES (default 2) WARC files of BATCH_CRAWL into a copy of the
# base index against into an empty index. Prints wall and CPU seconds, peak RSS, and the documents of the
# index and written by the add (the run's own summary).
set -euo pipefail
sample=$(realpath "$1")
runs=${2:-3}
batch_files=${3:-2}
batch_crawl=${4:-$(du -s "$sample"/*/ | grep -v '/truth/$' | sort -n | tail -1 | cut -f2 | xargs basename)}
strata=$(realpath "${5:-build/apps/strata/strata}")
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench-e2e-XXXXXX")
trap 'rm -rf "$work"' EXIT

mapfile -t crawls < <(find "$sample" -mindepth 1 -maxdepth 1 -type d ! -name truth ! -name "$batch_crawl" | sort)
mapfile -t batch < <(find "$sample/$batch_crawl" -name '*.warc.gz' | sort | head -n "$batch_files")

index() {  # index DIR COLLECTION FILES... -> "wall cpu rss_mb written documents"
  local dir=$1 collection=$2
  shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    "$strata" index --no-analysis --jobs 1 --index "$dir" --collection "$collection" "$@" \
    >"$work/out" 2>"$work/err"
  local written documents
  written=$(awk '/documents written/ {gsub(",", "", $3); print $3}' "$work/out")
  documents=$(awk '/documents in the index/ {gsub(",", "", $5); print $5}' "$work/out")
  awk -v w="$written" -v d="$documents" '{printf "%.3f %.3f %d %s %s\n", $1, $2 + $3, $4 / 1024, w, d}' \
    "$work/time"
}

start=$(date +%s)
for crawl in "${crawls[@]}"; do
  base=$(index "$work/base" "$(basename "$crawl")" "$crawl")
done
echo "base: ${#crawls[@]} crawls, ${base##* } documents, built in $(($(date +%s) - start)) s"
echo "batch: ${batch[*]##*/} ($(du -ch "${batch[@]}" | tail -1 | cut -f1))"

median() { sort -n -k1,1 | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'; }
for run in $(seq "$runs"); do
  index "$work/alone-$run" "$batch_crawl" "${batch[@]}"
done | median >"$work/alone"
for run in $(seq "$runs"); do cp -a "$work/base" "$work/grown-$run"; done
sync
for run in $(seq "$runs"); do
  index "$work/grown-$run" "$batch_crawl" "${batch[@]}"
done | median >"$work/grown"
report() {
  read -r wall cpu rss written documents <"$2"
  printf '%-26s %8.3f s (CPU %.3f s)  peak RSS %5d MB  documents written %7s  index documents %8s\n' \
    "$1" "$wall" "$cpu" "$rss" "$written" "$documents"
}
report "batch alone, empty index" "$work/alone"
report "batch added to base index" "$work/grown"
read -r aw ac _ <"$work/alone"
read -r gw gc _ <"$work/grown"
awk -v aw="$aw" -v ac="$ac" -v gw="$gw" -v gc="$gc" 'BEGIN {printf "ratio %.2f (CPU %.2f)\n", gw / aw, gc / ac}'
