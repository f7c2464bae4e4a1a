#pragma once
// The pHashes of the served index, searchable by Hamming distance (similar/hamming_index.hpp)
// for "more like this" (similar_api.hpp), and its visual embeddings, searchable by cosine
// (similar/embedding_index.hpp) for "visually similar" (mode=visual). Built from the index's pHash
// value stream when the server starts and again whenever the index's version (UUID and revision)
// changes (a `strata index` run or a block list change committed), so results follow the index
// without a restart. While one request rebuilds, the others answer from the previous snapshot.
//
// Left out, as search leaves them out: blocked and inline images; and images whose pHash is
// degenerate (flat pictures: similar::gate), which would all match one another (from the
// pHash search; the visual search keeps them).
//
// Failure contract: Xapian errors propagate (the server answers 500 and logs them); a stale
// snapshot may name documents since deleted: readers skip those.
#include <xapian.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/versioned_cache.hpp"
#include "similar/embedding_index.hpp"
#include "similar/hamming_index.hpp"

namespace strata::server {

struct SimilarEntry {
  Xapian::docid doc = 0;
  bool shown_under_safe_search = false;  // classified, and safe search shows it
  bool decorative = false;
};

struct SimilarSnapshot {
  IndexVersion version;
  std::vector<SimilarEntry> entries;  // numbered as the index's entries
  similar::HammingIndex index{0};
  size_t degenerate = 0;                     // documents left out for a flat pHash
  std::vector<SimilarEntry> visual_entries;  // numbered as visual's entries
  similar::EmbeddingIndex visual;
};

// Every document with a pHash, and every one with an embedding, of `db` at its current
// revision.
std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db);
// The same of a combined database (shards: its documents numbered as it numbers them), at
// `version` (version_of(parts)); `remote`: it has remote parts (their values are then read
// in one match, not a round trip a document).
std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db,
                                                              const IndexVersion& version,
                                                              bool remote);

class SimilarIndexCache {
 public:
  // The snapshot of `db`'s version, built here when there is none yet or it is out of date
  // and no other thread is building one (then the previous one).
  std::shared_ptr<const SimilarSnapshot> get(Xapian::Database& db);
  // Over the parts `db` combines (shards): rebuilt when a part changes, or when the parts
  // answering change (their documents are numbered anew), then never answered from the
  // previous snapshot.
  std::shared_ptr<const SimilarSnapshot> get(Xapian::Database& db, const search::IndexParts& parts);

 private:
  VersionedCache<SimilarSnapshot> cache_;
};

}  // namespace strata::server
