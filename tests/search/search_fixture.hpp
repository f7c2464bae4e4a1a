#pragma once
// Builds small hand-made indexes for ranking and filter tests.
#include <gtest/gtest.h>
#include <xapian.h>

#include <string>
#include <vector>

#include "index/writer.hpp"
#include "search/searcher.hpp"
#include "testing/shared_data.hpp"

namespace strata::search::testing {

inline merge::ImageDocument doc(const std::string& id, const std::string& ts = "20100101000000") {
  merge::ImageDocument d;
  d.id = id;
  d.imgDigest = id;
  d.imgUrl = "http://example.pt/" + id + ".jpg";
  d.imgMimeType = "image/jpeg";
  d.imgWidth = 100;
  d.imgHeight = 100;
  d.imgCrawlTimestamp = ts;
  d.imgCrawlTimestampLatest = ts;
  d.pageUrl = "http://example.pt/";
  d.pageHost = "example.pt";
  d.pageCrawlTimestamp = ts;
  d.collection = {"c1"};
  return d;
}

class SearchTest : public ::testing::Test {
 protected:
  void add(const std::vector<merge::ImageDocument>& docs,
           const std::vector<std::pair<std::string, index::Moderation>>& mod = {}) {
    index::IndexWriter w(dir_);
    // Classified safe unless `mod` says otherwise (safe search hides unclassified images).
    w.set_moderate([](const merge::ImageDocument&, index::Moderation& m) { m.safe = 0.0; });
    for (const auto& d : docs) w.add(d);
    for (const auto& [id, m] : mod) w.set_moderation(id, m);
  }
  std::vector<std::string> ids(SearchRequest r) {
    Xapian::Database db(dir_.string());
    std::vector<std::string> out;
    for (const auto& h : search(db, r).hits) out.push_back(h.doc.id);
    return out;
  }
  std::vector<std::string> ids(const std::string& q) {
    SearchRequest r;
    r.q = q;
    return ids(r);
  }
  SearchResult run(const SearchRequest& r) {
    Xapian::Database db(dir_.string());
    return search(db, r);
  }
  std::filesystem::path dir_ = strata::testing::scratch_dir() / "index";
};

using V = std::vector<std::string>;

}  // namespace strata::search::testing
