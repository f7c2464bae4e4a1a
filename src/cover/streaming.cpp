#include "cover/streaming.hpp"

#include <algorithm>
#include <cstdio>
#include <istream>
#include <numeric>
#include <ostream>
#include <string_view>
#include <unordered_map>

#include "cover/candidates.hpp"
#include "cover/documents.hpp"
#include "cover/pages.hpp"

namespace strata::cover {
namespace {

std::string hex(uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// Keys become a line's first field: a tab or newline inside one would break the format.
std::string clean(std::string key) {
  std::replace_if(
      key.begin(), key.end(), [](char c) { return c == '\t' || c == '\n'; }, ' ');
  return key;
}

// k + 1 substrings of a 64-bit hash: two hashes within k bits agree exactly in one of them.
void hamming_keys(uint64_t h, int k, const std::string& prefix, std::vector<std::string>& out) {
  const int parts = k + 1;
  for (int t = 0; t < parts; ++t) {
    const int from = t * 64 / parts, width = (t + 1) * 64 / parts - from;
    const uint64_t sub = (h >> from) & (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
    out.push_back(prefix + "h" + std::to_string(t) + ":" + hex(sub));
  }
}

// The keys under which `item` meets every document it may cover or be covered by under `e`
// (the same narrowing as candidate_pairs(), with exact-match keys instead of joins).
void block_keys(const Expr& e, const Item& item, const std::string& prefix,
                std::vector<std::string>& out) {
  if (e.kind == Expr::Kind::any_of) {
    for (size_t c = 0; c < e.children.size(); ++c)
      block_keys(*e.children[c], item, prefix + std::to_string(c) + "/", out);
    return;
  }
  const Narrowing n = narrowing(e);
  if (!n.keys.empty()) {
    bool missing = false;
    std::string key = prefix + "s:";
    for (const AttrRef& r : n.keys) key += clean(block_value(item, r, missing)) + '\x1f';
    if (missing) return;
    if (!n.hamming) return out.push_back(key);
    if (item.phash) hamming_keys(*item.phash, *n.hamming, key, out);
    return;
  }
  if (n.hamming) {
    if (item.phash) hamming_keys(*item.phash, *n.hamming, prefix, out);
    return;
  }
  if (n.text) {
    for (uint64_t s : item.get(*n.text)) out.push_back(prefix + "x:" + hex(s));
    return;
  }
  if (n.alternatives) {
    for (size_t c = 0; c < n.alternatives->children.size(); ++c)
      block_keys(*n.alternatives->children[c], item, prefix + "a" + std::to_string(c) + "/", out);
    return;
  }
  out.push_back(prefix + "*");
}

// The distinct keys of `item` under `e` (its own "~ID" when it has none).
void item_keys(const Expr& e, const Item& item, const std::string& id,
               std::vector<std::string>& keys) {
  keys.clear();
  block_keys(e, item, "", keys);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys.empty()) keys.push_back("~" + clean(id));
}

// Calls on_group(key, values) for each run of lines with the same first field.
template <typename Handler>
void for_each_group(std::istream& in, Counters& counters, Handler on_group) {
  std::string line, key;
  std::vector<std::string> values;
  bool open = false;
  while (std::getline(in, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      counters.add("lines_malformed");
      continue;
    }
    if (open && std::string_view(line).substr(0, tab) != key) {
      on_group(key, values);
      values.clear();
    }
    key = line.substr(0, tab);
    values.push_back(line.substr(tab + 1));
    open = true;
  }
  if (open) on_group(key, values);
}

struct Parsed {
  std::string id;
  Item item;
};

// Shingles as one string of 16 hex digits each (a page's text in job 1's values).
std::string hex_shingles(const std::vector<uint64_t>& shingles) {
  std::string out;
  out.reserve(shingles.size() * 16);
  for (uint64_t s : shingles) out += hex(s);
  return out;
}

std::optional<std::vector<uint64_t>> shingles_from_hex(const std::string& text) {
  if (text.size() % 16 != 0) return std::nullopt;
  std::vector<uint64_t> out(text.size() / 16);
  for (size_t k = 0; k < out.size(); ++k) {
    const std::string_view digits(text.data() + k * 16, 16);
    uint64_t v = 0;
    for (char c : digits) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v << 4 | static_cast<uint64_t>(d);
    }
    out[k] = v;
  }
  return out;
}

// A page value of job 1: {"g": page (page_json), "t": its main-text shingles (hex)}.
bool parse_page_value(const Json& j, const Uses& uses, Parsed& out) {
  PageRef page;
  if (!j.is_object() || !j.contains("g") || !page_from_json(j["g"], page)) return false;
  std::optional<std::vector<uint64_t>> text;
  if (const auto t = j.find("t"); t != j.end()) {
    if (!t->is_string() || !(text = shingles_from_hex(t->get<std::string>()))) return false;
  }
  out.id = page_id(page);
  out.item = page_item(page, uses, std::move(text));
  return true;
}

bool parse_value(const std::string& value, const Uses& uses, bool pages, Parsed& out) {
  const Json j = Json::parse(value, nullptr, false);
  if (pages) return !j.is_discarded() && parse_page_value(j, uses, out);
  merge::ImageDocument doc;
  try {
    if (j.is_discarded() || !j.is_object() || !j.contains("d") || !merge::from_json(j["d"], doc))
      return false;
  } catch (const Json::exception&) {
    return false;
  }
  index::Moderation m;
  if (const auto p = j.find("p"); p != j.end() && p->is_string())
    m.phash = std::stoull(p->get<std::string>(), nullptr, 16);
  out.id = doc.id;
  out.item = item_from_document(doc, m, uses);
  return true;
}

void map(const Expr& e, const StreamingOptions& o, std::istream& in, std::ostream& out,
         Counters& counters) {
  ProblemLog problems;
  std::unordered_map<std::string, uint64_t> phashes;
  if (!o.analysis.empty()) phashes = read_phashes(o.analysis, problems);
  counters.add("analysis_problems", static_cast<int64_t>(problems.total()));
  const Uses uses = attributes_used(e);
  std::vector<std::string> keys;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    merge::ImageDocument doc;
    const Json j = Json::parse(line, nullptr, false);
    bool ok = false;
    try {
      ok = !j.is_discarded() && merge::from_json(j, doc) && !doc.id.empty();
    } catch (const Json::exception&) {
    }
    if (!ok) {
      counters.add("lines_not_documents");
      continue;
    }
    counters.add("documents");
    index::Moderation m;
    Json value = {{"d", j}};
    if (auto it = phashes.find(doc.imgDigest); it != phashes.end()) {
      m.phash = it->second;
      value["p"] = hex(it->second);
    }
    item_keys(e, item_from_document(doc, m, uses), doc.id, keys);
    counters.add("keys", static_cast<int64_t>(keys.size()));
    const std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    for (const auto& key : keys) out << key << '\t' << text << '\n';
  }
}

// Pages, job 0: each reference line's page under its record's location (archive file and
// offset), so that the references of one page (one per image) meet in one reducer.
void map0(std::istream& in, std::ostream& out, Counters& counters) {
  for (std::string line; std::getline(in, line);) {
    PageRef page;
    switch (parse_page_line(line, page)) {
      case PageLine::other:
        continue;
      case PageLine::not_json:
        counters.add("lines_not_json");
        continue;
      case PageLine::no_page:
        counters.add("references_without_page");
        continue;
      case PageLine::page:
        counters.add("references");
        out << clean(page.archive) << '@' << page.offset << '\t'
            << page_json(page).dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
    }
  }
}

// Pages, job 0: one page per location (its references agree; the first value in byte order is
// taken, so the choice does not depend on their order), its main text read again from the
// archive when the expression reads `text`, sent to each of its blocks as `{"g","t"}`.
void reduce0(const Expr& e, std::istream& in, std::ostream& out, Counters& counters) {
  const Uses uses = attributes_used(e);
  const bool reads_text = uses.texts[size_t(TextAttr::text)];
  std::vector<std::string> keys;
  for_each_group(in, counters, [&](const std::string&, const std::vector<std::string>& values) {
    PageRef page;
    const std::string* chosen = nullptr;
    for (const auto& v : values)
      if (!chosen || v < *chosen) chosen = &v;
    if (!page_from_json(Json::parse(*chosen, nullptr, false), page)) {
      counters.add("values_malformed");
      return;
    }
    counters.add("pages");
    Json value = {{"g", page_json(page)}};
    std::optional<std::vector<uint64_t>> text;
    if (reads_text) {
      text = page_text(page);
      if (text)
        value["t"] = hex_shingles(*text);
      else
        counters.add("pages_without_text");
    }
    item_keys(e, page_item(page, uses, std::move(text)), page_id(page), keys);
    counters.add("keys", static_cast<int64_t>(keys.size()));
    const std::string line = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    for (const auto& key : keys) out << key << '\t' << line << '\n';
  });
}

void reduce(const Expr& e, const StreamingOptions& o, std::istream& in, std::ostream& out,
            Counters& counters) {
  const Uses uses = attributes_used(e);
  uint64_t compared = 0;
  for_each_group(in, counters, [&](const std::string& key, const std::vector<std::string>& values) {
    std::vector<Parsed> docs(values.size());
    size_t n = 0;
    for (const auto& v : values)
      if (parse_value(v, uses, o.pages, docs[n]))
        ++n;
      else
        counters.add("values_malformed");
    docs.resize(n);
    if (key == "*" || key.ends_with("/*")) {
      compared += n * (n - (n > 0)) / 2;
      if (compared > o.cover.pair_budget)
        throw CoverError("the expression compares more than " +
                         std::to_string(o.cover.pair_budget) +
                         " pairs one by one: add same(...) or phash<=k so that documents can "
                         "be blocked");
    }
    for (const auto& d : docs) out << clean(d.id) << '\t' << clean(d.id) << '\n';
    for (size_t x = 0; x < n; ++x)
      for (size_t y = x + 1; y < n; ++y) {
        counters.add("pairs_tested");
        if (docs[x].id == docs[y].id) continue;
        if (covers(e, docs[x].item, docs[y].item)) out << docs[x].id << '\t' << docs[y].id << '\n';
        if (covers(e, docs[y].item, docs[x].item)) out << docs[y].id << '\t' << docs[x].id << '\n';
      }
  });
}

void identity(std::istream& in, std::ostream& out) {
  for (std::string line; std::getline(in, line);) out << line << '\n';
}

// Union-find over every edge of job 1; each line goes out again, prefixed by its component.
void reduce2(std::istream& in, std::ostream& out, Counters& counters) {
  std::unordered_map<std::string, uint32_t> index;
  std::vector<std::string> names;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  auto id_of = [&](const std::string& name) {
    auto [it, added] = index.emplace(name, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
  };
  for (std::string line; std::getline(in, line);) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      counters.add("lines_malformed");
      continue;
    }
    edges.emplace_back(id_of(line.substr(0, tab)), id_of(line.substr(tab + 1)));
  }
  std::vector<uint32_t> parent(names.size());
  std::iota(parent.begin(), parent.end(), uint32_t{0});
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  // The root of a component is its smallest id: union by name order.
  for (auto [a, b] : edges) {
    uint32_t x = find(a), y = find(b);
    if (x == y) continue;
    if (names[y] < names[x]) std::swap(x, y);
    parent[y] = x;
  }
  counters.add("documents", static_cast<int64_t>(names.size()));
  for (auto [a, b] : edges) out << names[find(a)] << '\t' << names[a] << '\t' << names[b] << '\n';
}

