#include "search/query_builder.hpp"

#include <algorithm>

#include "index/analysis.hpp"
#include "index/book_facts.hpp"
#include "index/cover_terms.hpp"
#include "index/schema.hpp"
#include "search/capture_range.hpp"

namespace strata::search {
namespace {

using index::Token;
using Q = Xapian::Query;

constexpr size_t kMaxHostBytes = 240;  // longer names have no host term (document_builder)

std::string cat(std::string_view a, std::string_view b) {
  std::string s(a);
  s += b;
  return s;
}

std::vector<Token> tokens_of(const std::vector<std::string>& texts) {
  std::vector<Token> out;
  for (const auto& t : texts)
    for (auto& tok : index::analyze(t)) out.push_back(std::move(tok));
  return out;
}

// One word's term in the combined BM25F field: its stem (index/schema.hpp).
Q word_query(const Token& t) {
  return Q(t.stem);
}

// Phrase in the combined field, scaled by boost (1 for a plain phrase); its weight is its
// words' BM25F weight, so the field weights apply. Fields' positions never meet (index/schema).
Q phrase_query(const std::vector<Token>& toks, size_t from, size_t n, unsigned slop, double boost) {
  std::vector<Q> terms;
  for (size_t i = from; i < from + n; ++i) terms.emplace_back(toks[i].stem);
  Q phrase(Q::OP_PHRASE, terms.begin(), terms.end(), Xapian::termcount(n + slop));
  return boost == 1 ? phrase : Q(Q::OP_SCALE_WEIGHT, phrase, boost);
}

Q phrase_boosts(const std::vector<Token>& toks) {
  std::vector<Q> boosts;
  const size_t n = toks.size();
  if (n >= 2) boosts.push_back(phrase_query(toks, 0, n, 1, kPhraseBoost));
  for (size_t i = 0; n >= 2 && i + 2 <= n; ++i)
    boosts.push_back(phrase_query(toks, i, 2, 2, kBigramBoost));
  for (size_t i = 0; n >= 3 && i + 3 <= n; ++i)
    boosts.push_back(phrase_query(toks, i, 3, 3, kTrigramBoost));
  return Q(Q::OP_OR, boosts.begin(), boosts.end());
}

Q user_phrase(const std::string& text) {
  std::vector<Token> toks = index::analyze(text);
  if (toks.empty()) return Q();
  if (toks.size() == 1) return word_query(toks[0]);
  return phrase_query(toks, 0, toks.size(), 0, 1);
}

Q term(std::string_view prefix, const std::string& value) {
  return Q(cat(prefix, value));
}

Q any_of(std::string_view prefix, const std::vector<std::string>& values) {
  std::vector<Q> terms;
  for (const auto& v : values) terms.push_back(term(prefix, v));
  return Q(Q::OP_OR, terms.begin(), terms.end());
}

Q site_query(const std::vector<std::string>& sites) {
  std::vector<Q> out;
  for (std::string s : sites) {
    if (s.rfind("*.", 0) == 0) {
      out.push_back(term(index::prefix::domain, s.substr(2)));
      continue;
    }
    if (s.rfind("www.", 0) == 0) s = s.substr(4);
    out.push_back(term(index::prefix::host, s));
    out.push_back(term(index::prefix::host, "www." + s));
  }
  return Q(Q::OP_OR, out.begin(), out.end());
}

Q size_query(SizeClass size) {
  auto v = [](double x) { return Xapian::sortable_serialise(x); };
  switch (size) {
    case SizeClass::sm:
      return Q(Q::OP_VALUE_LE, index::slot::area, v(65536));
    case SizeClass::md:
      return Q(Q::OP_VALUE_RANGE, index::slot::area, v(65537), v(810000));
    case SizeClass::lg:
      return Q(Q::OP_VALUE_GE, index::slot::area, v(810001));
    case SizeClass::any:
      break;
  }
  return Q();
}

// One past the last token of the word starting at `from` (a dotted word's parts are joined).
size_t word_end(const std::vector<Token>& toks, size_t from) {
  size_t end = from + 1;
  while (end < toks.size() && toks[end].joined) ++end;
  return end;
}

// A dotted word ("gov.uk", "books.toscrape.com", "string.js") matches documents whose text
// or URL tokens hold all its parts (URL tokens split hosts at dots), scored as those words;
// and, as a host name, images of pages on that host or under that domain (boolean terms:
// they match without adding weight). A leading "www" is left out, as URL tokens leave it out.
Q dotted_word_query(const std::vector<Token>& toks, size_t from, size_t end) {
  if (toks[from].exact == "www" && end - from > 2) ++from;
  std::vector<Q> parts;
  std::string host;
  for (size_t i = from; i < end; ++i) {
    parts.push_back(word_query(toks[i]));
    host += (host.empty() ? "" : ".") + toks[i].exact;
  }
  Q words(Q::OP_AND, parts.begin(), parts.end());
  if (host.size() >= kMaxHostBytes) return words;
  return Q(Q::OP_OR, words, Q(Q::OP_OR, site_query({host}), term(index::prefix::domain, host)));
}

Q exclusions(const ParsedQuery& parsed) {
  std::vector<Q> out;
  const std::vector<Token> words = tokens_of(parsed.excluded_words);
  for (size_t i = 0, end = 0; i < words.size(); i = end) {
    end = word_end(words, i);
    out.push_back(end - i > 1 ? dotted_word_query(words, i, end) : word_query(words[i]));
  }
  for (const auto& p : parsed.excluded_phrases) {
    std::vector<Token> toks = index::analyze(p);
    if (toks.size() == 1) out.push_back(word_query(toks[0]));
    if (toks.size() > 1) out.push_back(phrase_query(toks, 0, toks.size(), 0, 1));
  }
  return Q(Q::OP_OR, out.begin(), out.end());
}

}  // namespace

Q text_query(const ParsedQuery& parsed) {
  std::vector<Token> toks = tokens_of(parsed.words);
  bool only_stop = std::all_of(toks.begin(), toks.end(), [](const Token& t) { return t.stop; });
  std::vector<Q> clauses;
  for (size_t i = 0; i < toks.size();) {
    const size_t end = word_end(toks, i);
    if (end - i > 1)
      clauses.push_back(dotted_word_query(toks, i, end));
    else if (!toks[i].stop || only_stop)
      clauses.push_back(word_query(toks[i]));
    i = end;
  }
  for (const auto& p : parsed.phrases) clauses.push_back(user_phrase(p));
  Q main(Q::OP_OR, clauses.begin(), clauses.end());
  // Not Q::MatchAll: a static whose reference count is not atomic, so copies of it on the
  // server's worker threads corrupted it and crashed `strata serve` (xapian/query.h says so).
  if (main.empty()) return parsed.empty() ? Q(std::string()) : Q::MatchNothing;
  if (toks.size() < 2) return main;
  return Q(Q::OP_AND_MAYBE, main, phrase_boosts(toks));
}

namespace {

// Book images published in [from, to]: the year terms the index holds in that range (a few
// hundred at most, read from the term list, not one per year asked for).
Q pub_year_query(const Xapian::Database& db, int from, int to) {
  const std::string first = index::book_year_term(from), last = index::book_year_term(to);
  std::vector<Q> years;
  for (auto t = db.allterms_begin(std::string(index::kBookYearPrefix));
       t != db.allterms_end(std::string(index::kBookYearPrefix)); ++t) {
    const std::string term = *t;
    if (term >= first && term <= last) years.emplace_back(term);
  }
  return years.empty() ? Q::MatchNothing : Q(Q::OP_OR, years.begin(), years.end());
}

}  // namespace

Q apply_filters(const Xapian::Database& db, const Q& query, const SearchRequest& r) {
  using namespace index;
  std::vector<Q> filters;
  if (!r.types.empty()) filters.push_back(any_of(prefix::mime, r.types));
  filters.push_back(size_query(r.size));
  if (!r.sites.empty()) filters.push_back(site_query(r.sites));
  if (!r.collections.empty()) filters.push_back(any_of(prefix::collection, r.collections));
  if (!r.group.empty()) filters.push_back(term(prefix::near_duplicate_group, r.group));
  if (r.kind == Kind::book) filters.emplace_back(std::string(prefix::book));
  if (!r.languages.empty()) filters.push_back(any_of(kBookLanguagePrefix, r.languages));
  Q out = query;
  // Decorative images (spacers, bars, icons, emoji: index/decorative.hpp) are hidden unless
  // asked for; Arquivo's formula (the relevance baseline) shows everything.
  if (!r.show_decorative && r.ranking == Ranking::strata)
    out = Q(Q::OP_AND_NOT, out, Q(std::string(prefix::decorative)));
  // Not in `filters`: the date filter may be MatchNothing, which is also the empty query.
  if (r.from || r.to) out = Q(Q::OP_FILTER, out, capture_range_query(db, r.from, r.to));
  // The same for the publication years (none in the range: MatchNothing).
  if (r.pub_year_from || r.pub_year_to)
    out = Q(Q::OP_FILTER, out,
            pub_year_query(db, r.pub_year_from.value_or(0), r.pub_year_to.value_or(9999)));
  if (!r.cover.empty()) out = Q(Q::OP_AND_NOT, out, Q(index::covered_term(r.cover)));
  if (r.kind == Kind::web) out = Q(Q::OP_AND_NOT, out, Q(std::string(prefix::book)));
  for (const Q& f : filters)
    if (!f.empty()) out = Q(Q::OP_FILTER, out, f);
  std::vector<Q> hidden{Q(std::string(prefix::blocked)), Q(std::string(prefix::inline_img))};
  // Safe search shows classified images only: unclassified ones stay hidden until classified.
  if (r.safe) hidden.emplace_back(std::string(prefix::safe_hidden));
  return Q(Q::OP_AND_NOT, out, Q(Q::OP_OR, hidden.begin(), hidden.end()));
}

namespace {

// The query, with kPlacePrior added to the weight of every match that is not page chrome: a
// fixed weight (no value read per match) on the documents without the chrome term.
Q with_place_prior(const Q& query) {
  Q prior((new Xapian::FixedWeightPostingSource(kPlacePrior))->release());
  return Q(Q::OP_AND_MAYBE, query, Q(Q::OP_AND_NOT, prior, Q(std::string(index::prefix::chrome))));
}

}  // namespace

Q build_query(const Xapian::Database& db, const ParsedQuery& parsed, const SearchRequest& request) {
  Q query = text_query(parsed);
  Q excluded = exclusions(parsed);
  if (!excluded.empty()) query = Q(Q::OP_AND_NOT, query, excluded);
  if (request.ranking == Ranking::strata) query = with_place_prior(query);
  return apply_filters(db, query, request);
}

}  // namespace strata::search
