#pragma once
// The per-image analysis: thumbnail (stored), perceptual hashes (pHash, PDQ), NSFW scores of the
// most unsafe sampled frame. One Analyzer per thread (the classifier is not thread-safe).
#include <memory>
#include <string>
#include <string_view>

#include "analyze/nsfw.hpp"
#include "analyze/record.hpp"
#include "analyze/thumbnail.hpp"
#include "analyze/thumbnail_store.hpp"
#include "core/counters.hpp"

namespace strata::analyze {

struct AnalyzerOptions {
  ThumbnailOptions thumbnails;
  std::string model_variant = kDefaultNsfwModel;
  bool phash = true;  // pHash and PDQ
};

class Analyzer {
 public:
  // `classifier` may be null (no model installed): records then carry no NSFW scores.
  Analyzer(AnalyzerOptions options, const ThumbnailStore& store, NsfwClassifier* classifier);
  // Never throws; failures are recorded in the record and counted.
  AnalysisRecord analyze(std::string_view digest, std::string_view bytes);
  const Counters& counters() const { return counters_; }

 private:
  AnalyzerOptions options_;
  const ThumbnailStore& store_;
  NsfwClassifier* classifier_;
  Counters counters_;
};

}  // namespace strata::analyze
