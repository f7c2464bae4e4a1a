#include "server/similar_visual.hpp"

#include <exception>
#include <memory>
#include <mutex>

#include "analyze/embedding.hpp"
#include "analyze/nsfw.hpp"

namespace strata::server {
namespace {

// Loaded once, on first use; no classifier when no model is installed or it fails to load.
struct UploadModel {
  UploadModel() {
    const auto folder = analyze::find_nsfw_models();
    if (!folder) return;
    try {
      classifier = std::make_unique<analyze::NsfwClassifier>(*folder / analyze::kDefaultNsfwModel);
    } catch (const std::exception&) {
      classifier.reset();
    }
  }
  std::mutex running;  // the classifier runs one image at a time
  std::unique_ptr<analyze::NsfwClassifier> classifier;
};

UploadModel& upload_model() {
  static UploadModel model;
  return model;
}

}  // namespace

std::optional<similar::EmbeddingCode> upload_embedding(const analyze::Thumbnail& thumb) {
  if (thumb.sample_frames.empty()) return std::nullopt;
  UploadModel& model = upload_model();
  if (!model.classifier) return std::nullopt;
  std::vector<std::vector<float>> pooled;
  try {
    std::lock_guard lock(model.running);
    model.classifier->classify_batch({&thumb.sample_frames.front()}, &pooled);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (pooled.empty() || pooled.front().empty()) return std::nullopt;
  return analyze::embedding_code(pooled.front());
}

std::vector<VisualNeighbour> visual_neighbours(const SimilarSnapshot& snapshot,
                                               const similar::EmbeddingCode& query,
                                               const VisualFilter& filter) {
  // Enough candidates that the filters rarely leave fewer than the limit (safe search hides
  // ~10 % of a crawl; the excluded are few).
  const size_t wanted = 2 * kMaxVisualNeighbours + filter.excluded.size();
  std::vector<VisualNeighbour> out;
  for (const auto& m : snapshot.visual.nearest(query, wanted)) {
    const SimilarEntry& e = snapshot.visual_entries[m.entry];
    if (filter.excluded.count(e.doc)) continue;
    if (filter.safe && !e.shown_under_safe_search) continue;
    if (e.decorative && !filter.show_decorative) continue;
    out.push_back({e.doc, m.cosine});
    if (out.size() == kMaxVisualNeighbours) break;
  }
  return out;
}

}  // namespace strata::server
