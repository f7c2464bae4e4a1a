#include "merge/digest_merge.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "merge/descriptions.hpp"
#include "merge/order.hpp"
#include "merge/text.hpp"
#include "similar/page_sketch.hpp"

namespace strata::merge {
namespace {

// Counter names counted per key or record: built once, not per call.
const std::string kDigestsWithoutPages = "digests_without_pages", kDigestsMerged = "digests_merged";

template <typename T, typename Before = std::less<>>
void sort_if_needed(std::vector<T>& values, Before before = {}) {
  if (!std::is_sorted(values.begin(), values.end(), before))
    std::sort(values.begin(), values.end(), before);
}

// Values appended with append_unless_last or append_unless_recent are often few, and sorted.
template <typename T>
void sort_unique(std::vector<T>& values) {
  sort_if_needed(values);
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

// Appends `value` unless it equals one of the last few values: an image's records name few
// collections and few description triples, so the sort that drops duplicates then gets a few
// values instead of one per record (that sort showed in profiles).
template <typename T, typename V>
void append_unless_recent(std::vector<T>& values, const V& value) {
  constexpr size_t kRecent = 8;
  auto recent = values.end() - static_cast<ptrdiff_t>(std::min(values.size(), kRecent));
  if (std::find(recent, values.end(), value) == values.end()) values.emplace_back(value);
}

// Image fields from the oldest capture, capture times from all of them.
template <typename Doc, typename C>
void set_image_fields(Doc& doc, const std::vector<C>& captures, Counters& counters) {
  const C& oldest = captures.front();
  doc.imgDigest = oldest.digest;
  doc.imgUrl = oldest.imgUrl;
  doc.imgSurt = oldest.imgSurt;
  doc.imgMimeType = oldest.mimeDetected;
  doc.imgMimeTypeReported = oldest.mimeReported;
  doc.imgWidth = oldest.width;
  doc.imgHeight = oldest.height;
  doc.imgSize = oldest.size;
  doc.imgFile = oldest.file;
  doc.imgOffset = oldest.offset;
  doc.imgLength = oldest.length;
  doc.isInline = oldest.inline_;
  doc.imgCrawlTimestamp = oldest.timestamp;
  doc.imgCaptureTimes.clear();
  // Captures come oldest first (build sorts them), so the times come sorted and dropping
  // repeats in a row leaves them distinct.
  for (const auto& capture : captures) append_unless_last(doc.imgCaptureTimes, capture.timestamp);
  doc.imgCrawlTimestampLatest = doc.imgCaptureTimes.back();
  if (doc.imgCaptureTimes.size() > kMaxCaptureTimes) {
    counters.add("capture_time_lists_capped");
    doc.imgCaptureTimes.resize(kMaxCaptureTimes);
  }
  doc.matchingImages = static_cast<int64_t>(captures.size());
}

template <typename Doc, typename R>
void set_page_fields(Doc& doc, const R& ref) {
  doc.pageUrl = ref.pageUrl;
  doc.pageTitle = ref.pageTitle;
  doc.pageUrlTokens = ref.pageUrlTokens;
  doc.pageHost = ref.pageHost;
  doc.book = ref.book;
  doc.pageCrawlTimestamp = ref.pageTimestamp;
  doc.pageFile = ref.file;
  doc.pageOffset = ref.offset;
  doc.pageLength = ref.length;
  doc.imagesInOriginalPage = ref.imagesInPage;
}

// The tokens the extraction stage computed for the chosen imgUrl: from the oldest reference
// naming that URL, else from the oldest reference (refs are sorted oldest first).
template <typename R>
std::string_view image_url_tokens(std::string_view img_url, const std::vector<R>& refs) {
  for (const auto& ref : refs)
    if (ref.imgUrl == img_url) return ref.imgUrlTokens;
  return refs.front().imgUrlTokens;
}

template <typename Doc, typename R>
void set_descriptions(Doc& doc, std::span<const R> refs, Counters& counters) {
  using S = typename decltype(doc.tags)::value_type;
  collect_descriptions<S>(refs, &R::imgTitle, kMaxDescriptions, counters, doc.imgTitle);
  collect_descriptions<S>(refs, &R::imgAlt, kMaxDescriptions, counters, doc.imgAlt);
  collect_descriptions<S>(refs, &R::imgCaption, kMaxDescriptions, counters, doc.imgCaption);
  doc.tags.clear();
  for (const auto& ref : refs)
    if (!ref.tag.empty()) append_unless_last(doc.tags, ref.tag);
  sort_unique(doc.tags);
}

// References by their place on the page (extract/page_position.hpp).
template <typename Doc, typename R>
void set_position_counts(Doc& doc, const std::vector<R>& refs) {
  doc.refsInMain = doc.refsInChrome = doc.refsAsLogo = 0;
  for (const auto& ref : refs) {
    if (ref.position == "main") ++doc.refsInMain;
    if (ref.position == "chrome") ++doc.refsInChrome;
    if (ref.position == "logo") ++doc.refsAsLogo;
  }
}

// Change counters: distinct (title, alt, caption) triples and distinct (pageUrl, pageTitle)
// pairs, each minus one (so an image seen with one description has 0 changes).
template <typename Doc, typename R>
void set_change_counters(Doc& doc, const std::vector<R>& refs) {
  // Reused by every document of the thread: an allocation each showed in profiles.
  thread_local std::vector<std::tuple<std::string_view, std::string_view, std::string_view>>
      triples;
  thread_local std::vector<std::pair<std::string_view, std::string_view>> pages;
  triples.clear();
  pages.clear();
  for (const auto& ref : refs) {
    append_unless_recent(triples,
                         std::tuple(trim(ref.imgTitle), trim(ref.imgAlt), trim(ref.imgCaption)));
    pages.emplace_back(ref.pageUrl, ref.pageTitle);
  }
  sort_unique(triples);
  sort_unique(pages);
  doc.imageMetadataChanges = std::max<int64_t>(0, static_cast<int64_t>(triples.size()) - 1);
  doc.pageMetadataChanges = std::max<int64_t>(0, static_cast<int64_t>(pages.size()) - 1);
  doc.matchingPages = static_cast<int64_t>(refs.size());
}

// Distinct pages among the references (document.hpp, docs/merge.md): the connected components
// of "same pageUrl" and "near-duplicate main texts". A function of the set of references.
template <typename R>
int64_t distinct_pages(const std::vector<R>& refs) {
  thread_local std::vector<std::optional<similar::PageSketch>> sketches;
  thread_local std::vector<const similar::PageSketch*> pages;
  sketches.clear();
  pages.clear();
  for (const auto& ref : refs)
    sketches.push_back(ref.pageSketch.empty() ? std::nullopt
                                              : similar::decode_page_sketch(ref.pageSketch));
  for (const auto& s : sketches)
    pages.push_back(s && s->shingles >= similar::kMinShinglesToGroup ? &*s : nullptr);
  thread_local std::vector<std::string_view> urls;
  urls.clear();
  for (const auto& ref : refs) urls.push_back(ref.pageUrl);
  std::vector<uint32_t> group = similar::page_groups(pages, urls);
  int64_t groups = 0;
  for (uint32_t i = 0; i < group.size(); ++i) groups += group[i] == i;
  return groups;
}

template <typename Doc, typename G>
void set_collections(Doc& doc, const G& group) {
  doc.collection.clear();
  for (const auto& capture : group.captures)
    append_unless_recent(doc.collection, capture.collection);
  for (const auto& ref : group.refs) append_unless_recent(doc.collection, ref.collection);
  sort_unique(doc.collection);
}

// The references of the page capture (same pageUrl and pageTimestamp) starting at `first`;
// contiguous because references sort by pageTimestamp, then pageUrl.
template <typename R>
std::span<const R> same_page(const std::vector<R>& refs, size_t first) {
  size_t end = first + 1;
  while (end < refs.size() && refs[end].pageTimestamp == refs[first].pageTimestamp &&
         refs[end].pageUrl == refs[first].pageUrl)
    ++end;
  return std::span<const R>(refs).subspan(first, end - first);
}

// Sets every field but the descriptions; `doc` may hold a previous group's document (its
// strings and vectors are reused, not reallocated).
template <typename Doc, typename G>
void set_base_document(Doc& doc, const G& group, Counters& counters) {
  doc.id = group.digest;
  set_image_fields(doc, group.captures, counters);
  doc.imgUrlTokens = image_url_tokens(doc.imgUrl, group.refs);
  set_page_fields(doc, group.refs.front());
  set_change_counters(doc, group.refs);
  set_position_counts(doc, group.refs);
  doc.matchingPages += static_cast<int64_t>(group.dropped_refs);
  doc.distinctPages = distinct_pages(group.refs) + static_cast<int64_t>(group.dropped_refs);
  set_collections(doc, group);
}

template <typename Doc, typename R, typename C>
std::vector<Doc> full_documents(const BasicDigestGroup<R, C>& group, const Doc& base,
                                Counters& counters) {
  std::vector<Doc> docs;
  for (size_t i = 0; i < group.refs.size();) {
    std::span<const R> page = same_page(group.refs, i);
    i += page.size();
    Doc doc = base;
    doc.id = full_document_id(group.digest, page.front().pageTimestamp, page.front().pageUrl);
    set_page_fields(doc, page.front());
    set_descriptions(doc, page, counters);
    docs.push_back(std::move(doc));
  }
  std::sort(docs.begin(), docs.end(), [](const Doc& a, const Doc& b) { return a.id < b.id; });
  // Two page URLs of one capture time with colliding hashes would share an id: keep one.
  docs.erase(std::unique(docs.begin(), docs.end(),
                         [](const Doc& a, const Doc& b) { return a.id == b.id; }),
             docs.end());
  return docs;
}

}  // namespace

bool parse_mode(const std::string& text, Mode& out) {
  if (text == "compact")
    out = Mode::compact;
  else if (text == "legacy")
    out = Mode::legacy;
  else if (text == "full")
    out = Mode::full;
  else
    return false;
  return true;
}

const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::legacy:
      return "legacy";
    case Mode::full:
      return "full";
    case Mode::compact:
      break;
  }
  return "compact";
}

