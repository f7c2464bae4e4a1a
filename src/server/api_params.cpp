#include "server/api_params.hpp"

#include <algorithm>
#include <charconv>

#include "search/dates.hpp"
#include "search/query_text.hpp"
#include "server/api_book_fields.hpp"

namespace strata::server {
namespace {

using search::RequestError;

// The last value of a repeated parameter.
const std::string* get(const Params& p, const std::string& name) {
  auto [first, end] = p.equal_range(name);
  return first == end ? nullptr : &std::prev(end)->second;
}

unsigned parse_count(const std::string& name, const std::string& v, unsigned max) {
  unsigned long long n = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    throw RequestError(name, name + " must be a non-negative integer");
  if (n > max) throw RequestError(name, name + " must be at most " + std::to_string(max));
  return static_cast<unsigned>(n);
}

// The operator's default unless locked; a safeSearch parameter is on when any value is on.
void parse_safe_search(const Params& p, const ApiConfig& config, search::SearchRequest& r) {
  r.safe = config.safe_search;
  r.safe_fixed = config.safe_search_locked;
  auto [first, end] = p.equal_range("safeSearch");
  if (first == end) return;
  bool any_on = false;
  for (auto it = first; it != end; ++it) any_on |= search::parse_safe("safeSearch", it->second);
  if (config.safe_search_locked) return;
  r.safe = any_on;
  r.safe_fixed = true;
}

std::vector<std::string> parse_field_list(const std::string& name, const std::string& v) {
  auto list = search::split_list(v);
  for (const auto& f : list)
    if (std::find(known_fields().begin(), known_fields().end(), f) == known_fields().end())
      throw RequestError(name, "unknown field '" + f + "'");
  return list;
}

bool parse_bool(const std::string& name, const std::string& v) {
  if (v == "true") return true;
  if (v == "false") return false;
  throw RequestError(name, name + " must be true or false");
}

void parse_dates(const Params& p, search::SearchRequest& r) {
  if (const auto* v = get(p, "from"); v && !v->empty()) {
    r.from = search::parse_lower_bound(*v);
    if (!r.from) throw RequestError("from", "from must be yyyy, yyyyMMdd or yyyyMMddHHmmss");
  }
  if (const auto* v = get(p, "to"); v && !v->empty()) {
    r.to = search::parse_upper_bound(*v);
    if (!r.to) throw RequestError("to", "to must be yyyy, yyyyMMdd or yyyyMMddHHmmss");
  }
  if (r.from && r.to && *r.from > *r.to) throw RequestError("to", "to is before from");
}

// language=en,fr and pubYearFrom/pubYearTo (book images only; docs/api.md "Book images").
void parse_book_filters(const Params& p, search::SearchRequest& r) {
  if (const auto* v = get(p, "language"); v && !v->empty())
    r.languages = search::parse_languages("language", *v);
  if (const auto* v = get(p, "pubYearFrom"); v && !v->empty())
    r.pub_year_from = search::parse_pub_year("pubYearFrom", *v);
  if (const auto* v = get(p, "pubYearTo"); v && !v->empty())
    r.pub_year_to = search::parse_pub_year("pubYearTo", *v);
  if (r.pub_year_from && r.pub_year_to && *r.pub_year_from > *r.pub_year_to)
    throw RequestError("pubYearTo", "pubYearTo is before pubYearFrom");
}

void parse_filters(const Params& p, search::SearchRequest& r) {
  if (const auto* v = get(p, "type"); v && !v->empty()) r.types = search::parse_types("type", *v);
  if (const auto* v = get(p, "size")) r.size = search::parse_size("size", *v);
  if (const auto* v = get(p, "kind")) r.kind = search::parse_kind("kind", *v);
  parse_book_filters(p, r);
  if (const auto* v = get(p, "siteSearch"); v && !v->empty())
    r.sites = search::parse_sites("siteSearch", *v);
  if (const auto* v = get(p, "collection"); v && !v->empty())
    r.collections = search::parse_collections("collection", *v);
  if (const auto* v = get(p, "cover"); v && !v->empty())
    r.cover = search::parse_cover_name("cover", *v);
  if (const auto* v = get(p, "decorative"))
    r.show_decorative = search::parse_decorative("decorative", *v);
  if (const auto* v = get(p, "collapse")) {
    r.collapse = search::parse_collapse("collapse", *v);
    r.collapse_fixed = true;
  }
}

// redundancy=EXPR (the coverage language, errors name their column), redundancyWindow=N,
// expand=ID (docs/api.md, "Redundancy").
void parse_redundancy(const Params& p, search::SearchRequest& r) {
  if (const auto* v = get(p, "redundancy"); v && !v->empty()) {
    r.redundancy = search::parse_redundancy("redundancy", *v);
    r.redundancy_fixed = true;
  }
  if (const auto* v = get(p, "redundancyWindow")) {
    r.redundancy_window = parse_count("redundancyWindow", *v, search::kMaxRedundancyWindow);
    if (r.redundancy_window == 0)
      throw RequestError("redundancyWindow", "redundancyWindow must be at least 1");
  }
  // Checked by the search: the redundancy may come from q (redundancy:EXPR).
  if (const auto* v = get(p, "expand"); v && !v->empty()) r.expand = *v;
}

}  // namespace

const std::vector<std::string>& default_fields() {
  static const std::vector<std::string> f{
      "imgDigest",  "imgSrc",    "imgMimeType", "imgHeight",        "imgWidth",
      "imgTstamp",  "imgTitle",  "imgAlt",      "imgCaption",       "pageURL",
      "pageTstamp", "pageTitle", "collection",  "imgLinkToArchive", "pageLinkToArchive"};
  return f;
}

const std::vector<std::string>& known_fields() {
  static const std::vector<std::string> f = [] {
    std::vector<std::string> all = default_fields();
    for (const char* extra :
         {"pageHost", "pageImages", "safe", "matchingImages", "matchingPages", "distinctPages",
          "imageMetadataChanges", "pageMetadataChanges", "imgTstampLatest", "imgSurt", "groupId",
          "groupSize", "collapsedImages", "phash", "pdq"})
      all.emplace_back(extra);
    all.insert(all.end(), kBookFields.begin(), kBookFields.end());
    return all;
  }();
  return f;
}

ApiRequest parse_api_params(const Params& p, const ApiConfig& config) {
  ApiRequest a;
  auto& r = a.search;
  if (const auto* v = get(p, "q")) r.q = *v;
  if (r.q.size() > kMaxQueryBytes)
    throw RequestError("q", "q is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  parse_dates(p, r);
  parse_filters(p, r);
  parse_safe_search(p, config, r);
  if (const auto* v = get(p, "offset")) r.offset = parse_count("offset", *v, kMaxOffset);
  if (const auto* v = get(p, "maxItems"))
    r.max_items = parse_count("maxItems", *v, search::kMaxMaxItems);
  a.fields = default_fields();
  if (const auto* v = get(p, "fields")) a.fields = parse_field_list("fields", *v);
  if (const auto* v = get(p, "more")) {
    auto more = parse_field_list("more", *v);
    for (const auto& f : a.fields)
      if (std::find(more.begin(), more.end(), f) == more.end()) more.push_back(f);
    a.fields = more;
  }
  if (const auto* v = get(p, "prettyPrint")) a.pretty = parse_bool("prettyPrint", *v);
  parse_redundancy(p, r);
  return a;
}

}  // namespace strata::server