// One component: the same solver and keeper rule as compute_cover(), on ids in name order.
void reduce3(const StreamingOptions& o, std::istream& in, std::ostream& out, Counters& counters) {
  for_each_group(
      in, counters, [&](const std::string& component, const std::vector<std::string>& values) {
        std::vector<std::pair<std::string, std::string>> edges;
        std::vector<std::string> members;
        for (const auto& v : values) {
          const size_t tab = v.find('\t');
          if (tab == std::string::npos) {
            counters.add("lines_malformed");
            continue;
          }
          edges.emplace_back(v.substr(0, tab), v.substr(tab + 1));
          members.push_back(edges.back().first);
          members.push_back(edges.back().second);
        }
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        auto local = [&](const std::string& id) {
          return static_cast<uint32_t>(std::lower_bound(members.begin(), members.end(), id) -
                                       members.begin());
        };
        std::vector<std::vector<uint32_t>> covered_by(members.size());
        for (uint32_t k = 0; k < members.size(); ++k) covered_by[k].push_back(k);
        std::sort(edges.begin(), edges.end());
        edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
        for (const auto& [a, b] : edges)
          if (a != b) covered_by[local(a)].push_back(local(b));
        for (auto& list : covered_by) std::sort(list.begin() + 1, list.end());
        std::vector<char> kept(members.size(), 0);
        if (members.size() == 1) {
          kept[0] = 1;
        } else {
          const ComponentCover c =
              solve_component(covered_by, o.cover.node_limit, o.cover.ilp_time_ms);
          for (uint32_t k : c.chosen) kept[k] = 1;
          counters.add("components");
          counters.add(c.exact ? "components_exact" : "components_greedy");
          if (c.solver == Solver::ilp) counters.add("components_ilp");
        }
        std::vector<uint32_t> keeper(members.size()), count(members.size(), 0);
        for (uint32_t a = 0; a < members.size(); ++a) {
          keeper[a] = a;
          if (kept[a]) continue;
          keeper[a] = *std::find_if(covered_by[a].begin() + 1, covered_by[a].end(),
                                    [&](uint32_t b) { return kept[b] != 0; });
          ++count[keeper[a]];
        }
        for (uint32_t a = 0; a < members.size(); ++a) {
          counters.add(kept[a] ? "kept" : "removed");
          out << members[a] << '\t'
              << cover_line(members[a], members[keeper[a]], count[a], component) << '\n';
        }
      });
}

}  // namespace

