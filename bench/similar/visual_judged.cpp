// bench_visual_judged --analysis FILE --documents FILE [--judged FILE] [--list DIGEST,...]
// Precision at 10 of "visually similar" on judged queries over real crawls and the tiny
// sample (bench/similar/visual_judged.jsonl; bench/similar/run_visual_judged makes the files:
// `strata merge`'s documents.jsonl for the URLs, `strata analyze`'s analysis.jsonl).
// For each judged query: the 10 analysed images whose embeddings are nearest by cosine (the query's
// own image left out), how many were judged similar, how many are unjudged (counted as not
// similar), and how many of the judged-similar ones the pHash near-duplicate search (Hamming
// distance <= 8) finds too. --list prints the nearest 10 of other digests, with their thumbnails
// and URLs, for judging.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analyze/phash.hpp"
#include "analyze/record.hpp"
#include "similar/embedding_index.hpp"
#include "similar/groups.hpp"

using namespace strata;

namespace {

struct Image {
  analyze::AnalysisRecord record;
  std::string url;
};

struct Universe {
  std::vector<Image> images;  // those with an embedding, numbered as the index's entries
  std::map<std::string, uint32_t> by_digest;
  similar::EmbeddingIndex index;
};

std::map<std::string, std::string> urls_by_digest(const std::string& documents) {
  std::map<std::string, std::string> urls;
  std::ifstream in(documents);
  for (std::string line; std::getline(in, line);) {
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_object()) urls.emplace(j.value("imgDigest", ""), j.value("imgUrl", ""));
  }
  return urls;
}

Universe load(const std::string& analysis, const std::string& documents) {
  const auto urls = urls_by_digest(documents);
  Universe u;
  std::ifstream in(analysis);
  std::vector<similar::EmbeddingCode> codes;
  for (std::string line; std::getline(in, line);) {
    Image image;
    const Json j = Json::parse(line, nullptr, false);
    if (!analyze::from_json(j, image.record) || !image.record.embedding) continue;
    const auto url = urls.find(image.record.digest);
    if (url == urls.end()) continue;  // analysed, no longer a document
    image.url = url->second;
    u.by_digest.emplace(image.record.digest, uint32_t(u.images.size()));
    codes.push_back(*image.record.embedding);
    u.images.push_back(std::move(image));
  }
  u.index = similar::EmbeddingIndex(std::move(codes));
  return u;
}

// The 10 nearest other images of `entry`.
std::vector<similar::EmbeddingIndex::Match> top10(const Universe& u, uint32_t entry) {
  std::vector<similar::EmbeddingIndex::Match> out;
  for (const auto& m : u.index.nearest_exact(u.index.code(entry), 11))
    if (m.entry != entry && out.size() < 10) out.push_back(m);
  return out;
}

bool near_duplicates(const Image& a, const Image& b) {
  return a.record.phash && b.record.phash &&
         analyze::hamming_distance(*a.record.phash, *b.record.phash) <=
             similar::kNearDuplicateRadius;
}

void list(const Universe& u, const std::string& digest) {
  const auto it = u.by_digest.find(digest);
  if (it == u.by_digest.end()) {
    std::printf("%s: not in the index with an embedding\n", digest.c_str());
    return;
  }
  const Image& q = u.images[it->second];
  std::printf("query %s %s %s\n", digest.c_str(), q.record.thumbnail.c_str(), q.url.c_str());
  for (const auto& m : top10(u, it->second)) {
    const Image& n = u.images[m.entry];
    std::printf("  %.3f %s %s %s%s\n", m.cosine, n.record.digest.c_str(),
                n.record.thumbnail.c_str(), n.url.c_str(),
                near_duplicates(q, n) ? " (pHash near-duplicate)" : "");
  }
}

struct Score {
  int similar = 0, unjudged = 0, by_phash = 0, judged_similar = 0;
};

Score score(const Universe& u, uint32_t entry, const std::map<std::string, bool>& verdicts) {
  Score s;
  for (const auto& m : top10(u, entry)) {
    const auto v = verdicts.find(u.images[m.entry].record.digest);
    if (v == verdicts.end())
      ++s.unjudged;
    else
      s.similar += v->second;
  }
  for (const auto& [digest, similar] : verdicts) {
    const auto n = u.by_digest.find(digest);
    if (!similar || n == u.by_digest.end()) continue;
    ++s.judged_similar;
    s.by_phash += near_duplicates(u.images[entry], u.images[n->second]);
  }
  return s;
}

struct Totals {
  int queries = 0, similar = 0, unjudged = 0, judged_similar = 0, by_phash = 0;
  void add(const Score& s) {
    ++queries;
    similar += s.similar;
    unjudged += s.unjudged;
    judged_similar += s.judged_similar;
    by_phash += s.by_phash;
  }
  void print(const std::string& name) const {
    if (queries == 0) return;
    std::printf(
        "%s: %d queries, mean P@10 %.2f (unjudged %d); of %d judged-similar images the pHash "
        "near-duplicate search finds %d\n",
        name.c_str(), queries, similar / (10.0 * queries), unjudged, judged_similar, by_phash);
  }
};

int judge(const Universe& u, const std::string& file) {
  std::ifstream in(file);
  std::map<std::string, Totals> by_set;
  Totals all;
  for (std::string line; std::getline(in, line);) {
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    const std::string digest = j.value("query", "");
    const auto it = u.by_digest.find(digest);
    if (it == u.by_digest.end()) {
      std::printf("%-40.40s missing from the analysis\n", j.value("about", digest).c_str());
      continue;
    }
    std::map<std::string, bool> verdicts;
    for (const auto& v : j.value("judgments", Json::array()))
      verdicts[v.value("digest", "")] = v.value("similar", false);
    const Score s = score(u, it->second, verdicts);
    std::printf("%-40.40s P@10 %.1f  unjudged %d  judged similar %d, pHash finds %d\n",
                j.value("about", digest).c_str(), s.similar / 10.0, s.unjudged, s.judged_similar,
                s.by_phash);
    by_set[j.value("set", "")].add(s);
    all.add(s);
  }
  for (const auto& [set, totals] : by_set) totals.print(set);
  all.print("all (" + std::to_string(u.images.size()) + " images)");
  return all.queries == 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string analysis, documents, judged, digests;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--analysis")
      analysis = argv[i + 1];
    else if (flag == "--documents")
      documents = argv[i + 1];
    else if (flag == "--judged")
      judged = argv[i + 1];
    else if (flag == "--list")
      digests = argv[i + 1];
  }
  if (analysis.empty() || documents.empty() || (judged.empty() && digests.empty())) {
    std::fprintf(stderr,
                 "usage: bench_visual_judged --analysis FILE --documents FILE [--judged FILE] "
                 "[--list D,...]\n");
    return 2;
  }
  const Universe u = load(analysis, documents);
  std::istringstream list_of(digests);
  for (std::string d; std::getline(list_of, d, ',');) list(u, d);
  return judged.empty() ? 0 : judge(u, judged);
}
