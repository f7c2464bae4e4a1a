#include "sample/truth.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "core/timestamp.hpp"
#include "merge/document_json.hpp"
#include "sample/html.hpp"
#include "sample/truth_queries.hpp"
#include "url/url.hpp"

namespace strata::sample {
namespace {

// Views into the world and the write result (both outlive the truth computation), so a
// million-image world costs no copy of its strings per capture or reference. Times stay
// epoch seconds until a document prints them (their 14-digit form sorts the same way).
struct Cap {
  std::string_view digest, url, collection;
  int64_t t = 0;
  bool revisit = false;
  const Asset* asset = nullptr;
  const ImageUrl* image = nullptr;
  const Location* where = nullptr;
  const std::string* surt = nullptr;  // of the image URL
  int surt_id = 0;                    // SURTs in sorted order, equal SURTs share one
  int digest_id = 0;                  // the same for digests
};

// One page capture, shared by the references it yields.
struct PageCapture {
  const Page* page = nullptr;
  int64_t t = 0;
  std::string_view collection, title;
  int images_in_page = 0;
  const Location* where = nullptr;
};

struct Ref {
  int image = 0;  // ImageUrl
  std::string_view tag, alt, title;
  std::string caption;  // some structures join two texts
  const PageCapture* capture = nullptr;
  std::string_view position;  // the reference's place on its page (extract/page_position.hpp)
};

int img_elements(const Page& p) {
  int n = 0;
  for (const Slot& s : p.slots)
    if (s.structure != Structure::link && s.structure != Structure::css) ++n;
  return n;
}

// Where extraction places a slot's references (extract/page_position.hpp) on the pages the
// generator renders (html.cpp): the logo links to the site's home page from the header; a
// <style> block's URLs are the page's; the rest sit in the body's one container, main content
// when its class is "content", nothing particular when it is a flat "grid" (a <figure> is
// main content anywhere).
std::string_view slot_position(const Page& p, const Slot& s) {
  if (s.structure == Structure::logo) return "logo";
  if (s.structure == Structure::css) return "page";
  if (s.structure == Structure::figure) return "main";
  const bool flat = std::any_of(p.slots.begin(), p.slots.end(), [](const Slot& other) {
    return other.structure == Structure::blog_flat || other.structure == Structure::thumb;
  });
  return flat ? "page" : "main";
}

int thumbs(const Page& p) {
  int n = 0;
  for (const Slot& s : p.slots) n += s.structure == Structure::thumb;
  return n;
}

// The references extraction yields for one slot of a page in one crawl (spacers and inline
// icons are below the size gate and never form documents, so they are left out; a CSS url()
// counts only when it names an image-extension URL, docs/extraction.md).
void slot_refs(const World& w, const Page& p, const Slot& s, int crawl, const PageCapture* capture,
               std::vector<Ref>& out) {
  auto add = [&](int id, std::string_view tag, std::string_view alt, std::string_view title,
                 std::string caption) {
    out.push_back(Ref{id, tag, alt, title, std::move(caption), capture, slot_position(p, s)});
  };
  std::string_view alt = s.alt.empty() ? std::string_view() : s.alt[static_cast<size_t>(crawl)];
  switch (s.structure) {
    case Structure::spacer:
    case Structure::inline_icon:
      return;
    case Structure::link:
      add(s.image, "a", "", "", s.caption);
      return;
    case Structure::css:
      if (url::has_image_extension(w.images[static_cast<size_t>(s.image)].url))
        add(s.image, "css", "", "", "");
      return;
    case Structure::blog_flat:
      add(s.image, "img", alt, s.title, s.heading + "\n" + s.caption);
      return;
    case Structure::thumb:
      // The grid's heading and footer are every thumbnail's: text given to 3 or more images
      // of a page is left out of captions (docs/extraction.md, "Captions", rule 6).
      add(s.image, "img", alt, s.title, thumbs(p) >= 3 ? "" : p.h1 + "\n" + p.footer);
      add(s.full, "a", "", "", "");
      return;
    case Structure::gallery:
      add(s.image, "img", alt, s.title, s.caption);
      add(s.full, "a", "", "", "");
      return;
    default:
      add(s.image, "img", alt, s.title, s.caption);
      return;
  }
}

bool older(const Cap& a, const Cap& b) {
  if (a.t != b.t) return a.t < b.t;
  if (a.url.size() != b.url.size()) return a.url.size() < b.url.size();
  return a.url < b.url;
}

bool older_page(const PageCapture& a, const PageCapture& b) {
  if (a.t != b.t) return a.t < b.t;
  if (a.page->url.size() != b.page->url.size()) return a.page->url.size() < b.page->url.size();
  return a.page->url < b.page->url;
}

// Distinct non-empty trimmed values, ordered by the earliest page time, ties lexicographic.
template <typename Field>
std::vector<std::string> ordered_values(const std::vector<const Ref*>& refs, Field field) {
  std::map<std::string_view, int64_t> first;  // value -> earliest page time
  for (const Ref* r : refs) {
    std::string_view v = field(*r);
    int64_t t = r->capture->t;
    if (v.empty()) continue;
    auto it = first.find(v);
    if (it == first.end() || t < it->second) first[v] = t;
  }
  std::vector<std::pair<int64_t, std::string_view>> order;
  for (const auto& [v, ts] : first) order.emplace_back(ts, v);
  std::sort(order.begin(), order.end());
  std::vector<std::string> out;
  for (const auto& [ts, v] : order)
    if (out.size() < 50) out.emplace_back(v);
  return out;
}

// Each page's near-duplicate family: pages joined by near pairs share one.
using PageFamilies = std::unordered_map<const Page*, size_t>;

merge::ImageDocument make_document(const std::vector<const Cap*>& caps,
                                   std::vector<const Ref*> refs, const PageFamilies& families) {
  merge::ImageDocument d;
  const Cap* first = nullptr;
  std::vector<int64_t> times;
  std::set<std::string_view> collections, tags;
  for (const Cap* c : caps) {
    times.push_back(c->t);
    collections.insert(c->collection);
    if (!c->revisit && (!first || older(*c, *first))) first = c;
  }
  d.id = first->digest;
  d.imgDigest = first->digest;
  d.imgUrl = first->url;
  d.imgSurt = *first->surt;
  d.imgUrlTokens = url::url_tokens(first->url);
  d.imgMimeType = first->asset->image.mime;
  d.imgMimeTypeReported = first->image->mime_reported;
  d.imgWidth = first->asset->image.width;
  d.imgHeight = first->asset->image.height;
  d.imgSize = first->asset->size();
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  for (int64_t t : times) d.imgCaptureTimes.push_back(timestamp_from_epoch(t));
  d.imgCrawlTimestamp = d.imgCaptureTimes.front();
  d.imgCrawlTimestampLatest = d.imgCaptureTimes.back();
  d.imgFile = *first->where->file, d.imgOffset = first->where->offset,
  d.imgLength = first->where->length;
  std::sort(refs.begin(), refs.end(),
            [](const Ref* a, const Ref* b) { return older_page(*a->capture, *b->capture); });
  const PageCapture& page = *refs.front()->capture;
  d.imgTitle = ordered_values(refs, [](const Ref& r) { return r.title; });
  d.imgAlt = ordered_values(refs, [](const Ref& r) { return r.alt; });
  d.imgCaption = ordered_values(refs, [](const Ref& r) { return std::string_view(r.caption); });
  d.pageUrl = page.page->url;
  d.pageTitle = page.title;
  d.pageUrlTokens = url::url_tokens(page.page->url);
  d.pageHost = url::page_host(page.page->url);
  d.pageCrawlTimestamp = timestamp_from_epoch(page.t);
  d.pageFile = *page.where->file, d.pageOffset = page.where->offset,
  d.pageLength = page.where->length;
  d.imagesInOriginalPage = page.images_in_page;
  std::set<std::tuple<std::string_view, std::string_view, std::string_view>> triples;
  std::set<std::pair<std::string_view, std::string_view>> pages;
  for (const Ref* r : refs) {
    tags.insert(r->tag);
    collections.insert(r->capture->collection);
    triples.emplace(r->title, r->alt, r->caption);
    pages.emplace(r->capture->page->url, r->capture->title);
  }
  d.tags.assign(tags.begin(), tags.end());
  d.collection.assign(collections.begin(), collections.end());
  d.imageMetadataChanges = static_cast<int64_t>(triples.size()) - 1;
  d.pageMetadataChanges = static_cast<int64_t>(pages.size()) - 1;
  d.matchingImages = static_cast<int64_t>(caps.size());
  d.matchingPages = static_cast<int64_t>(refs.size());
  // The same page over many crawls counts once, and so do its near-duplicates.
  std::set<size_t> distinct_pages;
  for (const Ref* r : refs) distinct_pages.insert(families.at(r->capture->page));
  d.distinctPages = static_cast<int64_t>(distinct_pages.size());
  for (const Ref* r : refs) {
    d.refsInMain += r->position == "main";
    d.refsInChrome += r->position == "chrome";
    d.refsAsLogo += r->position == "logo";
  }
  return d;
}

std::filesystem::path truth_dir(const std::string& dir) {
  std::filesystem::path t = std::filesystem::path(dir) / "truth";
  std::filesystem::create_directories(t);
  return t;
}

// Dense ids of n keys in their sorted order (equal keys share one), so captures and
// references are grouped by vector index rather than in maps keyed by long strings.
struct DenseIds {
  std::vector<int> of;  // per key
  size_t count = 0;
};

template <typename KeyOf>
DenseIds dense_ids(size_t n, KeyOf key) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  DenseIds ids{std::vector<int>(n), 0};
  for (size_t k = 0; k < n; ++k) {
    if (k > 0 && key(order[k]) != key(order[k - 1])) ++ids.count;
    ids.of[order[k]] = static_cast<int>(ids.count);
  }
  if (n > 0) ++ids.count;
  return ids;
}

struct Keys {
  std::vector<std::string> surts;  // per image URL, computed once
  DenseIds surt;                   // per image URL
  DenseIds digest;                 // per asset
};

Keys keys_of(const World& w) {
  Keys k;
  k.surts.reserve(w.images.size());
  for (const ImageUrl& u : w.images) k.surts.push_back(url::join_surt(u.url));
  k.surt = dense_ids(k.surts.size(), [&](size_t i) -> std::string_view { return k.surts[i]; });
  k.digest =
      dense_ids(w.assets.size(), [&](size_t i) -> std::string_view { return w.assets[i].sha256; });
  return k;
}

// The image captures extraction keeps; counts the responses it must drop as too large.
std::vector<Cap> image_captures(const World& w, const WriteResult& written, const Keys& keys,
                                size_t& too_large) {
  std::vector<Cap> caps;
  for (const CaptureEvent& e : written.captures) {
    auto image = static_cast<size_t>(e.image), crawl = static_cast<size_t>(e.crawl);
    const ImageUrl& u = w.images[image];
    auto asset = static_cast<size_t>(u.asset[crawl]);
    const Asset& a = w.assets[asset];
    if (!e.revisit && too_large_for_extraction(a.image.width, a.image.height)) ++too_large;
    if (!kept_by_extraction(a.image.width, a.image.height)) continue;
    caps.push_back(Cap{a.sha256, u.url, w.crawls[crawl].collection, u.capture[crawl], e.revisit, &a,
                       &u, &e.where, &keys.surts[image], keys.surt.of[image],
                       keys.digest.of[asset]});
  }
  return caps;
}

struct PageRefs {
  std::vector<PageCapture> captures;
  std::vector<Ref> refs;
};

PageRefs page_refs(const World& w, const WriteResult& written) {
  PageRefs out;
  out.captures.reserve(written.pages.size());  // references point into it
  for (const PageEvent& e : written.pages) {
    const Page& p = w.pages[static_cast<size_t>(e.page)];
    auto crawl = static_cast<size_t>(e.crawl);
    const PageCapture& capture = out.captures.emplace_back(PageCapture{
        &p, p.time[crawl], w.crawls[crawl].collection, p.title[crawl], img_elements(p), &e.where});
    for (const Slot& s : p.slots) slot_refs(w, p, s, e.crawl, &capture, out.refs);
  }
  return out;
}

// Captures and references per digest id (ascending = the documents' order by id).
struct Grouped {
  std::vector<std::vector<const Cap*>> caps_of;
  std::vector<std::vector<const Ref*>> refs_of;
};

// The capture under the same SURT closest in time to the page (tie: the earlier one).
const Cap* closest(const std::vector<const Cap*>& candidates, int64_t t) {
  const Cap* best = nullptr;
  for (const Cap* c : candidates) {
    int64_t d = std::llabs(c->t - t), bd = best ? std::llabs(best->t - t) : 0;
    if (!best || d < bd || (d == bd && c->t < best->t)) best = c;
  }
  return best;
}

Grouped group(const std::vector<Cap>& caps, const std::vector<Ref>& refs, const Keys& keys) {
  std::vector<std::vector<const Cap*>> by_surt(keys.surt.count);
  Grouped g{std::vector<std::vector<const Cap*>>(keys.digest.count),
            std::vector<std::vector<const Ref*>>(keys.digest.count)};
  for (const Cap& c : caps) {
    by_surt[static_cast<size_t>(c.surt_id)].push_back(&c);
    g.caps_of[static_cast<size_t>(c.digest_id)].push_back(&c);
  }
  for (const Ref& r : refs) {
    const auto& candidates =
        by_surt[static_cast<size_t>(keys.surt.of[static_cast<size_t>(r.image)])];
    if (candidates.empty()) continue;
    g.refs_of[static_cast<size_t>(closest(candidates, r.capture->t)->digest_id)].push_back(&r);
  }
  return g;
}

void write_documents(const Grouped& g, const PageFamilies& families,
                     const std::filesystem::path& path, WordIndex& words) {
  std::ofstream docs(path, std::ios::binary);
  std::string line;  // reused
  for (size_t id = 0; id < g.refs_of.size(); ++id) {
    if (g.refs_of[id].empty()) continue;
    merge::ImageDocument d = make_document(g.caps_of[id], g.refs_of[id], families);
    line.clear();
    merge::append_document_json(d, line);  // to_json(d).dump(), without the Json tree
    line.push_back('\n');
    docs.write(line.data(), static_cast<std::streamsize>(line.size()));
    words.add(d);
  }
  if (!docs.flush()) throw std::runtime_error("cannot write documents.jsonl");
}

// The 5-word shingles of a text, hashed, sorted, distinct; words as similar/page_sketch.hpp
// reads them (runs of ASCII letters and digits and non-ASCII bytes, ASCII lower-cased).
std::vector<uint64_t> shingles_of(const std::string& text) {
  std::vector<std::string> words(1);
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || std::isalnum(c))
      words.back().push_back(static_cast<char>(std::tolower(c)));
    else if (!words.back().empty())
      words.emplace_back();
  }
  if (words.back().empty()) words.pop_back();
  std::vector<uint64_t> out;
  for (size_t s = 0; s + 5 <= words.size(); ++s)
    out.push_back(std::hash<std::string>()(words[s] + ' ' + words[s + 1] + ' ' + words[s + 2] +
                                           ' ' + words[s + 3] + ' ' + words[s + 4]));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

