#pragma once
// Exact Hamming range search over 64-bit hashes by multi-index hashing (Norouzi, Punjani,
// Fleet 2012; docs/near-duplicates.md): the 64 bits are cut into m substrings, m =
// max(4, radius/2 + 1), so that two hashes within the radius share one substring within one
// bit; each table is probed at 1 + width keys and the candidates are checked with POPCNT.
// Entries are numbered in the order they are added. Exact: no entry within the radius is
// missed, none beyond is returned, none twice.
//
// Failure contract: never throws (beyond std::bad_alloc). Lookups may run on several threads
// while no entry is being added. Memory: 12 bytes per entry and table (5 tables at radius 8).
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

namespace strata::similar {

class HammingIndex {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  struct Match {
    uint32_t entry = 0;
    int distance = 0;
    bool operator==(const Match&) const = default;
  };

  // `radius` (clamped to [0, 63]): the largest distance any lookup may ask for.
  explicit HammingIndex(int radius);
  // All of `hashes` at once, numbered by position (buckets sized exactly: no growth slack).
  HammingIndex(int radius, std::span<const uint64_t> hashes);

  // Adds `hash` as the next entry.
  void add(uint64_t hash);
  uint32_t size() const { return entries_; }
  int radius() const { return radius_; }

  // The lowest-numbered entry within the radius of `hash` (and, with `accept`, for which
  // accept(entry) is true), or kNone.
  uint32_t first_within(uint64_t hash, const std::function<bool(uint32_t)>& accept = nullptr) const;
  // Every entry within `radius` (clamped to [0, radius()]) of `hash`, by distance, then number.
  std::vector<Match> all_within(uint64_t hash, int radius) const;

 private:
  struct Bucket {
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> entries;
  };
  struct Table {
    int shift = 0;
    uint64_t mask = 0;
    std::vector<Bucket> buckets;
    uint32_t key(uint64_t hash) const { return static_cast<uint32_t>((hash >> shift) & mask); }
  };
  // The buckets a lookup of `hash` reads, per table, prefetched.
  void probe(uint64_t hash, std::vector<const Bucket*>& probed,
             std::vector<uint8_t>& table_of) const;
  // True when `candidate` is found through an earlier table than `table` too (dropped there).
  bool seen_before(uint64_t hash, uint64_t candidate, size_t table) const;

  int radius_, sub_radius_;
  uint32_t entries_ = 0;
  std::vector<Table> tables_;
};

}  // namespace strata::similar
