#include "similar/hamming_index.hpp"

#include <algorithm>
#include <bit>

namespace strata::similar {
namespace {

// m grows with the radius so that floor(r/m) <= 1: each table is probed at 1 + width keys,
// never the hundreds a sub-radius of 2 needs.
int tables_for(int radius) {
  return std::max(4, radius / 2 + 1);
}

// Every key of `width` bits within `radius` bits of `key`.
void keys_within(uint32_t key, int radius, int from_bit, int width, std::vector<uint32_t>& out) {
  out.push_back(key);
  if (radius == 0) return;
  for (int bit = from_bit; bit < width; ++bit)
    keys_within(key ^ (1u << bit), radius - 1, bit + 1, width, out);
}

}  // namespace

HammingIndex::HammingIndex(int radius)
    : radius_(std::clamp(radius, 0, 63)),
      sub_radius_(radius_ / tables_for(radius_)),
      tables_(tables_for(radius_)) {
  for (size_t t = 0; t < tables_.size(); ++t) {
    tables_[t].shift = static_cast<int>(t * 64 / tables_.size());
    int width = static_cast<int>((t + 1) * 64 / tables_.size()) - tables_[t].shift;
    tables_[t].mask = (uint64_t{1} << width) - 1;
    tables_[t].buckets.resize(size_t{1} << width);
  }
}

HammingIndex::HammingIndex(int radius, std::span<const uint64_t> hashes) : HammingIndex(radius) {
  for (Table& table : tables_) {
    std::vector<uint32_t> counts(table.buckets.size());
    for (uint64_t hash : hashes) ++counts[table.key(hash)];
    for (size_t b = 0; b < counts.size(); ++b) {
      table.buckets[b].hashes.reserve(counts[b]);
      table.buckets[b].entries.reserve(counts[b]);
    }
  }
  for (uint64_t hash : hashes) add(hash);
}

void HammingIndex::add(uint64_t hash) {
  for (Table& table : tables_) {
    Bucket& bucket = table.buckets[table.key(hash)];
    bucket.hashes.push_back(hash);
    bucket.entries.push_back(entries_);
  }
  ++entries_;
}

// The probed buckets are scattered over tables larger than the caches: gather them all first
// and prefetch them, so that their memory reads overlap.
void HammingIndex::probe(uint64_t hash, std::vector<const Bucket*>& probed,
                         std::vector<uint8_t>& table_of) const {
  thread_local std::vector<uint32_t> keys;
  probed.clear();
  table_of.clear();
  for (size_t t = 0; t < tables_.size(); ++t) {
    const Table& table = tables_[t];
    keys.clear();
    keys_within(table.key(hash), sub_radius_, 0, std::bit_width(table.mask), keys);
    for (uint32_t key : keys) {
      const Bucket* bucket = &table.buckets[key];
      __builtin_prefetch(bucket);
      probed.push_back(bucket);
      table_of.push_back(static_cast<uint8_t>(t));
    }
  }
  for (const Bucket* bucket : probed)
    if (!bucket->hashes.empty()) __builtin_prefetch(bucket->hashes.data());
}

// Compiled for POPCNT where the CPU has it (a table routine otherwise).
__attribute__((target_clones("popcnt", "default"))) uint32_t HammingIndex::first_within(
    uint64_t hash, const std::function<bool(uint32_t)>& accept) const {
  thread_local std::vector<const Bucket*> probed;
  thread_local std::vector<uint8_t> table_of;
  probe(hash, probed, table_of);
  uint32_t best = kNone;
  for (const Bucket* bucket : probed)
    for (size_t k = 0; k < bucket->hashes.size(); ++k) {
      // The hash first: entries are read only for the few within the radius.
      if (std::popcount(bucket->hashes[k] ^ hash) > radius_) continue;
      const uint32_t entry = bucket->entries[k];
      if (entry < best && (!accept || accept(entry))) best = entry;
    }
  return best;
}

bool HammingIndex::seen_before(uint64_t hash, uint64_t candidate, size_t table) const {
  for (size_t t = 0; t < table; ++t)
    if (std::popcount((tables_[t].key(hash) ^ tables_[t].key(candidate))) <= sub_radius_)
      return true;
  return false;
}

__attribute__((target_clones("popcnt", "default"))) std::vector<HammingIndex::Match>
HammingIndex::all_within(uint64_t hash, int radius) const {
  thread_local std::vector<const Bucket*> probed;
  thread_local std::vector<uint8_t> table_of;
  probe(hash, probed, table_of);
  const int r = std::clamp(radius, 0, radius_);
  std::vector<Match> out;
  for (size_t p = 0; p < probed.size(); ++p) {
    const Bucket& bucket = *probed[p];
    for (size_t k = 0; k < bucket.hashes.size(); ++k) {
      int distance = std::popcount(bucket.hashes[k] ^ hash);
      // An entry lies in one bucket of every table: keep it where it is first probed.
      if (distance <= r && !seen_before(hash, bucket.hashes[k], table_of[p]))
        out.push_back({bucket.entries[k], distance});
    }
  }
  std::sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.entry < b.entry;
  });
  return out;
}

}  // namespace strata::similar
