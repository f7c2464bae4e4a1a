#include "merge/order.hpp"

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
                         V(r.pageHost), V(r.pageUrlTokens), V(r.imgUrlTokens), r.inline_);
}

}  // namespace

bool CaptureBefore::operator()(const ImageCapture& a, const ImageCapture& b) const {
  return capture_key(a) < capture_key(b);
}

bool CaptureBefore::operator()(const CaptureView& a, const CaptureView& b) const {
  return capture_key(a) < capture_key(b);
}

bool ReferenceBefore::operator()(const PageReference& a, const PageReference& b) const {
  return reference_key(a) < reference_key(b);
}

bool ReferenceBefore::operator()(const ReferenceView& a, const ReferenceView& b) const {
  return reference_key(a) < reference_key(b);
}

}  // namespace strata::merge
