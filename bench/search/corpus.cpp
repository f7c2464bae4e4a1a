#include "corpus.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "sample/words.hpp"
#include "search/request.hpp"
#include "url/url.hpp"

namespace strata::bench {
namespace {

using sample::Lang;
using sample::Rng;

constexpr uint64_t kSites = 50'000;

double unit(Rng& rng) {
  return static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

std::string hex64(uint64_t i, uint64_t seed) {
  Rng rng = Rng::derive(seed, "digest", i);
  std::string out;
  char buf[17];
  for (int k = 0; k < 4; ++k) {
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng.next()));
    out += buf;
  }
  return out;
}

std::string timestamp(Rng& rng) {
  char buf[15];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d%02d%02d%02d", rng.range(1996, 2023),
                rng.range(1, 12), rng.range(1, 28), rng.range(0, 23), rng.range(0, 59),
                rng.range(0, 59));
  return buf;
}

std::string join(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + " " + b;
}

std::string slug(std::string s) {
  std::replace(s.begin(), s.end(), ' ', '-');
  return s;
}

}  // namespace

std::vector<std::string> read_queries(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

std::vector<std::string> every_kth(const std::vector<std::string>& all, size_t n) {
  if (n == 0 || n >= all.size()) return all;
  std::vector<std::string> out;
  const size_t k = all.size() / n;
  for (size_t i = 0; out.size() < n; i += k) out.push_back(all[i]);
  return out;
}

Corpus::Corpus(const std::vector<std::string>& query_log, uint64_t seed) : seed_(seed) {
  std::map<std::string, uint64_t> counts;
  for (const auto& q : query_log) {
    std::istringstream words(q);
    for (std::string w; words >> w;) ++counts[w];
  }
  // Most frequent first; the many ties in a shuffled but reproducible order.
  std::vector<std::tuple<uint64_t, uint64_t, std::string>> ranked;
  for (auto& [w, n] : counts) ranked.emplace_back(n, Rng::derive(seed, w).next(), w);
  std::sort(ranked.begin(), ranked.end(), std::greater<>());
  for (auto& entry : ranked) words_.push_back(std::get<2>(entry));
  if (words_.empty()) words_ = sample::filler_words(Lang::pt);
  double sum = 0;
  for (size_t rank = 0; rank < words_.size(); ++rank)
    cumulative_.push_back(sum += 1.0 / static_cast<double>(rank + 1));
}

std::string Corpus::log_words(Rng& rng, int n) const {
  std::string out;
  for (int i = 0; i < n; ++i) {
    double r = unit(rng) * cumulative_.back();
    auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), r);
    out = join(out, words_[static_cast<size_t>(it - cumulative_.begin())]);
  }
  return out;
}

std::string Corpus::site_host(uint64_t site) const {
  Rng rng = Rng::derive(seed_, "site", site);
  return "www." + slug(log_words(rng, 1)) + std::to_string(site % 100) + ".pt";
}

merge::ImageDocument Corpus::document(uint64_t i) const {
  Rng rng = Rng::derive(seed_, "document", i);
  const auto& topics = sample::all_topics();
  const bool has_topic = rng.chance(0.6);
  const sample::Topic& topic = rng.pick(topics);
  const Lang lang = has_topic ? topic.lang : (rng.chance(0.1) ? Lang::en : Lang::pt);
  auto describe = [&](int filler) {
    return has_topic ? sample::topical(rng, topic, filler) : sample::filler(rng, lang, filler);
  };

  merge::ImageDocument d;
  d.id = d.imgDigest = hex64(i, seed_);
  const std::string host = site_host(rng.below(kSites));
  const std::string name = has_topic ? slug(topic.query()) : slug(log_words(rng, 1));
  d.pageUrl =
      "http://" + host + "/" + slug(log_words(rng, 2)) + "/" + std::to_string(i % 997) + ".html";
  d.imgUrl = "http://" + host + "/imagens/" + name + "_" + std::to_string(i) + ".jpg";
  d.imgSurt = d.imgUrl;
  d.imgUrlTokens = url::url_tokens(d.imgUrl);
  d.pageUrlTokens = url::url_tokens(d.pageUrl);
  d.pageHost = host;
  d.pageTitle =
      sample::capitalise(join(log_words(rng, rng.range(1, 3)), log_words(rng, rng.range(1, 4))));
  if (rng.chance(0.75))
    d.imgAlt.push_back(
        sample::capitalise(join(describe(rng.range(0, 2)), log_words(rng, rng.range(0, 2)))));
  if (rng.chance(0.3)) d.imgTitle.push_back(sample::capitalise(log_words(rng, rng.range(2, 5))));
  if (rng.chance(0.5))
    d.imgCaption.push_back(
        sample::capitalise(join(describe(rng.range(2, 6)), log_words(rng, rng.range(3, 10)))));
  const int mime = rng.range(0, 9);
  d.imgMimeType = d.imgMimeTypeReported = mime < 7   ? "image/jpeg"
                                          : mime < 9 ? "image/png"
                                                     : "image/gif";
  d.imgWidth = rng.range(50, 2000);
  d.imgHeight = rng.range(50, 2000);
  d.imgSize = static_cast<uint64_t>(d.imgWidth) * d.imgHeight / 8;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = d.pageCrawlTimestamp = timestamp(rng);
  d.imgCaptureTimes = {d.imgCrawlTimestamp};
  d.tags = {"img"};
  d.imagesInOriginalPage = rng.range(1, 40);
  d.matchingImages = d.matchingPages = rng.range(1, 5);
  d.collection = {"bench"};
  return d;
}

// Real crawls: 11 % of the images are near-copies of another (issue 21). Here 11 % are
// copies of one of kSharedPictures pictures, a resize or re-encoding away (0-3 bits flipped);
// the others are pictures of their own (random hashes: 32 bits set on average, far apart).
uint64_t Corpus::phash(const merge::ImageDocument& doc) const {
  constexpr uint64_t kSharedPictures = 50'000;
  Rng rng = Rng::derive(seed_, "phash:" + doc.id);
  Rng picture = unit(rng) < 0.11 ? Rng::derive(seed_, "picture", rng.below(kSharedPictures))
                                 : Rng::derive(seed_, "own picture:" + doc.id);
  uint64_t hash = picture.next();
  for (int flips = rng.range(0, 3); flips > 0; --flips) hash ^= uint64_t{1} << rng.below(64);
  return hash;
}

index::Moderation Corpus::moderation(const merge::ImageDocument& doc) const {
  Rng rng = Rng::derive(seed_, "moderation:" + doc.id);
  const double verdict = unit(rng), score = unit(rng);
  index::Moderation m;
  if (verdict < 0.03) return m;
  m.analysis = "ok";
  m.safe = verdict < 0.93 ? score * search::kSafeThreshold : 0.5 + score * 0.5;
  m.phash = phash(doc);
  return m;
}

}  // namespace strata::bench
