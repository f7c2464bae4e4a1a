#pragma once
// Image documents for the small indexes of the server tests.
#include <string>

#include "index/document_builder.hpp"
#include "merge/document.hpp"

namespace strata::server::testing {

inline merge::ImageDocument doc(const std::string& id, const std::string& ts,
                                const std::string& alt) {
  merge::ImageDocument d;
  d.id = d.imgDigest = id;
  d.imgUrl = "https://imagens.publico.pt/" + id + ".png?tp=UH";
  d.imgMimeType = "image/png";
  d.imgWidth = 580;
  d.imgHeight = 69;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = ts;
  d.imgAlt = {alt};
  d.imgCaption = {"Mais artigos"};
  d.pageUrl = "https://www.publico.pt/";
  d.pageTitle = "PÚBLICO — Pense bem";
  d.pageHost = "www.publico.pt";
  d.pageCrawlTimestamp = ts;
  d.collection = {"Teste"};
  d.matchingImages = 2;
  return d;
}

// Classified safe (NSFW 0.25): safe search hides unclassified images.
inline void classified_safe(const merge::ImageDocument&, index::Moderation& m) {
  m.safe = 0.25;
}

}  // namespace strata::server::testing
