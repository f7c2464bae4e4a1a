#!/bin/sh
# strata cover over a documents.jsonl: the report of a `versions` cover (3 URLs, 6 documents,
# one bad line), --out lines, a bad expression (exit 2 with its column), --name without --index.
# With ../shared: the same over an index of a real crawl, with the cover stored by name.
# Usage: cover_cli.sh STRATA WORK_DIR [SHARED_DIR]
set -u
strata=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
doc() {  # id url ts
  echo "{\"type\":\"document\",\"id\":\"$1\",\"imgDigest\":\"$1\",\"imgUrl\":\"http://example.pt/$2.jpg\",\"imgCrawlTimestamp\":\"$3\",\"imgSize\":100}"
}
{
  doc a1 a 20010101000000; doc a2 a 20020101000000; doc a3 a 20030101000000
  doc b1 b 20040101000000; doc b2 b 20050101000000; doc c1 c 20060101000000
  echo "not json"
} >"$work/documents.jsonl"

"$strata" cover --where versions --docs "$work/documents.jsonl" --out "$work/cover.jsonl" --json \
  >"$work/report.json" 2>"$work/err"
rc=$?
[ "$rc" -eq 3 ] || fail "exit $rc, expected 3 (one bad line)"
grep -q '"kept":3' "$work/report.json" || fail "report: $(cat "$work/report.json")"
grep -q '"removed":3' "$work/report.json" || fail "report without removed 3"
grep -q '"where":"versions"' "$work/report.json" || fail "report without the expression"
grep -q '"bad_document"' "$work/report.json" || fail "the bad line is not reported"
[ "$(wc -l <"$work/cover.jsonl")" -eq 6 ] || fail "--out has not 6 lines"
grep -q '{"id":"a1","keeper":"a3","covers":0,"component":"a1"}' "$work/cover.jsonl" ||
  fail "a1 is not kept out by a3: $(cat "$work/cover.jsonl")"
grep -q '"id":"a3","keeper":"a3","covers":2' "$work/cover.jsonl" || fail "a3 does not cover 2"

"$strata" cover --where 'same(url' --docs "$work/documents.jsonl" 2>"$work/bad.err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad expression exited $rc, expected 2"
grep -q "column 9" "$work/bad.err" || fail "bad expression message: $(cat "$work/bad.err")"

# The shingle index within a tiny --memory spills sorted runs to --temp (removed afterwards)
# and gives the same cover, byte for byte; a --temp that is not a folder is refused.
i=0
while [ $i -lt 12 ]; do
  echo "{\"type\":\"document\",\"id\":\"t$i\",\"imgDigest\":\"t$i\",\"imgUrl\":\"http://example.pt/t$i.jpg\",\"imgCrawlTimestamp\":\"200101010000$((10 + i))\",\"imgSize\":100,\"imgAlt\":[\"words shared by all and group $((i % 3)) picture $((i % 5))\"]}"
  i=$((i + 1))
done >"$work/texts.jsonl"
texts() {
  "$strata" cover --where 'containment(text)>=0.8,newer' --docs "$work/texts.jsonl" --json -q "$@"
}
texts --out "$work/texts-memory.jsonl" >"$work/texts-memory.json" || fail "text cover"
mkdir -p "$work/spill"
texts --memory 64 --temp "$work/spill" --out "$work/texts-spill.jsonl" >"$work/texts-spill.json" ||
  fail "text cover within 64 bytes"
grep -q '"runs":0' "$work/texts-memory.json" || fail "in memory: $(cat "$work/texts-memory.json")"
grep -q '"runs":[1-9]' "$work/texts-spill.json" || fail "no runs: $(cat "$work/texts-spill.json")"
[ "$(grep -o '"cover":{[^}]*}' "$work/texts-spill.json")" = \
  "$(grep -o '"cover":{[^}]*}' "$work/texts-memory.json")" ] || fail "spilled cover differs"
grep -q '"removed":[1-9]' "$work/texts-memory.json" || fail "nothing covered: $(cat "$work/texts-memory.json")"
cmp -s "$work/texts-memory.jsonl" "$work/texts-spill.jsonl" || fail "spilled --out differs"
[ -z "$(ls -A "$work/spill")" ] || fail "spill runs left behind: $(ls "$work/spill")"
texts --temp "$work/nowhere" 2>"$work/temp.err"
[ $? -eq 2 ] || fail "--temp that is no folder accepted"
grep -q "not a folder" "$work/temp.err" || fail "--temp message: $(cat "$work/temp.err")"