constexpr size_t kMinShinglesNear = 10;

// Pairs of pages with exact Jaccard ≥ 0.5 (through an inverted index of shingles, so only
// pages sharing one are compared), and each page's family.
std::vector<PagePairTruth> page_pairs(const World& w, PageFamilies& families) {
  std::vector<std::vector<uint64_t>> shingles;
  std::unordered_map<uint64_t, std::vector<uint32_t>> pages_of;
  for (size_t p = 0; p < w.pages.size(); ++p) {
    shingles.push_back(shingles_of(main_text(w.pages[p])));
    for (uint64_t s : shingles.back()) pages_of[s].push_back(static_cast<uint32_t>(p));
  }
  std::map<std::pair<uint32_t, uint32_t>, size_t> shared;
  for (const auto& [s, pages] : pages_of)
    for (size_t x = 0; x < pages.size(); ++x)
      for (size_t y = x + 1; y < pages.size(); ++y) ++shared[{pages[x], pages[y]}];
  std::vector<size_t> parent(w.pages.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<PagePairTruth> out;
  for (const auto& [pair, both] : shared) {
    const auto& [x, y] = pair;
    double j = static_cast<double>(both) /
               static_cast<double>(shingles[x].size() + shingles[y].size() - both);
    if (j < 0.5) continue;
    bool near = j >= 0.8 && shingles[x].size() >= kMinShinglesNear &&
                shingles[y].size() >= kMinShinglesNear;
    if (near) parent[find(x)] = find(y);
    std::string a = w.pages[x].url, b = w.pages[y].url;
    if (b < a) std::swap(a, b);
    out.push_back({a, b, j, near});
  }
  for (size_t p = 0; p < w.pages.size(); ++p) families[&w.pages[p]] = find(p);
  std::sort(out.begin(), out.end(), [](const PagePairTruth& l, const PagePairTruth& r) {
    return std::tie(l.a, l.b) < std::tie(r.a, r.b);
  });
  return out;
}

std::vector<std::vector<std::string>> near_duplicates(const std::vector<Cap>& caps) {
  std::map<int, std::set<std::string_view>> families;
  for (const Cap& c : caps)
    if (c.asset->family >= 0) families[c.asset->family].insert(c.digest);
  std::vector<std::vector<std::string>> out;
  for (const auto& [f, digests] : families)
    if (digests.size() > 1) out.emplace_back(digests.begin(), digests.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Truth compute_truth(const World& w, const WriteResult& written, const std::string& dir) {
  Keys keys = keys_of(w);
  Truth truth;
  std::vector<Cap> caps = image_captures(w, written, keys, truth.too_large);
  PageRefs pages = page_refs(w, written);
  Grouped g = group(caps, pages.refs, keys);
  WordIndex words;
  PageFamilies families;
  truth.page_pairs = page_pairs(w, families);
  write_documents(g, families, truth_dir(dir) / "documents.jsonl", words);
  truth.documents = words.documents();
  truth.queries = words.judge_queries();
  truth.near_duplicates = near_duplicates(caps);
  return truth;
}

void write_truth(const Truth& truth, const std::string& dir) {
  std::filesystem::path t = truth_dir(dir);
  std::ofstream queries(t / "queries.jsonl", std::ios::binary);
  for (const auto& q : truth.queries)
    queries << Json{{"query", q.query}, {"lang", q.lang}, {"relevant", q.relevant}}.dump() << "\n";
  std::ofstream near(t / "near-duplicates.jsonl", std::ios::binary);
  for (const auto& g : truth.near_duplicates) near << Json{{"digests", g}}.dump() << "\n";
  std::ofstream pages(t / "page-near-duplicates.jsonl", std::ios::binary);
  for (const auto& p : truth.page_pairs)
    pages << Json{{"pages", {p.a, p.b}},
                  {"jaccard", std::round(p.jaccard * 1000) / 1000},
                  {"near", p.near}}
                 .dump()
          << "\n";
}

}  // namespace strata::sample
