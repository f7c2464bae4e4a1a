#!/usr/bin/env bash
# bench_analyze_cli.sh [--sample DIR] [--documents FILE] [--runs N] [--jobs J] [--base STRATA]
#                      [STRATA]
# What a user runs: `strata analyze` (the analysis step of `strata index`: thumbnail + pHash +
# NSFW per new image) on the demo's images (`strata sample --scale demo --seed 1`, what
# scripts/demo indexes; made in a temporary folder unless --sample names one), into a fresh
# output folder each run (--documents: a part of them, e.g. `head -1000` of
# truth/documents.jsonl, kept beside it). Prints each run and the medians: images analysed
# and failed, wall seconds, images/s, CPU seconds (user + sys, all threads) and cores used
# (CPU / wall, which --jobs J bounds). With --base, that binary runs too, alternating with STRATA (default
# build/apps/strata/strata), so both see the same load.
set -euo pipefail
sample="" documents="" runs=3 jobs=2 base=""
while (($#)); do
  case "$1" in
    --sample) sample=$2; shift 2 ;;
    --documents) documents=$(realpath "$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --base) base=$(realpath "$2"); shift 2 ;;
    *) break ;;
  esac
done
strata=$(realpath "${1:-build/apps/strata/strata}")
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench-analyze-XXXXXX")
trap 'rm -rf "$work"' EXIT
if [[ -z "$sample" && -z "$documents" ]]; then
  sample="$work/sample"
  "$strata" sample --out "$sample" --scale demo --seed 1 >/dev/null
fi
documents=${documents:-$sample/truth/documents.jsonl}

counter() { awk -v name="$1" '$1 == name {gsub(",", "", $2); s += $2} END {print s + 0}' "$2"; }
# run NAME BINARY -> "wall cpu analysed failed classified"
run() {
  rm -rf "$work/out"
  /usr/bin/time -f '%e %U %S' -o "$work/time" \
    "$2" analyze -d "$documents" -o "$work/out" --jobs "$jobs" >"$work/report" 2>/dev/null || true
  local failed=0
  for c in decode_corrupt decode_unsupported decode_too_large bytes_missing classify_failed; do
    failed=$((failed + $(counter "$c" "$work/report")))
  done
  read -r wall user sys <"$work/time"
  local line
  line=$(awk -v w="$wall" -v u="$user" -v s="$sys" -v a="$(counter decode_ok "$work/report")" \
    -v f="$failed" -v c="$(counter classified "$work/report")" \
    'BEGIN {printf "%.2f %.2f %d %d %d", w, u + s, a, f, c}')
  echo "$line" >>"$work/$1"
  report "$1 run" "$line"
}
report() {
  read -r wall cpu analysed failed classified <<<"$2"
  awk -v n="$1" -v w="$wall" -v c="$cpu" -v a="$analysed" -v f="$failed" -v k="$classified" \
    'BEGIN {printf "%-14s %6d analysed %4d failed %6d classified  %7.2f s wall %7.1f img/s  CPU %7.2f s (%.2f cores, %.2f ms/img)\n",
            n, a, f, k, w, a / w, c, c / w, 1000 * c / a}'
}
median() { sort -n -k1,1 "$1" | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'; }

echo "$(wc -l <"$documents") documents ($documents), --jobs $jobs, $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
  [[ -n "$base" ]] && run base "$base"
  run new "$strata"
done
[[ -n "$base" ]] && report "base median" "$(median "$work/base")"
report "new median" "$(median "$work/new")"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
