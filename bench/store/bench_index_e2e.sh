#!/usr/bin/env bash
# bench_index_e2e.sh SAMPLE [RUNS] [BATCH_FILES] [BATCH_CRAWL] [STRATA] [BASELINE_STRATA]
# What a user pays for an incremental add, extraction included: indexes every crawl folder of
# SAMPLE (`strata sample --out SAMPLE --scale N`) but BATCH_CRAWL (default: the largest), one
# `strata index --no-analysis` per crawl (the base), then times, as medians of RUNS (default
# 3), indexing the first BATCH_FILES (default 2) WARC files of BATCH_CRAWL into a copy of the
# base index against into an empty index. Prints wall and CPU seconds, peak RSS, and the
# documents of the index and written by the add (the run's own summary).
# BASELINE_STRATA (another build, e.g. of main): timed the same way on the same base and
# batch, its runs alternated with STRATA's so both see the same load. BASE_INDEX=DIR keeps the
# base index there (built when missing, reused when present; the layouts must agree).
set -euo pipefail
sample=$(realpath "$1")
runs=${2:-3}
batch_files=${3:-2}
batch_crawl=${4:-$(du -s "$sample"/*/ | grep -v '/truth/$' | sort -n | tail -1 | cut -f2 | xargs basename)}
strata=$(realpath "${5:-build/apps/strata/strata}")
baseline=${6:+$(realpath "$6")}
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench-e2e-XXXXXX")
trap 'rm -rf "$work"' EXIT
base=${BASE_INDEX:-$work/base}

mapfile -t crawls < <(find "$sample" -mindepth 1 -maxdepth 1 -type d ! -name truth ! -name "$batch_crawl" | sort)
mapfile -t batch < <(find "$sample/$batch_crawl" -name '*.warc.gz' | sort | head -n "$batch_files")

index() {  # index STRATA DIR COLLECTION FILES... -> "wall cpu rss_mb written documents"
  local binary=$1 dir=$2 collection=$3
  shift 3
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    "$binary" index --no-analysis --jobs 1 --index "$dir" --collection "$collection" "$@" \
    >"$work/out" 2>"$work/err"
  local written documents
  written=$(awk '/documents written/ {gsub(",", "", $3); print $3}' "$work/out")
  documents=$(awk '/documents in the index/ {gsub(",", "", $5); print $5}' "$work/out")
  awk -v w="$written" -v d="$documents" '{printf "%.3f %.3f %d %s %s\n", $1, $2 + $3, $4 / 1024, w, d}' \
    "$work/time"
}

if [[ ! -d $base ]]; then
  start=$(date +%s)
  for crawl in "${crawls[@]}"; do
    index "$strata" "$base" "$(basename "$crawl")" "$crawl" >/dev/null
  done
  echo "base: ${#crawls[@]} crawls, built in $(($(date +%s) - start)) s"
fi
echo "base: $base, batch: ${batch[*]##*/} ($(du -ch "${batch[@]}" | tail -1 | cut -f1))"

binaries=("$strata")
[[ -n $baseline ]] && binaries+=("$baseline")
for run in $(seq "$runs"); do
  for b in "${!binaries[@]}"; do
    index "${binaries[$b]}" "$work/alone-$b-$run" "$batch_crawl" "${batch[@]}" >>"$work/alone-$b"
    rm -rf "$work/alone-$b-$run"
    cp -a "$base" "$work/grown-$b-$run"
    sync
    index "${binaries[$b]}" "$work/grown-$b-$run" "$batch_crawl" "${batch[@]}" >>"$work/grown-$b"
    rm -rf "$work/grown-$b-$run"
  done
done

median() { sort -n -k2,2 "$1" | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'; }  # by CPU
report() {
  read -r wall cpu rss written documents <<<"$2"
  printf '%-34s %8.3f s (CPU %.3f s)  peak RSS %5d MB  documents written %7s  index documents %8s\n' \
    "$1" "$wall" "$cpu" "$rss" "$written" "$documents"
}
for b in "${!binaries[@]}"; do
  name=$([[ $b == 0 ]] && echo "" || echo "baseline: ")
  alone=$(median "$work/alone-$b")
  grown=$(median "$work/grown-$b")
  report "${name}batch alone, empty index" "$alone"
  report "${name}batch added to base index" "$grown"
  read -r aw ac _ <<<"$alone"
  read -r gw gc _ <<<"$grown"
  awk -v n="$name" -v aw="$aw" -v ac="$ac" -v gw="$gw" -v gc="$gc" \
    'BEGIN {printf "%sratio %.2f (CPU %.2f)\n", n, gw / aw, gc / ac}'
done
