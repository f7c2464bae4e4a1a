#!/bin/sh
# `scripts/streaming-cover` through the local Hadoop Streaming harness (scripts/streaming-harness:
# input splits, hash partitioning over several reducers, values in a seeded arbitrary order),
# with 3 reducers: the archived page versions of `strata sample --cover-truth` covered as pages
# (jobs 0-3: pages keyed by record, texts read again from the WARC), and one family of
# generated image documents (jobs 1-3), each equal byte for byte (sorted) to the lines of the
# single-machine `strata cover --out`, and the pages keeping the captures their truth names.
# Usage: cover_streaming_harness.sh STRATA WORK_DIR SOURCE_DIR
set -u
strata=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") work=$2 source=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
export STRATA="$strata"

"$strata" sample --out "$work/s" --scale tiny --seed 5 --cover-truth 30 -q >/dev/null 2>&1 ||
  fail "sample --cover-truth"

# Pages: extraction records, then the cover on one machine and as Streaming jobs.
pages="$work/s/cover/archived-pages"
"$strata" extract --collection pages -o "$work/records" --jobs 1 -q "$pages/versions.warc.gz" \
  >/dev/null 2>&1 || fail "extract the page versions"
"$strata" cover --items pages --records "$work/records" --where pageversions --json -q \
  --out "$work/pages.out" >"$work/pages.json" || fail "pages cover: $(cat "$work/pages.json")"
# The part file in two, for two map tasks (Streaming input: the JSONL alone).
mkdir -p "$work/parts" && (cd "$work/parts" && split -l 70 "$work/records/part-00000.jsonl" part-) ||
  fail "split the records"
"$source/scripts/streaming-cover" pages "$work/parts" "$work/pages-jobs" 3 pageversions \
  >"$work/pages-jobs.log" 2>&1 || fail "streaming-cover pages: $(tail -5 "$work/pages-jobs.log")"
[ "$(ls "$work/pages-jobs/cover" | grep -c '^part-r-')" -eq 3 ] || fail "not 3 reducers"
cat "$work/pages-jobs/cover"/part-r-* | cut -f2- | LC_ALL=C sort >"$work/pages.streamed"
LC_ALL=C sort "$work/pages.out" >"$work/pages.sorted"
[ -s "$work/pages.sorted" ] && cmp -s "$work/pages.sorted" "$work/pages.streamed" ||
  fail "pages: streaming differs: $(diff "$work/pages.sorted" "$work/pages.streamed" | head -5)"
optimum=$(sed -n 's/^ *"optimum": \([0-9]*\),$/\1/p' "$pages/truth.json")
kept=$(grep -c '"id":"\([^"]*\)","keeper":"\1"' "$work/pages.streamed")
[ "$kept" = "$optimum" ] || fail "pages: kept $kept, optimum $optimum"
counters="$work/pages-jobs/pages/_counters.json"
grep -q '"strata-cover.pages": [1-9]' "$counters" && ! grep -q 'without_text\|not_json' "$counters" ||
  fail "pages: counters $(cat "$counters")"

# Images: the first generated family with its pHashes.
truth="$work/s/cover/truth.json"
family=$(sed -n 's/^ *"family": "\(.*\)",$/\1/p' "$truth" | head -1)
expr=$(grep -A1 "\"family\": \"$family\"" "$truth" | sed -n 's/^ *"expression": "\(.*\)",$/\1/p')
dir="$work/s/cover/$family"
"$strata" cover --docs "$dir/documents.jsonl" --analysis "$dir/analysis.jsonl" --where "$expr" \
  --out "$work/images.out" --json -q >"$work/images.json" || fail "$family: strata cover"
"$source/scripts/streaming-cover" images "$dir/documents.jsonl" "$work/images-jobs" 3 "$expr" \
  "$dir/analysis.jsonl" >"$work/images-jobs.log" 2>&1 ||
  fail "streaming-cover images: $(tail -5 "$work/images-jobs.log")"
cat "$work/images-jobs/cover"/part-r-* | cut -f2- | LC_ALL=C sort >"$work/images.streamed"
LC_ALL=C sort "$work/images.out" >"$work/images.sorted"
[ -s "$work/images.sorted" ] && cmp -s "$work/images.sorted" "$work/images.streamed" ||
  fail "$family: streaming differs: $(diff "$work/images.sorted" "$work/images.streamed" | head -5)"
echo "ok"
