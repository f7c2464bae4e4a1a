#include "server/api_params.hpp"

#include <algorithm>
#include <charconv>

#include "search/dates.hpp"
#include "search/query_text.hpp"

namespace strata::server {
namespace {

using search::RequestError;

const std::string* get(const Params& p, const std::string& name) {
  auto it = p.find(name);
  return it == p.end() ? nullptr : &it->second;
}

unsigned parse_count(const std::string& name, const std::string& v, unsigned max) {
  unsigned long long n = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    throw RequestError(name, name + " must be a non-negative integer");
  return static_cast<unsigned>(std::min<unsigned long long>(n, max));
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

void parse_filters(const Params& p, search::SearchRequest& r) {
  if (const auto* v = get(p, "type"); v && !v->empty()) r.types = search::parse_types("type", *v);
  if (const auto* v = get(p, "size")) r.size = search::parse_size("size", *v);
  if (const auto* v = get(p, "safeSearch")) r.safe = search::parse_safe("safeSearch", *v);
  if (const auto* v = get(p, "siteSearch"); v && !v->empty())
    r.sites = search::parse_sites("siteSearch", *v);
  if (const auto* v = get(p, "collection"); v && !v->empty())
    r.collections = search::parse_collections("collection", *v);
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
         {"pageHost", "pageImages", "safe", "matchingImages", "matchingPages",
          "imageMetadataChanges", "pageMetadataChanges", "imgTstampLatest", "imgSurt"})
      all.emplace_back(extra);
    return all;
  }();
  return f;
}

ApiRequest parse_api_params(const Params& p) {
  ApiRequest a;
  auto& r = a.search;
  if (const auto* v = get(p, "q")) r.q = *v;
  if (r.q.size() > 2048) throw RequestError("q", "q is longer than 2048 bytes");
  parse_dates(p, r);
  parse_filters(p, r);
  if (const auto* v = get(p, "offset")) r.offset = parse_count("offset", *v, 1000000);
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
  return a;
}

}  // namespace strata::server
