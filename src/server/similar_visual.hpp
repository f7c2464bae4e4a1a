#pragma once
// "Visually similar" (mode=visual of /imagesearch/similar, docs/similarity.md): the nearest
// images of the index by cosine of their visual embeddings (analyze/embedding.hpp), after the
// pHash near-duplicates. An upload's embedding comes from the NSFW model run here, as
// `strata analyze` runs it (loaded on the first such request, one forward pass at a time).
//
// Failure contract: never throws (beyond std::bad_alloc); an upload without a model
// installed, or whose classification fails, has no embedding (nullopt).
#include <xapian.h>

#include <cstddef>
#include <optional>
#include <set>
#include <vector>

#include "analyze/thumbnail.hpp"
#include "server/similar_index.hpp"

namespace strata::server {

// Most visual neighbours one query lists (after its near-duplicates).
inline constexpr size_t kMaxVisualNeighbours = 100;

// The embedding of an uploaded image, from its thumbnail's first sampled frame.
std::optional<similar::EmbeddingCode> upload_embedding(const analyze::Thumbnail& thumb);

struct VisualNeighbour {
  Xapian::docid doc = 0;
  float similarity = 0;  // cosine of the embeddings
};

// Who may see what: the request's filters.
struct VisualFilter {
  bool safe = true;                  // safe search on: only images it shows
  bool show_decorative = false;      // decorative images too
  std::set<Xapian::docid> excluded;  // the query's own documents, the near-duplicates listed
};

// Up to kMaxVisualNeighbours documents most similar to `query`, most similar first.
std::vector<VisualNeighbour> visual_neighbours(const SimilarSnapshot& snapshot,
                                               const similar::EmbeddingCode& query,
                                               const VisualFilter& filter);

}  // namespace strata::server
