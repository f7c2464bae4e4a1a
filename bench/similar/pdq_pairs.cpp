// pdq_pairs ANALYSIS.jsonl [NEAR_DUPLICATES.jsonl]
// Does PDQ help pHash group near-duplicate images? Reads the images an analysis.jsonl gives
// both hashes, groups them by pHash as the index does (similar::group_near_duplicates, r = 8),
// and with a truth file (a sample's truth/near-duplicates.jsonl) prints the pHash and PDQ
// distance histograms of truth pairs and other pairs, and the pair precision and recall of
// the pHash groups alone and of the same groups with each member checked against its leader
// by PDQ (distance <= T, for several T; members whose hashes are both of quality >= 50 only,
// or all). Without truth it lists the grouped pairs and the pairs PDQ alone would join, with
// both distances and qualities, for checking by eye (docs/near-duplicates.md).
#include <bit>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyze/pdq.hpp"
#include "analyze/record.hpp"
#include "core/json.hpp"
#include "similar/groups.hpp"

using namespace strata;

namespace {

struct Hashed {
  similar::Image image;
  analyze::PdqHash pdq{};
  int quality = 0;
};
using Pair = std::pair<size_t, size_t>;  // image indices, first < second

std::vector<Hashed> read_analysis(const char* path) {
  std::vector<Hashed> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    analyze::AnalysisRecord r;
    const Json j = Json::parse(line, nullptr, false);
    if (!analyze::from_json(j, r) || !r.phash || !r.pdq) continue;
    out.push_back({{r.digest, *r.phash, r.width, r.height, 0}, *r.pdq, r.pdq_quality});
  }
  return out;
}

std::set<Pair> read_truth(const char* path, const std::vector<Hashed>& images) {
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < images.size(); ++i) at[images[i].image.digest] = i;
  std::set<Pair> pairs;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<size_t> members;
    const Json group = Json::parse(line);
    for (const auto& d : group["digests"])
      if (const auto it = at.find(d.get<std::string>()); it != at.end())
        members.push_back(it->second);
    for (size_t a : members)
      for (size_t b : members)
        if (a < b) pairs.insert({a, b});
  }
  return pairs;
}

int phash_distance(const Hashed& a, const Hashed& b) {
  return std::popcount(a.image.phash ^ b.image.phash);
}
int pdq_distance(const Hashed& a, const Hashed& b) {
  return analyze::hamming_distance(a.pdq, b.pdq);
}
bool both_confident(const Hashed& a, const Hashed& b) {
  return a.quality >= analyze::kPdqMinQuality && b.quality >= analyze::kPdqMinQuality;
}

// Pairs of images sharing a leader; `keep(member, leader)` false sends a member off alone.
template <typename Keep>
std::set<Pair> grouped_pairs(const std::vector<uint32_t>& leader, Keep keep) {
  std::map<uint32_t, std::vector<size_t>> groups;
  for (size_t i = 0; i < leader.size(); ++i)
    if (i == leader[i] || keep(i, leader[i])) groups[leader[i]].push_back(i);
  std::set<Pair> pairs;
  for (const auto& [_, members] : groups)
    for (size_t a : members)
      for (size_t b : members)
        if (a < b) pairs.insert({a, b});
  return pairs;
}

void print_scores(const char* rule, const std::set<Pair>& found, const std::set<Pair>& truth) {
  size_t right = 0;
  for (const Pair& p : found) right += truth.count(p);
  std::printf("%-34s pairs %6zu  precision %.4f  recall %.4f\n", rule, found.size(),
              found.empty() ? 1.0 : double(right) / found.size(),
              truth.empty() ? 1.0 : double(right) / truth.size());
}

void print_histograms(const std::vector<Hashed>& images, const std::set<Pair>& truth) {
  std::map<int, size_t> phash_truth, phash_other, pdq_truth, pdq_other;
  for (size_t a = 0; a < images.size(); ++a)
    for (size_t b = a + 1; b < images.size(); ++b) {
      const bool in_truth = truth.count({a, b}) > 0;
      ++(in_truth ? phash_truth : phash_other)[phash_distance(images[a], images[b])];
      ++(in_truth ? pdq_truth : pdq_other)[pdq_distance(images[a], images[b]) / 8 * 8];
    }
  std::printf("pHash d  truth  other | PDQ d    truth  other\n");
  for (int row = 0; row <= 16; ++row)
    std::printf("%7d %6zu %6zu | %3d-%-3d %6zu %6zu\n", row, phash_truth[row], phash_other[row],
                row * 8, row * 8 + 7, pdq_truth[row * 8], pdq_other[row * 8]);
}

void print_pair(const char* kind, const Hashed& a, const Hashed& b) {
  std::printf("%s phash %2d pdq %3d quality %3d %3d  %s %s\n", kind, phash_distance(a, b),
              pdq_distance(a, b), a.quality, b.quality, a.image.digest.c_str(),
              b.image.digest.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pdq_pairs ANALYSIS.jsonl [NEAR_DUPLICATES.jsonl]\n");
    return 2;
  }
  const auto images = read_analysis(argv[1]);
  std::vector<similar::Image> plain;
  for (const Hashed& h : images) plain.push_back(h.image);
  const auto grouping = similar::group_near_duplicates(plain);
  std::printf("images with pHash and PDQ %zu, groups %zu\n", images.size(), grouping.groups);
  const auto phash_only = grouped_pairs(grouping.leader, [](size_t, size_t) { return true; });
  if (argc < 3) {
    for (const Pair& p : phash_only) print_pair("grouped", images[p.first], images[p.second]);
    for (size_t a = 0; a < images.size(); ++a)
      for (size_t b = a + 1; b < images.size(); ++b)
        if (!phash_only.count({a, b}) && both_confident(images[a], images[b]) &&
            pdq_distance(images[a], images[b]) <= analyze::kPdqNearDuplicate)
          print_pair("pdq-only", images[a], images[b]);
    return 0;
  }
  const auto truth = read_truth(argv[2], images);
  std::printf("truth pairs %zu\n", truth.size());
  print_histograms(images, truth);
  print_scores("pHash r=8", phash_only, truth);
  for (int t : {16, 24, 31, 40, 48, 64})
    for (bool confident_only : {true, false}) {
      auto keep = [&](size_t m, size_t l) {
        if (confident_only && !both_confident(images[m], images[l])) return true;
        return pdq_distance(images[m], images[l]) <= t;
      };
      const std::string rule =
          "pHash r=8, PDQ <= " + std::to_string(t) + (confident_only ? " (quality>=50)" : " (all)");
      print_scores(rule.c_str(), grouped_pairs(grouping.leader, keep), truth);
    }
  return 0;
}
