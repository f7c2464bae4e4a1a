#pragma once
// Total orders on captures and references. Every choice merge makes ("the oldest capture",
// "the oldest page") is the first element under these orders, so the output never depends
// on input order, thread count or how Hadoop sorted the values of a key.
#include <vector>

#include "merge/codec.hpp"
#include "merge/groups.hpp"

namespace strata::merge {

// Earliest timestamp, then shorter imgUrl, then smaller imgUrl, then every other field. The
// same order on decoded and on in-place captures.
struct CaptureBefore {
  bool operator()(const ImageCapture& a, const ImageCapture& b) const;
  bool operator()(const CaptureView& a, const CaptureView& b) const;
};
inline constexpr CaptureBefore capture_before;

// Earliest pageTimestamp, then shorter pageUrl, then smaller pageUrl, then every other field.
// The same order on decoded and on in-place references; an object, so that it can be handed
// to std::sort for either.
struct ReferenceBefore {
  bool operator()(const PageReference& a, const PageReference& b) const;
  bool operator()(const ReferenceView& a, const ReferenceView& b) const;
};
inline constexpr ReferenceBefore reference_before;

// Sorts by reference_before, moving each reference once: most comparisons are decided by
// integers (pageTimestamp's first 16 bytes, then the pageUrl length), and only ties walk the
// whole order. R: PageReference or EncodedReference (a few hundred bytes each).
template <typename R>
void sort_references(std::vector<R>& refs);

// Whether `refs` are in reference_before order, mostly decided by the same integers (a check
// that walks the whole order per pair showed in profiles).
template <typename R>
bool references_sorted(const std::vector<R>& refs);

}  // namespace strata::merge
