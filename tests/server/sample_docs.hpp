#pragma once
// Image documents for the small indexes of the server tests.
#include <filesystem>
#include <string>
#include <vector>

#include "index/document_builder.hpp"
#include "index/writer.hpp"
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

// Adds one 400x300 document per planted image (anything with an `id`) to the index at `dir`,
// its moderation set by `moderate(planted, m)`.
template <typename Planted, typename Moderate>
void add_planted(const std::filesystem::path& dir, const std::vector<Planted>& planted,
                 Moderate moderate) {
  index::IndexWriter w(dir);
  w.set_moderate([planted, moderate](const merge::ImageDocument& d, index::Moderation& m) {
    for (const auto& p : planted)
      if (p.id == d.id) moderate(p, m);
  });
  for (const auto& p : planted) {
    merge::ImageDocument d = doc(p.id, "20100101000000", "praia");
    d.imgWidth = 400, d.imgHeight = 300;
    w.add(d);
  }
}

}  // namespace strata::server::testing
