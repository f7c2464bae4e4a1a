#pragma once
// The SQLite FTS5 baseline: the same documents in one FTS5 table (one column per ranked
// field, unicode61 with diacritics removed, no stemming: FTS5 has no Portuguese stemmer),
// queried with the same OR semantics and bm25() with the same field weights 4,3,3,2,1,1.
// Safe search is a word in a column of its own (weight 0), ANDed to the query: the cheapest
// filter FTS5 has. Each row stores the document as the index stores it (document_data).
#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "index/document_builder.hpp"
#include "merge/document.hpp"

namespace strata::bench {

class Fts5 {
 public:
  explicit Fts5(const std::string& path);  // opens or creates
  ~Fts5();
  Fts5(const Fts5&) = delete;
  Fts5& operator=(const Fts5&) = delete;

  int64_t size();
  void begin();
  void commit();
  void add(const merge::ImageDocument& doc, const index::Moderation& m);
  // Top `limit` by bm25 with the stored JSON of each hit decoded (only what safe search
  // shows when `safe`); returns the number of hits.
  int search(const std::string& query, int limit, bool safe);

 private:
  void exec(const char* sql);
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* select_ = nullptr;
};

// The query in FTS5 syntax: every word quoted, joined with OR ("" when it has no word).
std::string fts5_or_query(const std::string& query);

}  // namespace strata::bench
