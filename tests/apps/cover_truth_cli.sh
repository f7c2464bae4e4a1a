#!/bin/sh
# `strata sample --cover-truth`: every generated family's cover (`strata cover --docs`) keeps
# exactly the optimum its truth.json proves, the six Hadoop Streaming steps piped through
# `LC_ALL=C sort` give the same lines as `strata cover --out`, and the flag leaves the
# archive's own truth unchanged; the archived page versions, covered as pages (`--items pages`),
# keep exactly the captures their truth.json names.
# Usage: cover_truth_cli.sh STRATA WORK_DIR
set -u
strata=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$strata" sample --out "$work/plain" --scale tiny --seed 5 -q >/dev/null 2>&1 || fail "sample"
"$strata" sample --out "$work/s" --scale tiny --seed 5 --cover-truth 30 -q >/dev/null 2>&1 ||
  fail "sample --cover-truth"
cmp -s "$work/plain/truth/documents.jsonl" "$work/s/truth/documents.jsonl" ||
  fail "--cover-truth changed truth/documents.jsonl"
truth="$work/s/cover/truth.json"
[ -f "$truth" ] || fail "no $truth"

# truth.json is one field per line: family, expression, documents, optimum, ...
families=$(sed -n 's/^ *"family": "\(.*\)",$/\1/p' "$truth")
[ "$(echo "$families" | wc -l)" -ge 9 ] || fail "families: $families"
for f in $families; do
  expr=$(grep -A1 "\"family\": \"$f\"" "$truth" | sed -n 's/^ *"expression": "\(.*\)",$/\1/p')
  optimum=$(grep -A3 "\"family\": \"$f\"" "$truth" | sed -n 's/^ *"optimum": \([0-9]*\),$/\1/p')
  [ -n "$expr" ] && [ -n "$optimum" ] || fail "$f: no expression or optimum in $truth"
  dir="$work/s/cover/$f"
  "$strata" cover --docs "$dir/documents.jsonl" --analysis "$dir/analysis.jsonl" --where "$expr" \
    --out "$work/$f.out" --json -q >"$work/$f.json" 2>"$work/$f.err" ||
    fail "$f: strata cover: $(cat "$work/$f.err")"
  grep -q "\"kept\":$optimum," "$work/$f.json" || fail "$f ($expr): optimum $optimum, got $(cat "$work/$f.json")"
  grep -q '"greedy_components":0,' "$work/$f.json" || fail "$f: a component not proven"
  step() { "$strata" cover --streaming "$1" --where "$expr" --analysis "$dir/analysis.jsonl" 2>>"$work/$f.counters"; }
  step map <"$dir/documents.jsonl" | LC_ALL=C sort | step reduce | step map2 | LC_ALL=C sort |
    step reduce2 | step map3 | LC_ALL=C sort | step reduce3 | cut -f2- | LC_ALL=C sort >"$work/$f.streamed"
  LC_ALL=C sort "$work/$f.out" >"$work/$f.sorted"
  cmp -s "$work/$f.sorted" "$work/$f.streamed" ||
    fail "$f: streaming differs: $(diff "$work/$f.sorted" "$work/$f.streamed" | head -5)"
  grep -q "reporter:counter:strata-cover,kept,$optimum" "$work/$f.counters" ||
    fail "$f: streaming counters: $(cat "$work/$f.counters")"
done

# The archived page versions: extracted, then covered as pages; the kept ids are the truth's.
pages="$work/s/cover/archived-pages"
[ -f "$pages/versions.warc.gz" ] && [ -f "$pages/truth.json" ] || fail "no $pages"
"$strata" extract --collection pages -o "$work/pages-records" --jobs 1 -q "$pages/versions.warc.gz" \
  >/dev/null 2>&1 || fail "extract the page versions"
"$strata" cover --items pages --records "$work/pages-records" --where pageversions --json -q \
  --out "$work/pages.out" >"$work/pages.json" || fail "pages cover: $(cat "$work/pages.json")"
optimum=$(sed -n 's/^ *"optimum": \([0-9]*\),$/\1/p' "$pages/truth.json")
[ -n "$optimum" ] || fail "no optimum in $pages/truth.json"
grep -q "\"kept\":$optimum," "$work/pages.json" || fail "pages: optimum $optimum, got $(cat "$work/pages.json")"
grep -q '"greedy_components":0,' "$work/pages.json" || fail "pages: a component not proven"
sed -n 's/^{"id":"\([^"]*\)","keeper":"\1".*/\1/p' "$work/pages.out" | LC_ALL=C sort >"$work/pages.kept"
tr -d '\n' <"$pages/truth.json" | sed 's/.*"keepers": *\[\([^]]*\)\].*/\1/' | tr ',' '\n' |
  sed -n 's/^ *"\(.*\)" *$/\1/p' | LC_ALL=C sort >"$work/pages.truth"
[ -s "$work/pages.truth" ] && cmp -s "$work/pages.kept" "$work/pages.truth" ||
  fail "pages kept differ from the truth: $(diff "$work/pages.kept" "$work/pages.truth" | head -5)"
echo "ok"
