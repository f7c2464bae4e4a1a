#include "sample/truth.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>

#include "core/timestamp.hpp"
#include "url/url.hpp"

namespace strata::sample {
namespace {

// Views into the world and the write result (both outlive the truth computation), so a
// million-image world costs no copy of its strings per capture or reference.
struct Cap {
  std::string_view digest, url, collection;
  std::string ts;
  int64_t t = 0;
  bool revisit = false;
  const Asset* asset = nullptr;
  const ImageUrl* image = nullptr;
  const Location* where = nullptr;
};

// One page capture, shared by the references it yields.
struct PageCapture {
  const Page* page = nullptr;
  int64_t t = 0;
  std::string ts;
  std::string_view collection, title;
  int images_in_page = 0;
  const Location* where = nullptr;
};

struct Ref {
  int image = 0;  // ImageUrl
  std::string_view tag, alt, title;
  std::string caption;  // some structures join two texts
  const PageCapture* capture = nullptr;
};

int img_elements(const Page& p) {
  int n = 0;
  for (const Slot& s : p.slots)
    if (s.structure != Structure::link && s.structure != Structure::css) ++n;
  return n;
}

// The references extraction yields for one slot of a page in one crawl (spacers and inline
// icons are below the size gate and never form documents, so they are left out).
void slot_refs(const Page& p, const Slot& s, int crawl, const PageCapture* capture,
               std::vector<Ref>& out) {
  auto add = [&](int id, std::string_view tag, std::string_view alt, std::string_view title,
                 std::string caption) {
    out.push_back(Ref{id, tag, alt, title, std::move(caption), capture});
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
      add(s.image, "css", "", "", "");
      return;
    case Structure::blog_flat:
      add(s.image, "img", alt, s.title, s.heading + "\n" + s.caption);
      return;
    case Structure::thumb:
      add(s.image, "img", alt, s.title, p.h1 + "\n" + p.footer);
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
  if (a.ts != b.ts) return a.ts < b.ts;
  if (a.url.size() != b.url.size()) return a.url.size() < b.url.size();
  return a.url < b.url;
}

bool older_page(const PageCapture& a, const PageCapture& b) {
  if (a.ts != b.ts) return a.ts < b.ts;
  if (a.page->url.size() != b.page->url.size()) return a.page->url.size() < b.page->url.size();
  return a.page->url < b.page->url;
}

// Distinct non-empty trimmed values, ordered by the earliest page time, ties lexicographic.
template <typename Field>
std::vector<std::string> ordered_values(const std::vector<const Ref*>& refs, Field field) {
  std::map<std::string_view, std::string_view> first;  // value -> earliest ts
  for (const Ref* r : refs) {
    std::string_view v = field(*r), ts = r->capture->ts;
    if (v.empty()) continue;
    auto it = first.find(v);
    if (it == first.end() || ts < it->second) first[v] = ts;
  }
  std::vector<std::pair<std::string_view, std::string_view>> order;
  for (const auto& [v, ts] : first) order.emplace_back(ts, v);
  std::sort(order.begin(), order.end());
  std::vector<std::string> out;
  for (const auto& [ts, v] : order)
    if (out.size() < 50) out.emplace_back(v);
  return out;
}

merge::ImageDocument make_document(const std::vector<const Cap*>& caps,
                                   std::vector<const Ref*> refs) {
  merge::ImageDocument d;
  const Cap* first = nullptr;
  std::set<std::string_view> times, collections, tags;
  for (const Cap* c : caps) {
    times.insert(c->ts);
    collections.insert(c->collection);
    if (!c->revisit && (!first || older(*c, *first))) first = c;
  }
  d.id = first->digest;
  d.imgDigest = first->digest;
  d.imgUrl = first->url;
  d.imgSurt = url::surt(first->url);
  d.imgUrlTokens = url::url_tokens(first->url);
  d.imgMimeType = first->asset->image.mime;
  d.imgMimeTypeReported = first->image->mime_reported;
  d.imgWidth = first->asset->image.width;
  d.imgHeight = first->asset->image.height;
  d.imgSize = first->asset->size();
  d.imgCaptureTimes.assign(times.begin(), times.end());
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
  d.pageCrawlTimestamp = page.ts;
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
  return d;
}

std::vector<std::string> words_of(const merge::ImageDocument& d) {
  std::string text = d.pageTitle;
  for (const auto* list : {&d.imgTitle, &d.imgAlt, &d.imgCaption})
    for (const auto& v : *list) text += " " + v;
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::isalnum(u))
      cur += static_cast<char>(u < 0x80 ? std::tolower(u) : u);
    else if (!cur.empty())
      out.push_back(cur), cur.clear();
  }
  if (!cur.empty()) out.push_back(cur);
  std::sort(out.begin(), out.end());
  return out;
}

// The documents' words, for judging the queries once all documents are known (an inverted
// index: documents times topics would be quadratic at bench scale).
struct WordIndex {
  std::vector<std::string> ids;                          // document ids, in order
  std::map<std::string, std::vector<size_t>> docs_with;  // word -> document indexes, ascending

