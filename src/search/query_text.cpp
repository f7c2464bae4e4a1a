#include "search/query_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "index/book_facts.hpp"

#include "cover/expr.hpp"
#include "index/cover_terms.hpp"

namespace strata::search {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The one operator whose value may be quoted (it may hold spaces): redundancy:"near, better".
constexpr std::string_view kQuotedOperator = "redundancy:";

bool starts_quoted_operator(std::string_view rest) {
  return rest.size() > kQuotedOperator.size() &&
         lower(rest.substr(0, kQuotedOperator.size())) == kQuotedOperator &&
         rest[kQuotedOperator.size()] == '"';
}

struct Item {
  std::string text;
  bool phrase = false;
  bool excluded = false;
};

std::vector<Item> split_items(std::string_view q) {
  std::vector<Item> items;
  size_t i = 0;
  while (i < q.size()) {
    while (i < q.size() && is_space(q[i])) ++i;
    if (i >= q.size()) break;
    Item item;
    if (q[i] == '-' && i + 1 < q.size() && !is_space(q[i + 1])) {
      item.excluded = true;
      ++i;
    }
    if (q[i] == '"') {
      size_t end = q.find('"', i + 1);
      if (end == std::string_view::npos) end = q.size();
      item.text = std::string(q.substr(i + 1, end - i - 1));
      item.phrase = true;
      i = end + 1;
    } else if (starts_quoted_operator(q.substr(i))) {
      // redundancy:"near, better": the value runs to the next unescaped quote (\" is a quote).
      item.text = std::string(q.substr(i, kQuotedOperator.size()));
      i += kQuotedOperator.size() + 1;
      for (; i < q.size() && q[i] != '"'; ++i) {
        if (q[i] == '\\' && i + 1 < q.size()) ++i;
        item.text += q[i];
      }
      ++i;
    } else {
      size_t end = i;
      while (end < q.size() && !is_space(q[end])) ++end;
      item.text = std::string(q.substr(i, end - i));
      i = end;
    }
    items.push_back(std::move(item));
  }
  return items;
}

// Applies `name:value` when name is an operator; false when the item is plain text.
bool apply_operator(const std::string& item, SearchRequest& r) {
  size_t colon = item.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string name = lower(item.substr(0, colon));
  std::string_view value = std::string_view(item).substr(colon + 1);
  if (name == "site") {
    auto sites = parse_sites("q", value);
    r.sites.insert(r.sites.end(), sites.begin(), sites.end());
  } else if (name == "type") {
    auto types = parse_types("q", value);
    r.types.insert(r.types.end(), types.begin(), types.end());
  } else if (name == "size") {
    r.size = parse_size("q", value);
  } else if (name == "kind") {
    r.kind = parse_kind("q", value);
  } else if (name == "language") {
    auto languages = parse_languages("q", value);
    r.languages.insert(r.languages.end(), languages.begin(), languages.end());
  } else if (name == "pubyear") {
    parse_pub_year_range("q", value, r);
  } else if (name == "safe") {
    bool safe = parse_safe("q", value);  // checked even when the caller fixed it
    if (!r.safe_fixed) r.safe = safe;
  } else if (name == "decorative") {
    r.show_decorative = parse_decorative("q", value);
  } else if (name == "collapse") {
    const bool collapse = parse_collapse("q", value);  // checked even when the caller fixed it
    if (!r.collapse_fixed) r.collapse = collapse;
  } else if (name == "group") {
    r.group = parse_group("q", value);
  } else if (name == "redundancy") {
    auto expression = parse_redundancy("q", value);  // checked even when the caller fixed it
    if (!r.redundancy_fixed) r.redundancy = std::move(expression);
  } else if (name == "cover") {
    auto cover_name = parse_cover_name("q", value);  // one cover: the parameter's or the first
    if (r.cover.empty()) r.cover = std::move(cover_name);
  } else if (name == "collection") {
    auto cols = parse_collections("q", value);
    r.collections.insert(r.collections.end(), cols.begin(), cols.end());
  } else {
    return false;
  }
  return true;
}

bool valid_host_chars(std::string_view h) {
  return !h.empty() && std::all_of(h.begin(), h.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '.' || c == '-' || c == '_' || c == ':' || c >= 0x80;
  });
}

}  // namespace

std::vector<std::string> split_list(std::string_view value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string_view::npos) comma = value.size();
    std::string_view item = value.substr(start, comma - start);
    while (!item.empty() && is_space(item.front())) item.remove_prefix(1);
    while (!item.empty() && is_space(item.back())) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    start = comma + 1;
  }
  return out;
}

std::vector<std::string> parse_types(const std::string& param, std::string_view value) {
  std::vector<std::string> out;
  for (std::string t : split_list(lower(value))) {
    if (t.rfind("image/", 0) == 0) t = t.substr(6);
    if (t == "jpg") t = "jpeg";
    if (t == "svg") t = "svg+xml";
    if (t == "ico") t = "x-icon";
    if (t == "tif") t = "tiff";
    bool ok = std::all_of(t.begin(), t.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '+' || c == '-' || c == '.';
    });
    if (!ok) throw RequestError(param, "invalid image type '" + t + "'");
    out.push_back(t);
  }
  if (out.empty()) throw RequestError(param, "empty type list");
  return out;
}

SizeClass parse_size(const std::string& param, std::string_view value) {
  std::string v = lower(value);
  if (v == "sm") return SizeClass::sm;
  if (v == "md") return SizeClass::md;
  if (v == "lg") return SizeClass::lg;
  if (v == "all" || v.empty()) return SizeClass::any;
  throw RequestError(param, "size must be sm, md, lg or all");
}