std::string full_document_id(const std::string& digest, std::string_view page_timestamp,
                             std::string_view page_url) {
  std::string id = digest;
  id.append("/").append(page_timestamp).append("/").append(hex64(fnv1a64(page_url)));
  return id;
}

template <typename R, typename C>
void BasicDigestCollector<R, C>::reset(std::string_view digest) {
  group_.digest.assign(digest);
  group_.captures.clear();
  group_.refs.clear();
  group_.dropped_refs = noted_ = 0;
}

template <typename R, typename C>
void BasicDigestCollector<R, C>::add(Record&& record) {
  if (auto* capture = std::get_if<ImageCapture>(&record))
    add_capture(C(std::move(*capture)));
  else if (auto* ref = std::get_if<PageReference>(&record))
    cap_.add(R(std::move(*ref)));
  else if (auto* note = std::get_if<DroppedReferences>(&record))
    noted_ += note->count, cap_.add_dropped(note->count);
}

template <typename R, typename C>
BasicDigestGroup<R, C>& BasicDigestCollector<R, C>::finish(Counters& counters) {
  group_.refs = cap_.take(group_.dropped_refs);
  if (group_.dropped_refs > noted_) {
    counters.add("reference_lists_capped");
    counters.add("references_dropped", static_cast<int64_t>(group_.dropped_refs - noted_));
  }
  return group_;
}

