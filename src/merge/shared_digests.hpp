#pragma once
// Which image digests occur under more than one SURT. Most images have one URL: for a digest
// found under one SURT only, that SURT's job-1 group is the digest's whole job-2 group, so
// job 1 builds its documents itself and only the shared digests go through job 2
// (pipeline.cpp; docs/merge.md "Scale").
// Phase 1 notes every capture's (digest, SURT) pair as two 64-bit hashes (key_hash, 16
// bytes a capture); a digest hash seen with two SURT hashes is shared. Two digests with one
// hash both count as shared (job 2 is right for any digest). Two SURTs of one digest with
// one 64-bit hash would make the digest look unshared: not detected, taken as never
// happening.
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "merge/key_hash.hpp"

namespace strata::merge {

// One phase-1 worker's (digest, SURT) pairs. Beyond `max_pairs` distinct pairs it gives up,
// and every digest then counts as shared (bounded memory for inputs of any size).
class DigestSightings {
 public:
  explicit DigestSightings(size_t max_pairs) : max_pairs_(max_pairs) {}
  void note(std::string_view digest, std::string_view surt) { note(digest, key_hash(surt)); }
  // The same with the SURT's key_hash (phase 1 hashes each SURT once, for its sorter place too).
  void note(std::string_view digest, uint64_t surt_hash);
  bool gave_up() const { return gave_up_; }
  // Sorted distinct (digest hash, SURT hash) pairs; empties this.
  std::vector<std::pair<uint64_t, uint64_t>> take();

 private:
  void compact();

  size_t max_pairs_;
  std::vector<std::pair<uint64_t, uint64_t>> pairs_;
  bool gave_up_ = false;
};

class SharedDigests {
 public:
  // Every digest shared: job 2 builds every document.
  SharedDigests() = default;
  // From every worker's sightings (all shared when one gave up).
  explicit SharedDigests(std::vector<DigestSightings>& sightings);
  bool shared(std::string_view digest) const;

 private:
  bool all_ = true;
  std::vector<uint64_t> shared_;  // digest hashes, sorted
};

}  // namespace strata::merge
