#include "merge/shared_digests.hpp"

#include <algorithm>

#include "merge/key_hash.hpp"

namespace strata::merge {

void DigestSightings::note(std::string_view digest, uint64_t surt_hash) {
  if (gave_up_) return;
  pairs_.emplace_back(key_hash(digest), surt_hash);
  if (pairs_.size() >= max_pairs_) compact();
}

// Most pairs repeat (a URL is captured again and again): drop the repeats, and give up when
// that leaves little room.
void DigestSightings::compact() {
  std::sort(pairs_.begin(), pairs_.end());
  pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
  if (pairs_.size() <= max_pairs_ / 2) return;
  gave_up_ = true;
  pairs_ = {};
}

std::vector<std::pair<uint64_t, uint64_t>> DigestSightings::take() {
  std::sort(pairs_.begin(), pairs_.end());
  pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
  return std::move(pairs_);
}

SharedDigests::SharedDigests(std::vector<DigestSightings>& sightings) {
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (auto& worker : sightings) {
    if (worker.gave_up()) return;
    auto some = worker.take();
    pairs.insert(pairs.end(), some.begin(), some.end());
  }
  all_ = false;
  if (sightings.size() > 1) {
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  }
  // Sorted and distinct: a digest hash on two pairs in a row has two SURT hashes.
  for (size_t i = 1; i < pairs.size(); ++i)
    if (pairs[i].first == pairs[i - 1].first &&
        (shared_.empty() || shared_.back() != pairs[i].first))
      shared_.push_back(pairs[i].first);
}

bool SharedDigests::shared(std::string_view digest) const {
  return all_ || std::binary_search(shared_.begin(), shared_.end(), key_hash(digest));
}

}  // namespace strata::merge