# Pages as items: the generated sample's pages, captured by 3 crawls, read from extraction
# records; each URL keeps its newest capture unless an older one holds text it lacks.
"$strata" sample --out "$work/sample" --scale tiny -q >/dev/null 2>&1 || fail "sample"
"$strata" extract --collection tiny -o "$work/records" --jobs 1 -q "$work/sample" >/dev/null 2>&1 ||
  fail "extract the sample"
"$strata" cover --items pages --records "$work/records" --where pageversions --json -q \
  --out "$work/pages.jsonl" >"$work/pages.json" || fail "pages cover: $(cat "$work/pages.json")"
grep -q '"items":"pages"' "$work/pages.json" || fail "pages report: $(cat "$work/pages.json")"
grep -q '"documents":13,"kept":5,' "$work/pages.json" || fail "pages: $(cat "$work/pages.json")"
grep -q '"pages_without_text":0' "$work/pages.json" || fail "pages text: $(cat "$work/pages.json")"
grep -q '{"id":"19960909060000/http://www.guanhambique0.pt/","keeper":"20101112050000/http://www.guanhambique0.pt/"' \
  "$work/pages.jsonl" || fail "pages --out: $(head -3 "$work/pages.jsonl")"
# Within a tiny --memory the pages' texts are held apart in chunks of about one page, spilled
# to --temp, and the pair tests join them chunk by chunk: the same report and --out.
"$strata" cover --items pages --records "$work/records" --where pageversions --json -q \
  --memory 2000 --temp "$work/spill" --out "$work/pages-spill.jsonl" >"$work/pages-spill.json" ||
  fail "pages cover within 2000 bytes: $(cat "$work/pages-spill.json")"
grep -q '"text_chunks":1[0-9]' "$work/pages-spill.json" || fail "chunks: $(cat "$work/pages-spill.json")"
[ "$(grep -o '"cover":{[^}]*}' "$work/pages-spill.json")" = \
  "$(grep -o '"cover":{[^}]*}' "$work/pages.json")" ] || fail "pages: spilled cover differs"
cmp -s "$work/pages.jsonl" "$work/pages-spill.jsonl" || fail "pages: spilled --out differs"
[ -z "$(ls -A "$work/spill")" ] || fail "spilled texts left behind: $(ls "$work/spill")"
"$strata" cover --items pages --docs "$work/documents.jsonl" --where versions 2>/dev/null
[ $? -eq 2 ] || fail "--items pages with --docs accepted"
"$strata" cover --records "$work/records" --where versions 2>/dev/null
[ $? -eq 2 ] || fail "--records without --items pages accepted"

"$strata" cover --where near --docs "$work/documents.jsonl" --name x 2>/dev/null
[ $? -eq 2 ] || fail "--name without --index accepted"

# A real crawl (2008 archive.org, ../shared): index it, cover it, store the cover by name.
shared=${STRATA_SHARED:-${3:-}}
warc="$shared/data/archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"
if [ -z "$shared" ] || [ ! -f "$warc" ]; then
  echo "ok (real crawl skipped: no shared data)"
  exit 0
fi
"$strata" index --index "$work/index" --collection c2008 --no-nsfw -q "$warc" >/dev/null 2>&1 ||
  fail "indexing the real crawl failed"
"$strata" cover --index "$work/index" --where perhost --name one-per-site --json -q \
  >"$work/real.json" 2>"$work/real.err" || fail "cover of the real crawl: $(cat "$work/real.err")"
grep -q '"documents":23' "$work/real.json" || fail "real crawl: $(cat "$work/real.json")"
grep -q '"kept":1,' "$work/real.json" || fail "real crawl: one site, one kept: $(cat "$work/real.json")"
grep -q '"stored_as":"one-per-site"' "$work/real.json" || fail "real crawl: cover not stored"
"$strata" cover --index "$work/index" --where 'phash<=10,larger' --json -q >"$work/near.json" ||
  fail "phash cover of the real crawl"
grep -q '"kept":22,' "$work/near.json" || fail "real crawl, phash<=10,larger: $(cat "$work/near.json")"
# Its pages, from the index's record store: one capture per URL, 49 near-copies of a template.
"$strata" cover --index "$work/index" --items pages --where 'jaccard(text)>=0.9' --json -q \
  >"$work/real-pages.json" || fail "pages of the real crawl"
grep -q '"documents":116,"kept":67,' "$work/real-pages.json" ||
  fail "real crawl pages: $(cat "$work/real-pages.json")"
"$strata" cover --index "$work/index" --items pages --where pageversions --name x 2>/dev/null
[ $? -eq 2 ] || fail "--name with --items pages accepted"
echo "ok"