Kind parse_kind(const std::string& param, std::string_view value) {
  std::string v = lower(value);
  if (v == "web") return Kind::web;
  if (v == "book") return Kind::book;
  if (v == "all" || v.empty()) return Kind::any;
  throw RequestError(param, "kind must be web, book or all");
}

std::vector<std::string> parse_languages(const std::string& param, std::string_view value) {
  std::vector<std::string> out;
  for (const std::string& tag : split_list(value)) {
    std::string code = index::book_language_code(tag);
    if (code.empty())
      throw RequestError(param, "invalid language '" + tag + "': an ISO 639 code such as en");
    out.push_back(std::move(code));
  }
  if (out.empty()) throw RequestError(param, "empty language list");
  return out;
}

int parse_pub_year(const std::string& param, std::string_view value) {
  int year = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), year);
  if (value.empty() || value.size() > 4 || ec != std::errc() ||
      ptr != value.data() + value.size() || year < 0)
    throw RequestError(param, param + " must be a year from 0 to 9999");
  return year;
}

void parse_pub_year_range(const std::string& param, std::string_view value, SearchRequest& r) {
  const size_t dash = value.find('-');
  if (dash == std::string_view::npos) {
    r.pub_year_from = r.pub_year_to = parse_pub_year(param, value);
    return;
  }
  const std::string_view from = value.substr(0, dash), to = value.substr(dash + 1);
  if (from.empty() && to.empty()) throw RequestError(param, "pubyear needs a year or a range");
  if (!from.empty()) r.pub_year_from = parse_pub_year(param, from);
  if (!to.empty()) r.pub_year_to = parse_pub_year(param, to);
  if (r.pub_year_from && r.pub_year_to && *r.pub_year_from > *r.pub_year_to)
    throw RequestError(param, "the publication year range ends before it starts");
}

bool parse_safe(const std::string& param, std::string_view value) {
  std::string v = lower(value);
  if (v == "on" || v == "true" || v.empty()) return true;
  if (v == "off" || v == "false") return false;
  throw RequestError(param, "safe search must be on or off");
}

bool parse_decorative(const std::string& param, std::string_view value) {
  std::string v = lower(value);
  if (v == "show") return true;
  if (v == "hide" || v.empty()) return false;
  throw RequestError(param, "decorative must be show or hide");
}

bool parse_collapse(const std::string& param, std::string_view value) {
  const std::string v = lower(value);
  if (v == "on" || v == "true" || v == "groupid" || v == "phash" || v.empty()) return true;
  // An image's digest is already one result: collapsing on it changes nothing.
  if (v == "off" || v == "false" || v == "none" || v == "imgdigest" || v == "id") return false;
  throw RequestError(param, "collapse must be on (groupId) or off (none, imgDigest)");
}

std::string parse_group(const std::string& param, std::string_view value) {
  const std::string v = lower(value);
  if (v.size() != 16 || !std::all_of(v.begin(), v.end(), [](unsigned char c) {
        return std::isdigit(c) || (c >= 'a' && c <= 'f');
      }))
    throw RequestError(param, "group must be a groupId: 16 hex digits");
  return v;
}

std::shared_ptr<const cover::Expr> parse_redundancy(const std::string& param,
                                                    std::string_view value) {
  try {
    return cover::parse(value);
  } catch (const cover::ExprError& e) {
    throw RequestError(param, "redundancy: " + std::string(e.what()));
  }
}

std::string parse_cover_name(const std::string& param, std::string_view value) {
  if (!index::valid_cover_name(value))
    throw RequestError(param, "cover must name a cover: 1-32 of a-z, 0-9, _ and -");
  return std::string(value);
}

std::vector<std::string> parse_sites(const std::string& param, std::string_view value) {
  std::vector<std::string> out;
  for (std::string s : split_list(lower(value))) {
    if (size_t p = s.find("://"); p != std::string::npos) s = s.substr(p + 3);
    while (!s.empty() && s.back() == '/') s.pop_back();
    std::string_view host = s;
    if (host.rfind("*.", 0) == 0) host.remove_prefix(2);
    if (!valid_host_chars(host)) throw RequestError(param, "invalid site '" + s + "'");
    out.push_back(s);
  }
  if (out.empty()) throw RequestError(param, "empty site list");
  return out;
}

std::vector<std::string> parse_collections(const std::string& param, std::string_view value) {
  auto out = split_list(value);
  if (out.empty()) throw RequestError(param, "empty collection list");
  return out;
}

ParsedQuery parse_q(std::string_view q, SearchRequest& request) {
  ParsedQuery parsed;
  size_t distinct = 0;
  for (const Item& item : split_items(q)) {
    if (item.text.empty()) continue;
    if (!item.phrase && !item.excluded && apply_operator(item.text, request)) continue;
    auto& list = item.phrase ? (item.excluded ? parsed.excluded_phrases : parsed.phrases)
                             : (item.excluded ? parsed.excluded_words : parsed.words);
    std::string key = lower(item.text);
    if (std::any_of(list.begin(), list.end(), [&](const auto& s) { return lower(s) == key; }))
      continue;
    if (++distinct > kMaxQueryTerms)
      throw RequestError(
          "q", "q has more than " + std::to_string(kMaxQueryTerms) + " distinct words and phrases");
    list.push_back(item.text);
  }
  return parsed;
}

}  // namespace strata::search
