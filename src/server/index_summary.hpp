#pragma once
// GET /imagesearch/summary (docs/api.md, "Index summary"): what the served index holds, for the
// search page's home screen and its no-results hints: the number of images, each collection
// with its image count and capture years, and example queries drawn from the index itself
// (frequent words and word pairs of the titles, alt texts and captions of well-described
// images that safe search shows and that are not decorative).
//
// Counts are of the images a search lists with safe search off (on when the operator locked
// it), decorative images included, near-duplicates not collapsed; blocked and inline images
// never count. The summary is computed once per index version (UUID and revision) and kept:
// a `strata index` run that commits makes the next request compute it again, while the other
// requests answer from the previous one.
//
// Failure contract: Xapian errors propagate (the server answers 500); documents whose stored
// data cannot be read are left out of the examples.
#include <xapian.h>

#include <memory>
#include <string>
#include <vector>

#include "server/versioned_cache.hpp"

namespace strata::server {

struct CollectionSummary {
  std::string name;
  uint64_t images = 0;
  int first_year = 0;  // 0: no dated capture
  int last_year = 0;
};

struct IndexSummary {
  IndexVersion version;
  uint64_t images = 0;
  int first_year = 0;
  int last_year = 0;
  std::vector<CollectionSummary> collections;  // by name
  std::vector<std::string> examples;           // most frequent first
  // Over shards (docs/scale.md): how many there are and how many did not answer.
  size_t shards = 0, shards_missing = 0;
};

// At most this many documents are read for the examples, spread evenly over the index.
inline constexpr size_t kSummarySampledDocuments = 4000;
inline constexpr size_t kSummaryExamples = 8;

IndexSummary summarize_index(Xapian::Database& db, bool safe_only);
// The same over several parts combined in `db` (shards, search/index_parts.hpp), `missing` of
// `shards` having not answered.
IndexSummary summarize_index(Xapian::Database& db, const search::IndexParts& parts,
                             bool safe_only, size_t shards, size_t missing);

// Example queries from the texts of sampled documents (each document's title, alt and caption
// values): word pairs found in at least two documents first, then single words, most
// documents first, no word used twice; stop words, numbers and one- or two-letter words never.
std::vector<std::string> example_queries(const std::vector<std::vector<std::string>>& texts,
                                         size_t wanted);

// The summary JSON (the endpoint's body).
std::string summary_json(const IndexSummary& summary, bool pretty);

class IndexSummaryCache {
 public:
  // The summary of `db`'s version: computed here when there is none yet or it is out of date
  // and no other thread is computing one (then the previous one). `safe_only` is the same on
  // every call (the operator's lock).
  std::shared_ptr<const IndexSummary> get(Xapian::Database& db, bool safe_only);
  // Over shards: computed again whenever the parts that answer change.
  std::shared_ptr<const IndexSummary> get(Xapian::Database& db, const search::IndexParts& parts,
                                          bool safe_only, size_t shards, size_t missing);

 private:
  VersionedCache<IndexSummary> cache_;
};

}  // namespace strata::server
