#include "sample/cover_world.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "archive/warc_writer.hpp"
#include "core/json.hpp"
#include "core/timestamp.hpp"
#include "sample/rng.hpp"

namespace strata::sample {
namespace {

constexpr int64_t kDay = 86'400;
constexpr int64_t kStart = 1'104'537'600;  // 2005-01-01

std::string hex64(uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// One family under construction: documents get unique digests from (family, counter).
class Family {
 public:
  Family(uint64_t seed, std::string name, std::string expression, std::string proof)
      : rng_(Rng::derive(seed, "cover:" + name)) {
    f_.name = std::move(name);
    f_.expression = std::move(expression);
    f_.proof = std::move(proof);
  }
  Rng& rng() { return rng_; }

  // A document of site `host`, image path `path`, page path `page`, captured at `time`.
  merge::ImageDocument& add(const std::string& host, const std::string& path,
                            const std::string& page, int64_t time, int width = 400,
                            int height = 300) {
    merge::ImageDocument d;
    // Random (so that id order, the solvers' tie order, is unrelated to the plan), unique.
    d.imgDigest = hex64(rng_.next()) + hex64(rng_.next()) + hex64(rng_.next()) + hex64(++counter_);
    d.id = d.imgDigest;
    d.imgUrl = "http://" + host + "/" + path;
    d.imgMimeType = d.imgMimeTypeReported = "image/jpeg";
    d.imgWidth = width;
    d.imgHeight = height;
    d.imgSize = static_cast<uint64_t>(width) * static_cast<uint64_t>(height) / 10 + 100;
    d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = timestamp_from_epoch(time);
    d.imgCaptureTimes = {d.imgCrawlTimestamp};
    d.pageUrl = "http://" + host + "/" + page;
    d.pageHost = host;
    d.pageTitle = host + " " + page;
    d.pageCrawlTimestamp = d.imgCrawlTimestamp;
    d.collection = {"cover-" + f_.name};
    d.matchingImages = d.matchingPages = 1;
    f_.documents.push_back(std::move(d));
    return f_.documents.back();
  }
  void phash(uint64_t h) { f_.phashes.emplace_back(f_.documents.back().imgDigest, h); }
  // A group of `size` documents that forms one component, `keepers` of them in its optimum.
  void group(size_t size, size_t keepers) {
    f_.optimum += keepers;
    f_.largest_group = std::max(f_.largest_group, size);
  }
  CoverFamily done() {
    std::sort(f_.documents.begin(), f_.documents.end(),
              [](const auto& x, const auto& y) { return x.id < y.id; });
    std::sort(f_.phashes.begin(), f_.phashes.end());
    return std::move(f_);
  }

 private:
  Rng rng_;
  CoverFamily f_;
  uint64_t counter_ = 0;
};

// `count` pHashes, pairwise more than 18 bits apart, each with 20-44 bits set (so that its
// copies, within 3 bits, pass the flat-picture gate and two looks stay 12+ bits apart).
std::vector<uint64_t> looks(Rng& rng, size_t count) {
  std::vector<uint64_t> out;
  while (out.size() < count) {
    const uint64_t h = rng.next();
    const int bits = std::popcount(h);
    if (bits < 20 || bits > 44) continue;
    if (std::all_of(out.begin(), out.end(), [&](uint64_t o) { return std::popcount(o ^ h) > 18; }))
      out.push_back(h);
  }
  return out;
}

uint64_t within_three_bits(Rng& rng, uint64_t base) {
  for (int flips = rng.range(0, 3); flips > 0; --flips) base ^= uint64_t{1} << rng.below(64);
  return base;
}

CoverFamily versions(uint64_t seed, size_t groups) {
  Family f(seed, "versions", "versions",
           "the newest version of a URL is covered by no other document (none is newer in its "
           "URL): one per URL is needed, and it covers its URL");
  for (size_t u = 0; u < groups; ++u) {
    const int n = f.rng().range(1, 6);
    for (int v = 0; v < n; ++v)
      f.add("site" + std::to_string(u % 7) + ".example", "img/u" + std::to_string(u) + ".jpg",
            "page" + std::to_string(v) + ".html",
            kStart + (v * 10 + static_cast<int64_t>(u)) * kDay);
    f.group(static_cast<size_t>(n), 1);
  }
  return f.done();
}

CoverFamily perhost(uint64_t seed, size_t groups) {
  Family f(seed, "perhost", "perhost",
           "a host's newest image is covered by no other document: one per host is needed, and "
           "it covers its host");
  for (size_t h = 0; h < groups; ++h) {
    const int n = f.rng().range(1, 8);
    for (int k = 0; k < n; ++k)
      f.add("host" + std::to_string(h) + ".example", "i" + std::to_string(k) + ".jpg", "index.html",
            kStart + static_cast<int64_t>(k * 1000 + h) * 3600);
    f.group(static_cast<size_t>(n), 1);
  }
  return f.done();
}

CoverFamily exact(uint64_t seed, size_t groups) {
  Family f(seed, "exact", "exact",
           "every document has its own digest (compact documents: one per digest), so each "
           "covers only itself");
  for (size_t k = 0; k < groups; ++k) {
    f.add("copies.example", "c" + std::to_string(k % 5) + ".jpg", "index.html", kStart);
    f.group(1, 1);
  }
  return f.done();
}

// Looks with 1-6 copies each, any two copies within 6 bits, looks 12+ bits apart; for
// `best` every copy has its own area.
CoverFamily near_duplicates(uint64_t seed, size_t groups, bool best) {
  Family f(seed, best ? "best" : "near", best ? "best" : "near",
           best ? "looks are 12+ bits apart and copies within 6: a look's largest copy is covered "
                  "by no other document, and covers its look"
                : "looks are 12+ bits apart and copies within 6 bits: one per look is needed, "
                  "and any copy covers its look");
  const auto bases = looks(f.rng(), groups);
  for (size_t l = 0; l < groups; ++l) {
    const int n = f.rng().range(1, 6);
    for (int c = 0; c < n; ++c) {
      const int side = best ? 100 + 10 * c : 200;
      f.add("look" + std::to_string(l % 11) + ".example",
            "l" + std::to_string(l) + "c" + std::to_string(c) + ".jpg", "index.html",
            kStart + static_cast<int64_t>(l) * kDay, side, side);
      f.phash(within_three_bits(f.rng(), bases[l]));
    }
    f.group(static_cast<size_t>(n), 1);
  }
  return f.done();
}

// Chains of versions 20 days apart under within(ts,30d): each version covers only the one
// before it, so a chain of n needs ceil(n/2).
CoverFamily within_days(uint64_t seed, size_t groups) {
  Family f(seed, "within", "same(url),newer,within(ts,30d)",
           "versions 20 days apart: a version covers only the one before it; in a chain of n "
           "the 1st, 3rd, 5th... have disjoint coverers (ceil(n/2) needed) and the 2nd, 4th... "
           "(and the last) cover the chain");
  for (size_t u = 0; u < groups; ++u) {
    const int n = f.rng().range(1, 9);
    for (int v = 0; v < n; ++v)
      f.add("chain.example", "c" + std::to_string(u) + ".png", "p" + std::to_string(u) + ".html",
            kStart + (static_cast<int64_t>(v) * 20 + static_cast<int64_t>(u % 5)) * kDay);
    f.group(static_cast<size_t>(n), static_cast<size_t>((n + 1) / 2));
  }
  return f.done();
}

// Versions of a page whose words mostly grow; at a cut a word goes away for good. The paper's
// use case: keep the newest version unless an older one has content the newer lacks.
CoverFamily page_versions(uint64_t seed, size_t groups) {
  Family f(seed, "pages", "same(page),newer,containment(text)>=1",
           "a run of versions only gains words, and a cut removes a word for good: the last "
           "version of each run is covered only by itself (older ones are not newer, newer ones "
           "lack the removed word) and covers its run");
  for (size_t p = 0; p < groups; ++p) {
    const int n = f.rng().range(2, 8);
    std::vector<std::string> words;
    int next_word = 0;
    auto word = [&] { return "p" + std::to_string(p) + "w" + std::to_string(next_word++); };
    for (int k = 0; k < 3; ++k) words.push_back(word());
    size_t runs = 1;
    for (int v = 0; v < n; ++v) {
      if (v > 0) {
        if (f.rng().chance(0.3) && words.size() > 1) {
          words.erase(words.begin() + static_cast<std::ptrdiff_t>(f.rng().below(words.size())));
          ++runs;
        }
        words.push_back(word());
      }
      std::string text;
      for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
      auto& d =
          f.add("news.example", "img/p" + std::to_string(p) + "v" + std::to_string(v) + ".jpg",
                "story" + std::to_string(p) + ".html",
                kStart + (static_cast<int64_t>(v) * 7 + static_cast<int64_t>(p)) * kDay);
      d.imgAlt = {text};
    }
    f.group(static_cast<size_t>(n), runs);
  }
  return f.done();
}

// Directed cycles: under the family's rule a document covers itself and the one before it
// (width - 1, wrapping around), so a cycle of n needs ceil(n/2) (each covers two at most);
// odd cycles leave the packing bound one short, so only a search proves the optimum.
CoverFamily cycles(uint64_t seed, size_t count, int length) {
  const std::string n = std::to_string(length);
  Family f(seed, "cycles" + n,
           "same(url),(b.width-a.width=1|a.width-b.width=" + std::to_string(length - 1) + ")",
           "a document covers itself and its predecessor on a cycle of " + n +
               ": each covers two at most, so ceil(" + n +
               "/2) are needed, and every second "
               "one (plus one) covers the cycle");
  for (size_t c = 0; c < count; ++c) {
    for (int k = 0; k < length; ++k)
      f.add("ring.example", "r" + std::to_string(c) + ".gif", "ring.html",
            kStart + static_cast<int64_t>(k) * kDay, 100 + k, 80);
    f.group(static_cast<size_t>(length), static_cast<size_t>((length + 1) / 2));
  }
  return f.done();
}

}  // namespace

std::vector<CoverFamily> build_cover_world(uint64_t seed, size_t groups) {
  groups = std::max<size_t>(groups, 1);
  std::vector<CoverFamily> out;
  out.push_back(exact(seed, groups));
  out.push_back(near_duplicates(seed, groups, false));
  out.push_back(near_duplicates(seed, groups, true));
  out.push_back(versions(seed, groups));
  out.push_back(perhost(seed, groups));
  out.push_back(within_days(seed, groups));
  out.push_back(page_versions(seed, groups));
  out.push_back(cycles(seed, groups, 5));
  out.push_back(cycles(seed, std::max<size_t>(1, groups / 25), 67));
  return out;
}

void write_cover_world(const std::vector<CoverFamily>& families, const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(dir) / "cover";
  Json truth = Json::array();
  for (const CoverFamily& f : families) {
    fs::create_directories(root / f.name);
    std::ofstream docs(root / f.name / "documents.jsonl");
    for (const auto& d : f.documents) docs << merge::to_json(d).dump() << "\n";
    std::ofstream analysis(root / f.name / "analysis.jsonl");
    for (const auto& [digest, h] : f.phashes)
      analysis << Json{{"digest", digest}, {"status", "ok"}, {"phash", hex64(h)}}.dump() << "\n";
    if (!docs || !analysis) throw std::runtime_error("cannot write " + (root / f.name).string());
    truth.push_back({{"family", f.name},
                     {"expression", f.expression},
                     {"documents", f.documents.size()},
                     {"optimum", f.optimum},
                     {"largestGroup", f.largest_group},
                     {"proof", f.proof}});
  }
  std::ofstream out(root / "truth.json");
  out << truth.dump(1) << "\n";
  if (!out) throw std::runtime_error("cannot write " + (root / "truth.json").string());
}

PageVersionsTruth write_page_versions(uint64_t seed, size_t groups, const std::string& warc) {
  Rng rng = Rng::derive(seed, "cover:archived-pages");
  archive::WarcWriter writer(warc);
  PageVersionsTruth truth;
  truth.proof =
      "a run of captures only appends words (every 5-word shingle stays), a cut removes a word "
      "for good (the shingles holding it never come back): the newest capture of each run is "
      "covered only by itself and covers its run";
  for (size_t u = 0; u < groups; ++u) {
    const std::string url = "http://site" + std::to_string(u) + ".example/news.html";
    std::vector<std::string> words;
    size_t fresh = 0;
    auto word = [&] { return "u" + std::to_string(u) + "w" + std::to_string(fresh++); };
    for (int k = 0; k < 20; ++k) words.push_back(word());
    const int captures = rng.range(2, 6);
    std::string previous;
    for (int v = 0; v < captures; ++v) {
      if (v > 0 && rng.chance(0.3)) {
        truth.keepers.push_back(previous);  // the run before the cut ends here
        words.erase(words.begin() + static_cast<std::ptrdiff_t>(2 + rng.below(words.size() - 4)));
      }
      if (v > 0)
        for (int k = rng.range(1, 3); k > 0; --k) words.push_back(word());
      std::string body = "<html><head><title>News " + std::to_string(u) +
                         "</title></head><body><nav>home about contact</nav><img src=\"/p" +
                         std::to_string(u) + ".jpg\" alt=\"picture\"><p>";
      for (const auto& w : words) body += w + " ";
      body += "</p></body></html>";
      const std::string date = std::to_string(2001 + v) + "0101120000";
      writer.write_response(url, date,
                            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                            "Content-Length: " +
                                std::to_string(body.size()) + "\r\n\r\n" + body);
      previous = date + "/" + url;
      ++truth.pages;
    }
    truth.keepers.push_back(previous);
  }
  writer.flush();
  truth.optimum = truth.keepers.size();
  std::sort(truth.keepers.begin(), truth.keepers.end());
  return truth;
}

PageVersionsTruth write_page_versions_world(uint64_t seed, size_t groups, const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(dir) / "cover" / "archived-pages";
  fs::create_directories(root);
  PageVersionsTruth truth =
      write_page_versions(seed, std::max<size_t>(groups, 1), (root / "versions.warc.gz").string());
  std::ofstream out(root / "truth.json");
  out << Json{{"expression", truth.expression}, {"items", "pages"},         {"pages", truth.pages},
              {"optimum", truth.optimum},       {"keepers", truth.keepers}, {"proof", truth.proof}}
             .dump(1)
      << "\n";
  if (!out) throw std::runtime_error("cannot write " + (root / "truth.json").string());
  return truth;
}

}  // namespace strata::sample
