#!/bin/sh
# index, index-docs and analyze asked to classify with no NSFW model: exit 1 before any work,
# with a message naming what to install or pass; --no-nsfw / --no-analysis still run.
# Usage: no_nsfw_model.sh STRATA WORK_DIR
set -u
strata=$1 work=$2
rm -rf "$work" && mkdir -p "$work/no-models" || exit 1
: >"$work/documents.jsonl"
fail() { echo "FAIL: $*"; exit 1; }

expect_refused() {  # name, then the command's arguments
  name=$1; shift
  "$strata" "$@" --models "$work/no-models" 2>"$work/$name.err"
  rc=$?
  [ "$rc" -eq 1 ] || fail "$name exited $rc, expected 1"
  grep -q -- "--no-nsfw" "$work/$name.err" || fail "$name: message does not name --no-nsfw"
  grep -q "scripts/setup-npm" "$work/$name.err" || fail "$name: message does not name scripts/setup-npm"
  [ ! -e "$work/$name-out" ] || fail "$name wrote $work/$name-out"
}

expect_refused index index --index "$work/index-out" --collection c "$work/documents.jsonl"
expect_refused index-docs index-docs --index "$work/index-docs-out" --collection c "$work/documents.jsonl"
expect_refused analyze analyze -d "$work/documents.jsonl" -o "$work/analyze-out"
grep -q -- "--no-analysis" "$work/index.err" || fail "index: message does not name --no-analysis"

"$strata" index-docs --index "$work/nsfw-off" --collection c --no-nsfw --models "$work/no-models" \
  "$work/documents.jsonl" >/dev/null 2>&1 || fail "index-docs --no-nsfw refused"
"$strata" analyze -d "$work/documents.jsonl" -o "$work/analysis-off" --no-analysis 2>/dev/null &&
  fail "analyze accepted --no-analysis, which it does not have"
"$strata" index-docs --index "$work/analysis-off" --collection c --no-analysis \
  --models "$work/no-models" "$work/documents.jsonl" >/dev/null 2>&1 ||
  fail "index-docs --no-analysis refused"
echo "ok"
