#include "server/index_summary.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "core/json.hpp"
#include "index/analysis.hpp"
#include "index/document_builder.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "search/searcher.hpp"

namespace strata::server {
namespace {

// Every image a search lists (no words, no filter but `collection`), with its years.
search::SearchResult count_images(Xapian::Database& db, const search::IndexParts& parts,
                                  bool safe_only, const std::string& collection) {
  search::SearchRequest r;
  r.safe = safe_only;
  r.safe_fixed = true;
  r.show_decorative = true;
  r.collapse = false;
  r.collapse_fixed = true;
  r.max_items = 0;
  if (!collection.empty()) r.collections = {collection};
  return search::search(db, parts, r);
}

void year_range(const search::SearchResult& result, int& first, int& last) {
  first = last = 0;
  for (const auto& [year, count] : result.years) {
    if (count == 0) continue;
    const int y = std::atoi(year.c_str());
    if (first == 0 || y < first) first = y;
    if (y > last) last = y;
  }
}

bool has_term(Xapian::Document& d, std::string_view prefix) {
  Xapian::TermIterator t = d.termlist_begin();
  t.skip_to(std::string(prefix));
  return t != d.termlist_end() && (*t).compare(0, prefix.size(), prefix) == 0;
}

// The texts of well-described images (a title, alt text or caption) that safe search shows
// and that are neither decorative, blocked nor inline, read from documents spread evenly
// over the index.
std::vector<std::vector<std::string>> sample_texts(Xapian::Database& db,
                                                   const search::IndexParts& parts) {
  std::vector<std::vector<std::string>> texts;
  const Xapian::docid last = db.get_lastdocid();
  if (last == 0) return texts;
  const Xapian::docid stride =
      std::max<Xapian::docid>(1, last / Xapian::docid(kSummarySampledDocuments));
  for (Xapian::docid id = 1; id <= last; id += stride) {
    Xapian::Document d;
    try {
      d = db.get_document(id);
    } catch (const Xapian::DocNotFoundError&) {
      continue;
    }
    if (has_term(d, index::prefix::blocked) || has_term(d, index::prefix::inline_img) ||
        has_term(d, index::prefix::decorative) || has_term(d, index::prefix::safe_hidden))
      continue;
    merge::ImageDocument doc;
    index::Moderation m;
    if (!index::parse_document_data(parts.stored(id).unpack(d.get_data()), doc, m)) continue;
    std::vector<std::string> own;
    for (const auto* field : {&doc.imgTitle, &doc.imgAlt, &doc.imgCaption})
      for (const auto& v : *field)
        if (!v.empty()) own.push_back(v);
    if (!own.empty()) texts.push_back(std::move(own));
  }
  return texts;
}

// English function words (the index's stop list is Portuguese) and the file and address words
// that titles and alt texts copied from file names carry: never examples.
bool ignored_word(const std::string& w) {
  static const std::set<std::string, std::less<>> words = {
      "the",   "and",   "for",   "with", "from",  "that", "this", "are",   "was",   "were",
      "not",   "but",   "you",   "your", "our",   "its",  "his",  "her",   "their", "has",
      "have",  "had",   "all",   "any",  "can",   "will", "into", "out",   "about", "more",
      "other", "than",  "then",  "who",  "which", "what", "when", "where", "how",   "new",
      "one",   "over",  "under", "jpg",  "jpeg",  "png",  "gif",  "webp",  "svg",   "img",
      "http",  "https", "www",   "com",  "html",  "htm",  "php"};
  return words.count(w) > 0;
}

bool usable_word(const index::Token& t) {
  if (t.stop || t.joined || t.exact.size() < 3 || ignored_word(t.exact)) return false;
  return !std::all_of(t.exact.begin(), t.exact.end(),
                      [](char c) { return (c >= '0' && c <= '9') || c == '_'; });
}

}  // namespace

std::vector<std::string> example_queries(const std::vector<std::vector<std::string>>& texts,
                                         size_t wanted) {
  // Per word and per adjacent word pair: the documents they occur in; a word is counted by its
  // stem (a query matches stems) and shown as its most frequent folded form.
  std::unordered_map<std::string, size_t> word_docs, pair_docs;
  std::unordered_map<std::string, std::map<std::string, size_t>> forms;
  for (const auto& values : texts) {
    std::set<std::string> words, pairs;
    for (const auto& text : values) {
      const index::Token* previous = nullptr;
      const auto tokens = index::analyze(text);
      for (const auto& t : tokens) {
        if (!usable_word(t)) continue;  // "farol na tempestade" gives "farol tempestade"
        ++forms[t.stem][t.exact];
        words.insert(t.stem);
        if (previous && previous->stem != t.stem) pairs.insert(previous->stem + " " + t.stem);
        previous = &t;
      }
    }
    for (const auto& w : words) ++word_docs[w];
    for (const auto& p : pairs) ++pair_docs[p];
  }
  auto shown = [&](const std::string& stem) {
    const auto& f = forms[stem];
    return std::max_element(f.begin(), f.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  };
  auto ranked = [](const std::unordered_map<std::string, size_t>& counts, size_t at_least) {
    std::vector<std::pair<std::string, size_t>> out;
    for (const auto& [k, n] : counts)
      if (n >= at_least) out.emplace_back(k, n);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return out;
  };
  std::vector<std::string> examples;
  std::set<std::string> used;
  // Half the examples at most are pairs, so single subjects are offered too.
  for (const auto& [pair, n] : ranked(pair_docs, 2)) {
    if (examples.size() >= (wanted + 1) / 2) break;
    const std::string a = pair.substr(0, pair.find(' ')), b = pair.substr(pair.find(' ') + 1);
    if (used.count(a) || used.count(b)) continue;
    used.insert(a), used.insert(b);
    examples.push_back(shown(a) + " " + shown(b));
  }
  for (const auto& [word, n] : ranked(word_docs, 1)) {
    if (examples.size() >= wanted) break;
    if (used.insert(word).second) examples.push_back(shown(word));
  }
  return examples;
}

IndexSummary summarize_index(Xapian::Database& db, bool safe_only) {
  IndexSummary s = summarize_index(db, search::IndexParts(db), safe_only, 0, 0);
  s.version = version_of(db);
  return s;
}

IndexSummary summarize_index(Xapian::Database& db, const search::IndexParts& parts,
                             bool safe_only, size_t shards, size_t missing) {
  IndexSummary s;
  s.version = version_of(parts);
  s.shards = shards;
  s.shards_missing = missing;
  const search::SearchResult all = count_images(db, parts, safe_only, "");
  s.images = all.total;
  year_range(all, s.first_year, s.last_year);
  const std::string prefix(index::prefix::collection);
  for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
    CollectionSummary c;
    c.name = (*t).substr(prefix.size());
    const search::SearchResult in = count_images(db, parts, safe_only, c.name);
    c.images = in.total;
    if (c.images == 0) continue;  // only blocked or inline images
    year_range(in, c.first_year, c.last_year);
    s.collections.push_back(std::move(c));
  }
  s.examples = example_queries(sample_texts(db, parts), kSummaryExamples);
  return s;
}

std::string summary_json(const IndexSummary& s, bool pretty) {
  auto years = [](Json& j, int first, int last) {
    if (first) j["from"] = first, j["to"] = last;
  };
  Json j = {{"totalImages", s.images}};
  years(j, s.first_year, s.last_year);
  Json collections = Json::array();
  for (const auto& c : s.collections) {
    Json cj = {{"name", c.name}, {"images", c.images}};
    years(cj, c.first_year, c.last_year);
    collections.push_back(std::move(cj));
  }
  j["collections"] = std::move(collections);
  j["examples"] = s.examples;
  if (s.shards) {
    j["partialResults"] = s.shards_missing > 0;
    j["shards"] = {{"total", s.shards}, {"missing", s.shards_missing}};
  }
  return pretty ? j.dump(2) : j.dump();
}

std::shared_ptr<const IndexSummary> IndexSummaryCache::get(Xapian::Database& db, bool safe_only) {
  return cache_.get(db, [safe_only](Xapian::Database& d) {
    return std::make_shared<const IndexSummary>(summarize_index(d, safe_only));
  });
}

std::shared_ptr<const IndexSummary> IndexSummaryCache::get(Xapian::Database& db,
                                                           const search::IndexParts& parts,
                                                           bool safe_only, size_t shards,
                                                           size_t missing) {
  return cache_.get(db, version_of(parts), [&](Xapian::Database& d) {
    return std::make_shared<const IndexSummary>(
        summarize_index(d, parts, safe_only, shards, missing));
  });
}

}  // namespace strata::server
