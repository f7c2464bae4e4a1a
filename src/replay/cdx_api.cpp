#include "replay/cdx_api.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <regex>
#include <vector>

#include "cdx/cdxj.hpp"
#include "core/json.hpp"
#include "core/timestamp.hpp"
#include "replay/memento.hpp"
#include "url/url.hpp"

namespace strata::replay {
namespace {

using Params = std::multimap<std::string, std::string>;

constexpr std::array<std::string_view, 9> kFields = {
    "urlkey", "timestamp", "url", "mime", "status", "digest", "length", "offset", "filename"};
// Longer expressions are refused, longer values never match a regex (std::regex recurses
// per character).
constexpr size_t kMaxRegex = 256, kMaxRegexSubject = 4096;

bool known_field(std::string_view f) {
  return std::find(kFields.begin(), kFields.end(), f) != kFields.end();
}

std::string field(const Capture& c, std::string_view name) {
  if (name == "urlkey") return c.urlkey;
  if (name == "timestamp") return c.timestamp;
  if (name == "url") return c.url;
  if (name == "mime") return c.mime;
  if (name == "status") return c.status;
  if (name == "digest") return c.digest;
  if (name == "length") return std::to_string(c.length);
  if (name == "offset") return std::to_string(c.offset);
  return c.filename;
}

struct Filter {
  bool invert = false;
  char mode = 0;  // 0 contains, '=' exact, '~' regex
  std::string name, expression;
  std::optional<std::regex> regex;
  bool keeps(const Capture& c) const {
    std::string v = field(c, name);
    bool hit = mode == '=' ? v == expression
               : mode == '~'
                   ? v.size() <= kMaxRegexSubject &&
                         std::regex_search(v, *regex, std::regex_constants::match_continuous)
                   : v.find(expression) != std::string::npos;
    return hit != invert;
  }
};

struct Collapse {
  std::string name;
  size_t chars = std::string::npos;
  std::optional<std::string> last;
  bool keeps(const Capture& c) {
    std::string v = field(c, name).substr(0, chars);
    if (last && *last == v) return false;
    last = v;
    return true;
  }
};

struct Query {
  std::string first_key, last_key;
  std::string from = "00000000000000", to = "99999999999999";
  std::vector<Filter> filters;
  std::vector<Collapse> collapses;
  size_t limit = std::string::npos;
  std::string sort, closest, output = "cdxj";
  std::vector<std::string> fields;
};

CdxAnswer bad(const std::string& parameter, const std::string& message) {
  return {400, Json{{"error", {{"parameter", parameter}, {"message", message}}}}.dump(),
          "application/json; charset=UTF-8"};
}

std::string inc_last_char(std::string key) {
  if (!key.empty()) key.back() = static_cast<char>(key.back() + 1);
  return key;
}

// The key range of `url` under `match` (pywb's calc_search_range).
std::optional<std::string> key_range(std::string url, std::string match, Query& q) {
  if (url.ends_with("*") && match == "exact") {
    url.pop_back();
    match = "prefix";
  }
  if (url.starts_with("*.")) {
    url.erase(0, 2);
    match = "domain";
  }
  if (url.empty()) return "url";
  std::string key = url::cdx_surt(url);
  std::string host = key.substr(0, key.find(")/"));
  if (match == "exact") {
    q.first_key = key;
    q.last_key = key + '\0';
  } else if (match == "prefix") {
    if (url.ends_with('/') && !key.ends_with('/')) key += '/';
    q.first_key = key;
    q.last_key = inc_last_char(key);
  } else if (match == "host") {
    q.first_key = host + ")/";
    q.last_key = inc_last_char(q.first_key);
  } else if (match == "domain") {
    q.first_key = host;
    q.last_key = host + "-";
  } else {
    return "matchType";
  }
  return std::nullopt;
}

std::optional<CdxAnswer> parse_filter(const std::string& text, Query& q) {
  Filter f;
  std::string_view s = text;
  if (s.starts_with('!')) f.invert = true, s.remove_prefix(1);
  if (s.starts_with('=') || s.starts_with('~')) f.mode = s.front(), s.remove_prefix(1);
  size_t colon = s.find(':');
  if (colon == std::string_view::npos) return bad("filter", "expected [!][=|~]field:expression");
  f.name = s.substr(0, colon);
  f.expression = s.substr(colon + 1);
  if (!known_field(f.name)) return bad("filter", "unknown field " + f.name);
  if (f.mode == '~') {
    if (f.expression.size() > kMaxRegex) return bad("filter", "regular expression too long");
    try {
      f.regex.emplace(f.expression, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      return bad("filter", "invalid regular expression");
    }
  }
  q.filters.push_back(std::move(f));
  return std::nullopt;
}

std::optional<CdxAnswer> parse_collapse(const std::string& text, Query& q) {
  Collapse c;
  size_t colon = text.find(':');
  c.name = text.substr(0, colon);
  if (!known_field(c.name)) return bad("collapse", "unknown field " + c.name);
  if (colon != std::string::npos) {
    std::string n = text.substr(colon + 1);
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), c.chars);
    if (ec != std::errc() || end != n.data() + n.size() || c.chars == 0)
      return bad("collapse", "expected field or field:N with N > 0");
  }
  q.collapses.push_back(std::move(c));
  return std::nullopt;
}

std::optional<CdxAnswer> parse_scalar(const std::string& name, const std::string& value, Query& q) {
  if (name == "from" || name == "to" || name == "closest") {
    auto ts = pad_timestamp(value, name == "to" ? Pad::up : Pad::down);
    if (!ts) return bad(name, "expected a timestamp of 4 to 14 digits");
    (name == "from" ? q.from : name == "to" ? q.to : q.closest) = *ts;
  } else if (name == "limit") {
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q.limit);
    if (ec != std::errc() || end != value.data() + value.size() || q.limit == 0)
      return bad("limit", "expected a positive integer");
  } else if (name == "output") {
    if (value != "cdxj" && value != "json" && value != "text")
      return bad("output", "expected cdxj, json or text");
    q.output = value;
  } else if (name == "sort") {
    if (value != "reverse" && value != "closest") return bad("sort", "expected reverse or closest");
    q.sort = value;
  } else if (name == "fl") {
    q.fields.clear();
    for (size_t start = 0; start <= value.size();) {
      size_t comma = std::min(value.find(',', start), value.size());
      std::string f = value.substr(start, comma - start);
      if (!known_field(f)) return bad("fl", "unknown field " + f);
      q.fields.push_back(f);
      start = comma + 1;
    }
  }
  return std::nullopt;
}

