#pragma once
// `strata cover` as Hadoop Streaming steps (docs/redundancy.md, "Hadoop Streaming"): three
// jobs, every line `key<TAB>value`, reducers relying only on equal keys being adjacent:
//   map      documents.jsonl          -> "BLOCK<TAB>{"d":document,"p":pHash hex}"
//            BLOCK: a key two documents share whenever one may cover the other (the
//            expression's same(...) values, pHash substrings, shingles; "*" when nothing
//            narrows; "~ID" for a document with no key, so that it is still seen)
//   reduce   sorted map output        -> "A<TAB>B" per coverage edge (B covers A), "A<TAB>A"
//                                         per document seen                     (job 1)
//   map2     reduce output            -> the same lines (identity)
//   reduce2  all of map2's output     -> "COMPONENT<TAB>A<TAB>B"  (one reducer: union-find
//                                         over the edges; COMPONENT = its smallest id) (job 2)
//   map3     reduce2 output           -> the same lines (identity)
//   reduce3  sorted map3 output       -> "ID<TAB>{"id","keeper","covers","component"}" (job 3)
// `cat documents.jsonl | map | LC_ALL=C sort | reduce | map2 | LC_ALL=C sort | reduce2 | map3 |
// LC_ALL=C sort | reduce3 | cut -f2-` gives the lines of `strata cover --out` (in id order
// after a sort), except in giant clusters of one pHash, which Streaming does not cap.
// Pages (`--items pages`, pages.hpp) take one more job first, and job 1's map is the identity:
//   map0     extraction JSONL         -> "FILE@OFFSET<TAB>page" per reference line (the page
//                                         record's location; page: pages.hpp's page_json)
//   reduce0  sorted map0 output       -> "BLOCK<TAB>{"g":page,"t":main-text shingles, hex}"
//                                         one page per location, its text read again from the
//                                         archive (FILE must be readable there)      (job 0)
// then reduce (with pages) and jobs 2 and 3 as above: `cat part-*.jsonl | map0 | sort |
// reduce0 | sort | reduce | ...` gives the lines of `strata cover --items pages --out`.
//
// Failure contract: run_streaming() skips and counts bad lines (never throws for them);
// throws CoverError when a block of `*` compares more than the pair budget.
#include <iosfwd>
#include <string>

#include "core/counters.hpp"
#include "cover/cover.hpp"

namespace strata::cover {

enum class StreamingStage { map0, reduce0, map, reduce, map2, reduce2, map3, reduce3 };

bool parse_streaming_stage(const std::string& text, StreamingStage& out);

struct StreamingOptions {
  std::string analysis;  // map: an analysis.jsonl giving the documents their pHashes
  bool pages = false;    // reduce: the values are pages (job 0's output), not documents
  CoverOptions cover;
};

Counters run_streaming(StreamingStage stage, const Expr& e, const StreamingOptions& options,
                       std::istream& in, std::ostream& out);

// One line of `strata cover --out` (and of reduce3): {"id","keeper","covers","component"}.
std::string cover_line(const std::string& id, const std::string& keeper, uint32_t covers,
                       const std::string& component);

}  // namespace strata::cover
