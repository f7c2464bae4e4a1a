#pragma once
// Measures safe search on a labelled set (analyze/safe_set.hpp): every image is analysed as
// `strata analyze` does (thumbnail, then NSFW scores and detail of the most unsafe frame),
// then a rule decides which images it hides. Reported: false positives (images labelled
// photo/graphic/painting/drawing/page that are hidden) and recall (explicit/suggestive
// images that are hidden). Used by `strata safe-search-eval` and tests/analyze.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analyze/analyzer.hpp"
#include "analyze/safe_policy.hpp"
#include "analyze/safe_set.hpp"

namespace strata::analyze {

struct ScoredImage {
  SafeSetRow row;
  AnalysisRecord record;  // record.nsfw absent: not classified (decode failure)
};

struct ScoredSet {
  std::vector<ScoredImage> images;  // one per distinct image (SHA-256), first row wins
  std::vector<std::string> errors;  // unreadable rows, and one line per image labelled twice
                                    // with different labels
  int64_t duplicates = 0;           // images met again under another row, counted once
};

// Reads every row's images from `data_root` and analyses each distinct one with `analyzer`.
ScoredSet score_safe_set(const std::vector<SafeSetRow>& rows,
                         const std::filesystem::path& data_root, Analyzer& analyzer);

using HideRule = std::function<bool(const SafeSearchInput&)>;

struct LabelTally {
  int64_t images = 0, hidden = 0;
  double hidden_share() const { return images ? double(hidden) / double(images) : 0.0; }
};

struct SafeSetResult {
  std::map<std::string, LabelTally> labels;
  LabelTally must_show;      // hidden here = false positives
  LabelTally should_hide;    // hidden here = true positives (recall)
  int64_t unclassified = 0;  // not counted above: safe search hides them until classified
};

SafeSetResult evaluate_safe_set(const std::vector<ScoredImage>& images, const HideRule& hides);

// Arquivo's rule, the baseline: porn + hentai (raised to 0.51 by NsfwScores::nsfw()) > 0.49.
bool arquivo_hides(const SafeSearchInput& input);

}  // namespace strata::analyze
