#pragma once
// A search request after validation: what the API parameters and the inline operators of q
// ask for. Build it with parse_q() / the server's parameter parser.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "index/schema.hpp"

namespace strata::cover {
struct Expr;  // cover/expr.hpp
}

namespace strata::search {

enum class SizeClass { any, sm, md, lg };  // sm <= 65536 px^2, md <= 810000, lg > 810000
// Web archive images, scanned-book images (docs/books.md "Indexing").
enum class Kind { any, web, book };

// strata: BM25F with Arquivo's field weights and phrase boosts, plus the image priors
// (decorative images hidden unless asked for: docs/search.md, "Image priors").
// arquivo: Arquivo's formula alone, every image shown (the relevance kit's baseline).
enum class Ranking { strata, arquivo };

// A bad request value; `parameter` names the API parameter (or "q" for inline operators).
struct RequestError : std::invalid_argument {
  RequestError(std::string param, const std::string& message)
      : std::invalid_argument(message), parameter(std::move(param)) {}
  std::string parameter;
};

struct SearchRequest {
  std::string q;                    // free text (quotes, -exclusions, operators allowed)
  std::optional<std::string> from;  // lower bound on any capture time, 14 digits
  std::optional<std::string> to;    // upper bound (inclusive), 14 digits
  std::vector<std::string> types;   // mime subtypes (jpeg, png, ...)
  SizeClass size = SizeClass::any;
  bool safe = true;                // show only classified images with safe score <= 0.49
  bool safe_fixed = false;         // set by the caller: the inline safe: operator is ignored
  std::vector<std::string> sites;  // "host" (exact, www. optional) or "*.domain"
  std::vector<std::string> collections;
  Kind kind = Kind::any;
  // Book images only (docs/books.md "Filters"): any of these languages (book_language_code
  // form: "en", "fr"), published in [pub_year_from, pub_year_to] (inclusive, 0-9999).
  std::vector<std::string> languages;
  std::optional<int> pub_year_from, pub_year_to;
  std::string cover;  // a named cover (strata cover --name): what it hides is left out
  // User-defined redundancy (docs/redundancy.md): the page is taken from the minimum cover of
  // the top `redundancy_window` results; with `expand`, the results that id covers instead.
  // The redundancy: operator in q (the same expression inline) applies only when not fixed.
  std::shared_ptr<const cover::Expr> redundancy;
  bool redundancy_fixed = false;  // set by the caller (the parameter, or an export: none)
  unsigned redundancy_window = 1000;
  std::string expand;
  unsigned offset = 0;
  unsigned max_items = 50;
  bool years_facet = true;
  Ranking ranking = Ranking::strata;
  bool show_decorative = false;  // decorative images (spacers, bars, icons, emoji) too
  // One result per near-duplicate group (docs/search.md, "Near-duplicate collapse").
  bool collapse = true;
  bool collapse_fixed = false;  // set by the caller: the inline collapse: operator is ignored
  // group:HEX, only the members of that near-duplicate group (never collapsed).
  std::string group;
};

inline constexpr unsigned kDefaultMaxItems = 50;
inline constexpr unsigned kMaxMaxItems = 200;
inline constexpr unsigned kDefaultRedundancyWindow = 1000;
inline constexpr unsigned kMaxRedundancyWindow = 10'000;
using index::kSafeThreshold;
// Cost bound of q: distinct words and phrases (repeats are dropped), beyond which it is refused.
inline constexpr size_t kMaxQueryTerms = 32;
using index::safe_search_shows;

}  // namespace strata::search
