#pragma once
// A small merged document numbered i (id "digest-i"), for tests that need many.
#include <cstdint>
#include <string>

#include "merge/document.hpp"

namespace strata::index::testing {

inline merge::ImageDocument numbered_document(uint64_t i) {
  merge::ImageDocument d;
  d.id = d.imgDigest = "digest-" + std::to_string(i);
  d.imgUrl = "http://x.pt/imagens/" + std::to_string(i) + ".png";
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = "20100101000000";
  d.imgAlt = {"farol da barra " + std::to_string(i)};
  d.collection = {"c1"};
  return d;
}

}  // namespace strata::index::testing
