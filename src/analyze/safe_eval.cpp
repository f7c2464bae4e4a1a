#include "analyze/safe_eval.hpp"

#include <unordered_map>

#include "core/digest.hpp"

namespace strata::analyze {

ScoredSet score_safe_set(const std::vector<SafeSetRow>& rows,
                         const std::filesystem::path& data_root, Analyzer& analyzer) {
  ScoredSet out;
  std::unordered_map<std::string, size_t> seen;  // digest -> index in out.images
  for (const SafeSetRow& row : rows)
    for (SetImage& image : load_set_images(row, data_root, out.errors)) {
      const std::string digest = sha256_hex(image.bytes);
      if (auto it = seen.find(digest); it != seen.end()) {
        ++out.duplicates;
        const SafeSetRow& first = out.images[it->second].row;
        if (first.label != image.row.label)
          out.errors.push_back(row.source + " " + image.row.item + " (" + image.row.label +
                               ") is the image of " + first.source + " " + first.item + " (" +
                               first.label + ")");
        continue;
      }
      seen.emplace(digest, out.images.size());
      out.images.push_back({image.row, analyzer.analyze(digest, image.bytes)});
    }
  return out;
}

SafeSetResult evaluate_safe_set(const std::vector<ScoredImage>& images, const HideRule& hides) {
  SafeSetResult result;
  for (const ScoredImage& image : images) {
    if (!image.record.nsfw) {
      ++result.unclassified;
      continue;
    }
    const bool hidden = hides(safe_search_input(image.record));
    LabelTally& group = label_must_show(image.row.label) ? result.must_show : result.should_hide;
    for (LabelTally* tally : {&result.labels[image.row.label], &group}) {
      ++tally->images;
      tally->hidden += hidden;
    }
  }
  return result;
}

bool arquivo_hides(const SafeSearchInput& input) {
  return input.scores.nsfw() > kSafeSearchThreshold;
}

}  // namespace strata::analyze