bool parse_streaming_stage(const std::string& text, StreamingStage& out) {
  static const std::pair<const char*, StreamingStage> names[] = {
      {"map", StreamingStage::map},   {"reduce", StreamingStage::reduce},
      {"map2", StreamingStage::map2}, {"reduce2", StreamingStage::reduce2},
      {"map3", StreamingStage::map3}, {"reduce3", StreamingStage::reduce3},
      {"map0", StreamingStage::map0}, {"reduce0", StreamingStage::reduce0}};
  for (const auto& [name, stage] : names)
    if (text == name) return out = stage, true;
  return false;
}

Counters run_streaming(StreamingStage stage, const Expr& e, const StreamingOptions& options,
                       std::istream& in, std::ostream& out) {
  Counters counters;
  switch (stage) {
    case StreamingStage::map0:
      map0(in, out, counters);
      break;
    case StreamingStage::reduce0:
      reduce0(e, in, out, counters);
      break;
    case StreamingStage::map:
      map(e, options, in, out, counters);
      break;
    case StreamingStage::reduce:
      reduce(e, options, in, out, counters);
      break;
    case StreamingStage::map2:
    case StreamingStage::map3:
      identity(in, out);
      break;
    case StreamingStage::reduce2:
      reduce2(in, out, counters);
      break;
    case StreamingStage::reduce3:
      reduce3(options, in, out, counters);
      break;
  }
  return counters;
}

std::string cover_line(const std::string& id, const std::string& keeper, uint32_t covers,
                       const std::string& component) {
  return Json{{"id", id}, {"keeper", keeper}, {"covers", covers}, {"component", component}}.dump(
      -1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace strata::cover