template <typename Doc>
template <typename R, typename C>
std::span<Doc> DocumentBuilder<Doc>::build(BasicDigestGroup<R, C>& group, Mode mode,
                                           Counters& counters, ReferenceOrder order) {
  if (group.captures.empty()) return {};
  if (group.refs.empty()) {
    counters.add(kDigestsWithoutPages);
    return {};
  }
  sort_if_needed(group.captures, capture_before);
  if (order != ReferenceOrder::sorted && !references_sorted(group.refs))
    sort_references(group.refs);
  counters.add(kDigestsMerged);
  if (mode == Mode::full) {
    Doc base;
    set_base_document(base, group, counters);
    docs_ = full_documents(group, base, counters);
    return docs_;
  }
  docs_.resize(1);
  Doc& doc = docs_.front();
  set_base_document(doc, group, counters);
  if (mode == Mode::legacy)
    set_descriptions(doc, same_page(group.refs, 0), counters);
  else
    set_descriptions(doc, std::span<const R>(group.refs), counters);
  return docs_;
}

template <typename Doc, typename R, typename C>
std::vector<Doc> build_documents(BasicDigestGroup<R, C>& group, Mode mode, Counters& counters) {
  DocumentBuilder<Doc> builder;
  std::span<Doc> docs = builder.build(group, mode, counters);
  return {std::make_move_iterator(docs.begin()), std::make_move_iterator(docs.end())};
}

template class BasicDigestCollector<PageReference>;
template class BasicDigestCollector<EncodedReference, EncodedCapture>;
template std::vector<ImageDocument> build_documents<ImageDocument>(DigestGroup&, Mode, Counters&);
template std::span<DocumentView> DocumentBuilder<DocumentView>::build(
    BasicDigestGroup<EncodedReference, EncodedCapture>&, Mode, Counters&, ReferenceOrder);

}  // namespace strata::merge
