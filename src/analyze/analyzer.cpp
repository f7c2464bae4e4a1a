#include "analyze/analyzer.hpp"

#include <exception>

#include "analyze/embedding.hpp"
#include "analyze/pdq.hpp"
#include "analyze/phash.hpp"
#include "analyze/safe_policy.hpp"

namespace strata::analyze {

Analyzer::Analyzer(AnalyzerOptions options, const ThumbnailStore& store, NsfwClassifier* classifier)
    : options_(std::move(options)), store_(store), classifier_(classifier) {}

AnalysisRecord Analyzer::analyze(std::string_view digest, std::string_view bytes) {
  AnalysisRecord record;
  record.digest = std::string(digest);
  counters_.add("images");
  Thumbnail thumb;
  record.status = make_thumbnail(bytes, options_.thumbnails, thumb);
  record.loader = thumb.source.loader;
  record.width = thumb.source.width;
  record.height = thumb.source.height;
  record.frames = thumb.source.frames;
  counters_.add(std::string("decode_") + std::string(to_string(record.status)));
  if (record.status != DecodeStatus::ok) return record;
  if (store_.put(digest, thumb.webp)) {
    record.thumbnail =
        std::filesystem::relative(store_.path_for(digest), store_.root()).generic_string();
    record.thumb_width = thumb.width;
    record.thumb_height = thumb.height;
    counters_.add("thumbnails_written");
    if (!thumb.webp_retina.empty())
      counters_.add(store_.retina().put(digest, thumb.webp_retina) ? "retina_thumbnails_written"
                                                                   : "thumbnails_failed");
  } else {
    counters_.add("thumbnails_failed");
  }
  if (options_.phash) {
    const RgbImage& decoded = thumb.decoded;
    record.phash = phash_rgb(decoded.rgb.data(), decoded.width, decoded.height);
    const PdqResult pdq = pdq_rgb(decoded.rgb.data(), decoded.width, decoded.height);
    record.pdq = pdq.hash;
    record.pdq_quality = pdq.quality;
    counters_.add("phashes");
  }
  if (classifier_ != nullptr) {
    try {
      std::vector<const RgbImage*> frames;
      for (const RgbImage& f : thumb.sample_frames) frames.push_back(&f);
      std::vector<std::vector<float>> pooled;
      const std::vector<NsfwScores> scores = classifier_->classify_batch(frames, &pooled);
      std::vector<SafeSearchInput> inputs;
      for (size_t i = 0; i < scores.size(); ++i)
        inputs.push_back({scores[i], image_detail(*frames[i]), record.width, record.height});
      const SafeSearchInput& worst = inputs.at(most_unsafe_frame(inputs));
      record.nsfw = worst.scores;
      record.detail = worst.detail;
      record.model = options_.model_variant;
      counters_.add("classified");
      if (!pooled.empty() && !pooled.front().empty()) {
        record.embedding = embedding_code(pooled.front());
        counters_.add("embedded");
      }
    } catch (const std::exception&) {
      counters_.add("classify_failed");
    }
  }
  return record;
}

}  // namespace strata::analyze
