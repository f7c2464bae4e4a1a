#pragma once
// One analysis record per unique image (SHA-256 digest), written as a JSONL line to
// <out>/analysis.jsonl. The fields the index should store are marked [index].
#include <optional>
#include <string>
#include <string_view>

#include "analyze/embedding.hpp"
#include "analyze/image.hpp"
#include "analyze/nsfw.hpp"
#include "analyze/pdq.hpp"
#include "analyze/safe_policy.hpp"
#include "core/json.hpp"
#include "similar/groups.hpp"

namespace strata::analyze {

struct AnalysisRecord {
  std::string digest;                           // [index] join key with ImageDocument::imgDigest
  DecodeStatus status = DecodeStatus::corrupt;  // "ok" | "unsupported" | "too_large" | "corrupt"
  bool missing_bytes = false;                   // the archive record could not be read
  std::string loader;                           // libvips loader class
  int width = 0, height = 0, frames = 0;        // decoded source dimensions
  std::string thumbnail;                        // [index] path relative to the thumbnail store root
  int thumb_width = 0, thumb_height = 0;        // [index]
  std::optional<uint64_t> phash;                // [index] 64-bit pHash (hex in JSON)
  std::optional<PdqHash> pdq;                   // [index] 256-bit PDQ (hex in JSON)
  int pdq_quality = 0;                          // PDQ's quality, 0-100
  std::optional<NsfwScores> nsfw;  // [index] five probabilities; absent = not classified
  std::optional<float> detail;     // image_detail() of the classified frame (older records: none)
  std::string model;               // NSFW model variant used
  // [index] visual embedding of the first sampled frame (analyze/embedding.hpp), from the
  // classification's forward pass; absent = not classified, or analysed before it existed.
  std::optional<similar::EmbeddingCode> embedding;
};

// Safe search (the API default): only classified images that kSafePolicy does not hide are
// shown; unclassified ones (failures, no model) stay hidden until classified.
bool visible_under_safe_search(const AnalysisRecord& record);
// What safe search decides from (the record must be classified).
SafeSearchInput safe_search_input(const AnalysisRecord& record);
// The index's `safe` value: safe_search_score() of a classified record, -1 when unclassified.
double safe_search_value(const AnalysisRecord& record);

// What near-duplicate grouping reads of a record (size, pHash, PDQ; no capture time: an
// analysis record has none), none without a pHash.
std::optional<similar::Image> grouping_image(const AnalysisRecord& record);

Json to_json(const AnalysisRecord& record);
bool from_json(const Json& j, AnalysisRecord& out);

// The digest of an analysis.jsonl line as to_json writes it ({"digest":"..." first), read
// without parsing the line, so that readers interested in a few digests skip the others
// cheaply; empty when the line does not start so (parse it instead).
std::string_view digest_of_line(std::string_view line);

}  // namespace strata::analyze