  void add(const merge::ImageDocument& d) {
    std::vector<std::string> words = words_of(d);
    words.erase(std::unique(words.begin(), words.end()), words.end());
    for (auto& word : words) docs_with[std::move(word)].push_back(ids.size());
    ids.push_back(d.id);
  }
};

// Every topic query with the documents holding both its words.
std::vector<QueryTruth> judge_queries(const WordIndex& index) {
  const auto& docs_with = index.docs_with;
  std::vector<QueryTruth> out;
  for (const Topic& t : all_topics()) {
    auto a = docs_with.find(t.a), b = docs_with.find(t.b);
    if (a == docs_with.end() || b == docs_with.end()) continue;
    std::vector<size_t> both;
    std::set_intersection(a->second.begin(), a->second.end(), b->second.begin(), b->second.end(),
                          std::back_inserter(both));
    if (both.empty()) continue;
    QueryTruth q{t.query(), t.lang == Lang::pt ? "pt" : "en", {}};
    for (size_t i : both) q.relevant.push_back(index.ids[i]);
    out.push_back(std::move(q));
  }
  return out;
}

std::filesystem::path truth_dir(const std::string& dir) {
  std::filesystem::path t = std::filesystem::path(dir) / "truth";
  std::filesystem::create_directories(t);
  return t;
}

}  // namespace

Truth compute_truth(const World& w, const WriteResult& written, const std::string& dir) {
  std::vector<Cap> caps;
  size_t too_large = 0;
  for (const CaptureEvent& e : written.captures) {
    const ImageUrl& u = w.images[static_cast<size_t>(e.image)];
    const Asset& a = w.assets[static_cast<size_t>(u.asset[static_cast<size_t>(e.crawl)])];
    if (!e.revisit && too_large_for_extraction(a.image.width, a.image.height)) ++too_large;
    if (!kept_by_extraction(a.image.width, a.image.height)) continue;
    int64_t t = u.capture[static_cast<size_t>(e.crawl)];
    caps.push_back(Cap{a.sha256, u.url, w.crawls[static_cast<size_t>(e.crawl)].collection,
                       timestamp_from_epoch(t), t, e.revisit, &a, &u, &e.where});
  }
  std::map<std::string_view, std::vector<const Cap*>> by_surt;
  // SURTs per image URL, computed once (pages reference the same URLs many times).
  std::vector<std::string> surts(w.images.size());
  for (size_t i = 0; i < w.images.size(); ++i) surts[i] = url::surt(w.images[i].url);
  for (const Cap& c : caps)
    by_surt[surts[static_cast<size_t>(c.image - w.images.data())]].push_back(&c);
  std::vector<PageCapture> page_captures;
  page_captures.reserve(written.pages.size());  // references point into it
  std::vector<Ref> refs;
  for (const PageEvent& e : written.pages) {
    const Page& p = w.pages[static_cast<size_t>(e.page)];
    auto crawl = static_cast<size_t>(e.crawl);
    const PageCapture& capture = page_captures.emplace_back(
        PageCapture{&p, p.time[crawl], timestamp_from_epoch(p.time[crawl]),
                    w.crawls[crawl].collection, p.title[crawl], img_elements(p), &e.where});
    for (const Slot& s : p.slots) slot_refs(p, s, e.crawl, &capture, refs);
  }
  std::map<std::string_view, std::vector<const Cap*>> caps_of;
  std::map<std::string_view, std::vector<const Ref*>> refs_of;
  for (const Cap& c : caps) caps_of[c.digest].push_back(&c);
  for (const Ref& r : refs) {
    auto it = by_surt.find(surts[static_cast<size_t>(r.image)]);
    if (it == by_surt.end()) continue;
    const Cap* best = nullptr;
    for (const Cap* c : it->second) {
      int64_t t = r.capture->t;
      int64_t d = std::llabs(c->t - t), bd = best ? std::llabs(best->t - t) : 0;
      if (!best || d < bd || (d == bd && c->t < best->t)) best = c;
    }
    refs_of[best->digest].push_back(&r);
  }
  Truth truth;
  truth.too_large = too_large;
  std::ofstream docs(truth_dir(dir) / "documents.jsonl", std::ios::binary);
  WordIndex words;
  for (const auto& [digest, rs] : refs_of) {
    merge::ImageDocument d = make_document(caps_of[digest], rs);
    docs << merge::to_json(d).dump() << "\n";
    words.add(d);
  }
  if (!docs.flush()) throw std::runtime_error("cannot write documents.jsonl");
  truth.documents = words.ids.size();
  truth.queries = judge_queries(words);
  std::map<int, std::set<std::string_view>> families;
  for (const Cap& c : caps)
    if (c.asset->family >= 0) families[c.asset->family].insert(c.digest);
  for (const auto& [f, digests] : families)
    if (digests.size() > 1) truth.near_duplicates.emplace_back(digests.begin(), digests.end());
  std::sort(truth.near_duplicates.begin(), truth.near_duplicates.end());
  return truth;
}

void write_truth(const Truth& truth, const std::string& dir) {
  std::filesystem::path t = truth_dir(dir);
  std::ofstream queries(t / "queries.jsonl", std::ios::binary);
  for (const auto& q : truth.queries)
    queries << Json{{"query", q.query}, {"lang", q.lang}, {"relevant", q.relevant}}.dump() << "\n";
  std::ofstream near(t / "near-duplicates.jsonl", std::ios::binary);
  for (const auto& g : truth.near_duplicates) near << Json{{"digests", g}}.dump() << "\n";
}

}  // namespace strata::sample
