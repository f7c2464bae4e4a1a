#include "fts5.hpp"

#include <stdexcept>

#include "index/analysis.hpp"
#include "search/request.hpp"

namespace strata::bench {
namespace {

// The `shown` column's one word, in documents that safe search shows.
constexpr const char* kSafeToken = "safe";

std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : "\n") + v;
  return out;
}

}  // namespace

std::string fts5_or_query(const std::string& query) {
  std::string out;
  for (const auto& w : index::split_words(query)) out += (out.empty() ? "\"" : " OR \"") + w + "\"";
  return out;
}

Fts5::Fts5(const std::string& path) {
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK)
    throw std::runtime_error("cannot open " + path);
  exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
  exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(imgTitle, imgAlt, imgCaption, "
      "imgUrlTokens, pageTitle, pageUrlTokens, shown, data UNINDEXED, "
      "tokenize='unicode61 remove_diacritics 2')");
  sqlite3_prepare_v2(db_, "INSERT INTO docs VALUES (?,?,?,?,?,?,?,?)", -1, &insert_, nullptr);
  sqlite3_prepare_v2(db_,
                     "SELECT data FROM docs WHERE docs MATCH ? "
                     "ORDER BY bm25(docs, 4, 3, 3, 2, 1, 1, 0) LIMIT ?",
                     -1, &select_, nullptr);
}

Fts5::~Fts5() {
  sqlite3_finalize(insert_);
  sqlite3_finalize(select_);
  sqlite3_close(db_);
}

void Fts5::exec(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "?";
    sqlite3_free(error);
    throw std::runtime_error("sqlite: " + message);
  }
}

int64_t Fts5::size() {
  sqlite3_stmt* count = nullptr;
  sqlite3_prepare_v2(db_, "SELECT count(*) FROM docs", -1, &count, nullptr);
  int64_t n = sqlite3_step(count) == SQLITE_ROW ? sqlite3_column_int64(count, 0) : 0;
  sqlite3_finalize(count);
  return n;
}

void Fts5::begin() {
  exec("BEGIN");
}
void Fts5::commit() {
  exec("COMMIT");
}

void Fts5::add(const merge::ImageDocument& d, const index::Moderation& m) {
  const std::string fields[] = {joined(d.imgTitle),
                                joined(d.imgAlt),
                                joined(d.imgCaption),
                                d.imgUrlTokens,
                                d.pageTitle,
                                d.pageUrlTokens,
                                search::safe_search_shows(m.safe) ? kSafeToken : "",
                                index::document_data(d, m)};
  for (int i = 0; i < 8; ++i)
    sqlite3_bind_text(insert_, i + 1, fields[i].c_str(), static_cast<int>(fields[i].size()),
                      SQLITE_TRANSIENT);
  if (sqlite3_step(insert_) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db_));
  sqlite3_reset(insert_);
}

int Fts5::search(const std::string& query, int limit, bool safe) {
  std::string match = fts5_or_query(query);
  if (match.empty()) return 0;
  if (safe) match = "(" + match + ") AND shown : " + kSafeToken;
  sqlite3_bind_text(select_, 1, match.c_str(), static_cast<int>(match.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int(select_, 2, limit);
  int hits = 0;
  while (sqlite3_step(select_) == SQLITE_ROW) {
    std::string data(reinterpret_cast<const char*>(sqlite3_column_text(select_, 0)));
    merge::ImageDocument doc;  // decoded as the Xapian side decodes its hits
    index::Moderation m;
    hits += index::parse_document_data(data, doc, m) ? 1 : 0;
  }
  sqlite3_reset(select_);
  return hits;
}

}  // namespace strata::bench
