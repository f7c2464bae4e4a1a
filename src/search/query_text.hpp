#pragma once
// Parsing of the q parameter: words (any may match), "exact phrases", -excluded words and
// -"excluded phrases", and the inline operators site: type: size: safe: collection:
// decorative: collapse: group: kind: language: pubyear: redundancy: cover:, whose values are applied
// to the request (same validation as the matching parameters). redundancy:"EXPR" may quote its
// value (spaces).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "search/request.hpp"

namespace strata::search {

struct ParsedQuery {
  std::vector<std::string> words;
  std::vector<std::string> phrases;
  std::vector<std::string> excluded_words;
  std::vector<std::string> excluded_phrases;
  bool empty() const { return words.empty() && phrases.empty(); }
};

// Splits q and applies its operators to `request`; repeated words and phrases are dropped
// (case-insensitive). Throws RequestError("q", ...) on a bad operator value or more than
// kMaxQueryTerms distinct words and phrases.
ParsedQuery parse_q(std::string_view q, SearchRequest& request);

// Parameter value checkers shared with the HTTP layer; each throws RequestError(param, ...).
std::vector<std::string> parse_types(const std::string& param, std::string_view value);
SizeClass parse_size(const std::string& param, std::string_view value);
// "web", "book", "all" or empty (both).
Kind parse_kind(const std::string& param, std::string_view value);
bool parse_safe(const std::string& param, std::string_view value);
// "show" -> true (decorative images shown too), "hide" -> false.
bool parse_decorative(const std::string& param, std::string_view value);
// Near-duplicate collapse: "on", "groupId", "phash" -> true; "off", "none", "imgDigest" (Arquivo's
// collapse:FIELD on the digest, already one result per image) -> false.
bool parse_collapse(const std::string& param, std::string_view value);
// A groupId (16 hex digits, case-insensitive) -> its lower-case form.
std::string parse_group(const std::string& param, std::string_view value);
// A coverage expression (cover/expr.hpp); a bad one names its column.
std::shared_ptr<const cover::Expr> parse_redundancy(const std::string& param,
                                                    std::string_view value);
// A named cover (strata cover --name): 1-32 of a-z, 0-9, _ and -.
std::string parse_cover_name(const std::string& param, std::string_view value);
std::vector<std::string> parse_sites(const std::string& param, std::string_view value);
std::vector<std::string> parse_collections(const std::string& param, std::string_view value);
// Book languages, comma-separated: each a language tag whose primary subtag is 2-8 letters
// ("en", "pt-BR") -> the subtags, lower-cased ("en", "pt").
std::vector<std::string> parse_languages(const std::string& param, std::string_view value);
// A publication year, 0-9999.
int parse_pub_year(const std::string& param, std::string_view value);
// The q operator pubyear:Y, pubyear:Y1-Y2, pubyear:Y1- or pubyear:-Y2 -> the request's range.
void parse_pub_year_range(const std::string& param, std::string_view value, SearchRequest& r);

// Splits on commas, trims, drops empty items.
std::vector<std::string> split_list(std::string_view value);

}  // namespace strata::search
