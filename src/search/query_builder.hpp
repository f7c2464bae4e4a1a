#pragma once
// Builds the Xapian query of a search: text matching (any word may match; a dotted word such
// as gov.uk as all its parts or as a host), phrase boosts
// (pf x1000 window+1, pf2 x100 window+2, pf3 x10 window+3, per field x field weight),
// exclusions and filters. docs/search.md explains every rule.
#include <xapian.h>

#include "search/query_text.hpp"
#include "search/request.hpp"

namespace strata::search {

inline constexpr double kPhraseBoost = 1000;  // whole query, slop 1
inline constexpr double kBigramBoost = 100;   // word pairs, slop 2
inline constexpr double kTrigramBoost = 10;   // word triples, slop 3
// Added to the weight of every image that is not page chrome (index prefix `chrome`) under
// Strata's ranking: about a fifth of a word's BM25F weight in a caption, so it orders images
// with the same evidence and never outweighs a phrase (docs/search.md, "Image priors").
inline constexpr double kPlacePrior = 1.0;

// Matching + ranking part (all documents when the query has no words or phrases): BM25F over
// one combined field where each field's words count field-weight times. Safe on any thread:
// never a copy of the static Xapian::Query::MatchAll, whose reference count is not atomic.
Xapian::Query text_query(const ParsedQuery& parsed);
// Everything that only filters (always: not blocked, not inline; then the request's filters).
// `db` is the index searched (the date filter reads its capture years).
Xapian::Query apply_filters(const Xapian::Database& db, const Xapian::Query& query,
                            const SearchRequest& request);
// text_query + exclusions + the place prior (Ranking::strata) + filters.
Xapian::Query build_query(const Xapian::Database& db, const ParsedQuery& parsed,
                          const SearchRequest& request);

}  // namespace strata::search
