#pragma once
// Synthetic merged image documents for the search benchmark, in the text model of the sample
// generator (src/sample/words): captions and alt texts around the sample's topics (real
// two-word Arquivo queries) and filler words, plus words of the real query log (271k distinct
// words) drawn with Zipf's law (frequency ~ 1/rank, ranks by query-log frequency), so that
// the benchmark queries meet realistic posting-list lengths, from a few to ~10% of documents.
// Document i depends only on (seed, i): the Xapian index and the FTS5 table get identical
// documents. Each carries an NSFW score as a classified index has them (moderation()), so
// safe search, on by default, shows most of them, as it does a real index; and a pHash, so
// the index has near-duplicate groups to collapse.
#include <cstdint>
#include <string>
#include <vector>

#include "index/document_builder.hpp"
#include "merge/document.hpp"
#include "sample/rng.hpp"

namespace strata::bench {

class Corpus {
 public:
  Corpus(const std::vector<std::string>& query_log, uint64_t seed);
  merge::ImageDocument document(uint64_t i) const;
  // The classifier's verdict on `doc`, from its id: 90 % safe (NSFW score 0-0.49), 7 % not
  // (0.5-1), 3 % never classified (hidden under safe search too).
  index::Moderation moderation(const merge::ImageDocument& doc) const;
  // Its pHash: near-copies of shared pictures for 11 % of the images (corpus.cpp).
  uint64_t phash(const merge::ImageDocument& doc) const;
  size_t vocabulary_size() const { return words_.size(); }

 private:
  std::string log_words(sample::Rng& rng, int n) const;
  std::string site_host(uint64_t site) const;

  std::vector<std::string> words_;  // query-log words, most frequent first
  std::vector<double> cumulative_;  // running sum of their Zipf weights
  uint64_t seed_;
};

// Lines of a query log (one query per line, empty lines skipped).
std::vector<std::string> read_queries(const std::string& path);

// Every k-th query of `all`, `n` of them (all when n is 0 or past its size): the subset spans
// the whole log.
std::vector<std::string> every_kth(const std::vector<std::string>& all, size_t n);

}  // namespace strata::bench
