#include "merge/order.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <tuple>

namespace strata::merge {
namespace {

using V = std::string_view;

template <typename C>
auto capture_key(const C& c) {
  return std::make_tuple(V(c.timestamp), c.imgUrl.size(), V(c.imgUrl), V(c.digest), V(c.collection),
                         V(c.file), c.offset, c.length, V(c.imgSurt), V(c.recordType), c.status,
                         V(c.mimeReported), V(c.mimeDetected), c.width, c.height, c.size,
                         V(c.warcDigest), c.inline_);
}

template <typename R>
auto reference_key(const R& r) {
  return std::make_tuple(V(r.pageTimestamp), r.pageUrl.size(), V(r.pageUrl), V(r.pageTitle),
                         V(r.imgSurt), V(r.imgUrl), V(r.imgTitle), V(r.imgAlt), V(r.imgCaption),
                         V(r.tag), V(r.collection), V(r.file), r.offset, r.length, r.imagesInPage,
                         V(r.pageHost), V(r.pageUrlTokens), V(r.imgUrlTokens), r.inline_,
                         V(r.position), V(r.book), V(r.pageSketch));
}

// The 8 bytes at `from` as a big-endian integer (one load).
uint64_t big_endian_at(const char* from) {
  uint64_t word;
  std::memcpy(&word, from, 8);
  return std::endian::native == std::endian::little ? __builtin_bswap64(word) : word;
}

// Bytes [at, at + 8) of `text` big-endian, zero-padded: comparing these orders strings as
// their bytes do, up to ties. Loads, not a loop per byte: a timestamp's first 16 bytes are
// read for every reference sorted or checked.
uint64_t bytes_at(std::string_view text, size_t at) {
  size_t left = text.size() > at ? text.size() - at : 0;
  if (left >= 8) return big_endian_at(text.data() + at);
  if (left == 0) return 0;
  // The text's last 8 bytes, shifted so that those from `at` on lead.
  if (text.size() >= 8) return big_endian_at(text.data() + text.size() - 8) << (8 * (8 - left));
  uint64_t out = 0;
  for (size_t i = at; i < at + 8; ++i)
    out = out << 8 | (i < text.size() ? static_cast<unsigned char>(text[i]) : 0);
  return out;
}

// A reference's place in reference_before as far as integers tell.
template <typename R>
struct ReferenceSortKey {
  uint64_t time_head, time_tail;  // pageTimestamp's bytes 0-7 and 8-15
  uint32_t time_size, url_size;
  R* ref;

  explicit ReferenceSortKey(R& r)
      : time_head(bytes_at(r.pageTimestamp, 0)),
        time_tail(bytes_at(r.pageTimestamp, 8)),
        time_size(static_cast<uint32_t>(r.pageTimestamp.size())),
        url_size(static_cast<uint32_t>(r.pageUrl.size())),
        ref(&r) {}
  bool operator<(const ReferenceSortKey& o) const {
    if (time_head != o.time_head) return time_head < o.time_head;
    if (time_tail != o.time_tail) return time_tail < o.time_tail;
    // Equal timestamps (same size, at most 16 bytes): then the shorter pageUrl first.
    bool same_time = time_size == o.time_size && time_size <= 16;
    if (same_time && url_size != o.url_size) return url_size < o.url_size;
    return reference_before(*ref, *o.ref);
  }
};

}  // namespace

template <typename R>
void sort_references(std::vector<R>& refs) {
  std::vector<ReferenceSortKey<R>> keys(refs.begin(), refs.end());
  std::sort(keys.begin(), keys.end());
  std::vector<R> sorted;
  sorted.reserve(refs.size());
  for (const auto& key : keys) sorted.push_back(std::move(*key.ref));
  refs = std::move(sorted);
}

template <typename R>
bool references_sorted(const std::vector<R>& refs) {
  for (size_t i = 1; i < refs.size(); ++i)
    if (ReferenceSortKey<const R>(refs[i]) < ReferenceSortKey<const R>(refs[i - 1])) return false;
  return true;
}

template void sort_references(std::vector<PageReference>&);
template void sort_references(std::vector<EncodedReference>&);
template bool references_sorted(const std::vector<PageReference>&);
template bool references_sorted(const std::vector<EncodedReference>&);

// The first field decides most comparisons: compared alone first, without building the
// tuples of every field (which showed in profiles).
bool CaptureBefore::operator()(const ImageCapture& a, const ImageCapture& b) const {
  if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
  return capture_key(a) < capture_key(b);
}

bool CaptureBefore::operator()(const CaptureView& a, const CaptureView& b) const {
  if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
  return capture_key(a) < capture_key(b);
}

bool ReferenceBefore::operator()(const PageReference& a, const PageReference& b) const {
  if (a.pageTimestamp != b.pageTimestamp) return a.pageTimestamp < b.pageTimestamp;
  return reference_key(a) < reference_key(b);
}

bool ReferenceBefore::operator()(const ReferenceView& a, const ReferenceView& b) const {
  if (a.pageTimestamp != b.pageTimestamp) return a.pageTimestamp < b.pageTimestamp;
  return reference_key(a) < reference_key(b);
}

}  // namespace strata::merge