std::optional<CdxAnswer> parse(const Params& params, Query& q) {
  auto last = [&](const char* name) {
    auto range = params.equal_range(name);
    return range.first == range.second ? std::string() : std::prev(range.second)->second;
  };
  std::string url = last("url"), match = last("matchType");
  if (auto wrong = key_range(url, match.empty() ? "exact" : match, q))
    return bad(*wrong, *wrong == "url" ? "required" : "expected exact, prefix, host or domain");
  for (const auto& [name, value] : params) {
    std::optional<CdxAnswer> error;
    if (name == "filter") error = parse_filter(value, q);
    if (name == "collapse") error = parse_collapse(value, q);
    if (error) return error;
  }
  for (const char* name : {"from", "to", "closest", "limit", "output", "sort", "fl"}) {
    std::string v = last(name);
    if (params.count(name))
      if (auto error = parse_scalar(name, v, q)) return error;
  }
  if (q.sort == "closest" && q.closest.empty()) return bad("closest", "required by sort=closest");
  if (q.to < q.from) return bad("to", "before from");
  return std::nullopt;
}

void append_line(std::string& out, const Capture& c, const Query& q) {
  const std::vector<std::string> all(kFields.begin(), kFields.end());
  const auto& fields = q.fields.empty() ? all : q.fields;
  if (q.output == "text") {
    for (size_t i = 0; i < fields.size(); ++i) {
      std::string v = field(c, fields[i]);
      out += (i ? " " : "") + (v.empty() ? std::string("-") : v);
    }
    out += '\n';
    return;
  }
  bool json = q.output == "json";
  if (!json) out += c.urlkey + " " + c.timestamp + " ";
  out += '{';
  bool first = true;
  for (const auto& name : fields) {
    if (!json && (name == "urlkey" || name == "timestamp")) continue;
    std::string v = field(c, name);
    if (v.empty()) continue;
    out += (first ? "\"" : ", \"") + name + "\": " + cdx::python_json_string(v);
    first = false;
  }
  out += "}\n";
}

}  // namespace

CdxAnswer cdx_api(const CaptureIndex& index, const Params& params,
                  const std::function<bool(const Capture&)>& hidden) {
  Query q;
  if (auto error = parse(params, q)) return *error;
  std::vector<const Capture*> hits;
  for (const Capture& c : index.between(q.first_key, q.last_key)) {
    if (c.timestamp < q.from || c.timestamp > q.to || (hidden && hidden(c))) continue;
    if (std::all_of(q.filters.begin(), q.filters.end(),
                    [&](const Filter& f) { return f.keeps(c); }))
      hits.push_back(&c);
  }
  if (q.sort == "reverse") std::reverse(hits.begin(), hits.end());
  if (q.sort == "closest") {
    int64_t want = timestamp_to_epoch(q.closest).value_or(0);
    std::stable_sort(hits.begin(), hits.end(), [&](const Capture* a, const Capture* b) {
      return std::llabs(timestamp_to_epoch(a->timestamp).value_or(0) - want) <
             std::llabs(timestamp_to_epoch(b->timestamp).value_or(0) - want);
    });
  }
  CdxAnswer answer;
  if (q.output == "json") answer.content_type = "text/x-ndjson; charset=utf-8";
  size_t written = 0;
  for (const Capture* c : hits) {
    if (written == q.limit) break;
    if (!std::all_of(q.collapses.begin(), q.collapses.end(),
                     [&](Collapse& k) { return k.keeps(*c); }))
      continue;
    append_line(answer.body, *c, q);
    ++written;
  }
  return answer;
}

}  // namespace strata::replay
