// bench_visual_judged --index DIR [--judged FILE] [--list DIGEST,...]
// Precision at 10 of "visually similar" on judged queries over real crawls and the demo
// sample (bench/similar/visual_judged.jsonl; bench/similar/run_visual_judged builds the index).
// For each judged query: the 10 images of the index's analysis (DIR/analysis.jsonl) whose
// embeddings are nearest by cosine (the query's own image left out), how many were judged
// similar, how many are unjudged (counted as not similar), and how many of the judged-similar
// ones the pHash near-duplicate search (Hamming distance <= 8) finds too. --list prints the
// nearest 10 of other digests, with their thumbnails and URLs, for judging.
#include <xapian.h>

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
#include "index/document_builder.hpp"
#include "index/stored_data.hpp"
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

std::map<std::string, std::string> urls_by_digest(const std::string& dir) {
  std::map<std::string, std::string> urls;
  Xapian::Database db(dir);
  const index::StoredData stored(db);
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    merge::ImageDocument doc;
    index::Moderation m;
    if (index::parse_document_data(stored.unpack(db.get_document(*it).get_data()), doc, m))
      urls.emplace(doc.imgDigest, doc.imgUrl);
  }
  return urls;
}

Universe load(const std::string& dir) {
  const auto urls = urls_by_digest(dir);
  Universe u;
  std::ifstream in(dir + "/analysis.jsonl");
  std::vector<similar::EmbeddingCode> codes;
  for (std::string line; std::getline(in, line);) {
    Image image;
    const Json j = Json::parse(line, nullptr, false);
    if (!analyze::from_json(j, image.record) || !image.record.embedding) continue;
    const auto url = urls.find(image.record.digest);
    if (url == urls.end()) continue;  // analysed, no longer indexed
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

int judge(const Universe& u, const std::string& file) {
  std::ifstream in(file);
  int queries = 0, similar = 0, unjudged = 0, judged_similar = 0, by_phash = 0;
  for (std::string line; std::getline(in, line);) {
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    const std::string digest = j.value("query", "");
    const auto it = u.by_digest.find(digest);
    if (it == u.by_digest.end()) {
      std::printf("%-40.40s missing from the index\n", j.value("about", digest).c_str());
      continue;
    }
    std::map<std::string, bool> verdicts;
    for (const auto& v : j.value("judgments", Json::array()))
      verdicts[v.value("digest", "")] = v.value("similar", false);
    const Score s = score(u, it->second, verdicts);
    std::printf("%-40.40s P@10 %.1f  unjudged %d  judged similar %d, pHash finds %d\n",
                j.value("about", digest).c_str(), s.similar / 10.0, s.unjudged, s.judged_similar,
                s.by_phash);
    ++queries;
    similar += s.similar;
    unjudged += s.unjudged;
    judged_similar += s.judged_similar;
    by_phash += s.by_phash;
  }
  if (queries == 0) return 1;
  std::printf(
      "%d queries over %zu images: mean P@10 %.2f (unjudged %d); of %d judged-similar images "
      "the pHash near-duplicate search finds %d\n",
      queries, u.images.size(), similar / (10.0 * queries), unjudged, judged_similar, by_phash);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, judged, digests;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--index")
      dir = argv[i + 1];
    else if (flag == "--judged")
      judged = argv[i + 1];
    else if (flag == "--list")
      digests = argv[i + 1];
  }
  if (dir.empty() || (judged.empty() && digests.empty())) {
    std::fprintf(stderr, "usage: bench_visual_judged --index DIR [--judged FILE] [--list D,...]\n");
    return 2;
  }
  const Universe u = load(dir);
  std::istringstream list_of(digests);
  for (std::string d; std::getline(list_of, d, ',');) list(u, d);
  return judged.empty() ? 0 : judge(u, judged);
}
