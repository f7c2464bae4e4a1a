#pragma once
// Hadoop Streaming shape of the merge, two jobs like Arquivo's:
//   map     extraction JSONL             -> "SURT<TAB>record json"
//   reduce  sorted map output            -> "digest<TAB>record json"   (job 1, merge_surt)
//   map2    reduce output                -> the same lines (identity; the key is the digest)
//   reduce2 sorted map2 output           -> "id<TAB>document json"     (job 2, build_documents)
// `cat in | map | LC_ALL=C sort | reduce | map2 | LC_ALL=C sort | reduce2` gives the
// documents run_merge writes. Reducers rely only on equal keys being adjacent.
#include <iosfwd>
#include <string>
#include <string_view>

#include "core/counters.hpp"
#include "merge/digest_merge.hpp"

namespace strata::merge {

enum class Stage { map, reduce, map2, reduce2 };

bool parse_stage(const std::string& text, Stage& out);

Counters run_streaming(Stage stage, Mode mode, std::istream& in, std::ostream& out);

// "reporter:counter:GROUP,NAME,VALUE" lines: Hadoop Streaming's counter protocol on stderr
// (every Streaming stage of strata reports so: docs/scale.md).
void write_hadoop_counters(const Counters& counters, std::ostream& err,
                           std::string_view group = "strata-merge");

// The JSON line of a document, as both the streaming and in-process runs write it.
std::string document_json(const ImageDocument& doc);

}  // namespace strata::merge
