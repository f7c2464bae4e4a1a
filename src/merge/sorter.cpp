#include "merge/sorter.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "merge/chunk_recycler.hpp"
#include "merge/key_hash.hpp"
#include "merge/run_file.hpp"

namespace strata::merge {
namespace {

// In a run file, a record whose key is the previous record's stores neither rank nor key.
constexpr uint32_t kSameKey = UINT32_MAX;

std::string_view key_of(const SpillEntry& e) {
  return {e.key, e.key_size};
}

std::string_view value_of(const SpillEntry& e) {
  return {e.value, e.value_size};
}

// The order of runs and of the k-way merge: rank first, so most comparisons are one integer
// compare; the value's first byte last, so captures come before references.
int compare(uint64_t rank_a, std::string_view key_a, char tag_a, uint64_t rank_b,
            std::string_view key_b, char tag_b) {
  if (rank_a != rank_b) return rank_a < rank_b ? -1 : 1;
  if (int c = key_a.compare(key_b)) return c;
  return tag_a == tag_b ? 0 : (tag_a < tag_b ? -1 : 1);
}

// Sorted entries point all over the arena: asking for a record's first cache lines a few
// entries ahead hides most of the misses of walking them in order.
constexpr size_t kPrefetchDistance = 8;

void prefetch(const MemoryRun& run, size_t i, size_t end) {
  if (i >= end) return;
  const SpillEntry& e = run.entries[i];
  __builtin_prefetch(e.key);
  for (uint32_t line = 0; line < e.value_size; line += 64) __builtin_prefetch(e.value + line);
}

// The order within one radix bucket, whose entries all have the same partition: an inlined
// object (a function pointer was called for every comparison).
struct RankBefore {
  bool operator()(const SpillEntry& a, const SpillEntry& b) const {
    return a.rank != b.rank ? a.rank < b.rank : a.tag < b.tag;
  }
};

// One in-place radix pass (American flag sort): moves [first, last) into `buckets` buckets by
// bucket_of(entry) and returns where each bucket ends.
template <typename BucketOf>
std::vector<size_t> radix_pass(SpillEntry* first, SpillEntry* last, size_t buckets,
                               BucketOf bucket_of) {
  std::vector<size_t> next(buckets + 1, 0), end(buckets);
  for (const SpillEntry* e = first; e != last; ++e) ++next[bucket_of(*e) + 1];
  for (size_t b = 0; b < buckets; ++b) end[b] = next[b + 1] += next[b];
  for (size_t b = 0; b < buckets; ++b) {
    // Each swap puts one entry into its bucket for good.
    while (next[b] < end[b]) {
      SpillEntry& e = first[next[b]];
      size_t to = bucket_of(e);
      if (to == b)
        ++next[b];
      else
        std::swap(e, first[next[to]++]);
    }
  }
  return end;
}

// At most 2^8 buckets a pass: the places a pass writes to (one cache line each) stay in the
// L1/L2 caches (a microbenchmark of 1M entries: 2^8 1.25x faster than std::sort, 2^10 even,
// 2^12 and more slower, every swap a cache miss).
constexpr int kRadixBits = 8;
// Below this many entries std::sort (an insertion sort at this size) beats another pass: 16
// took fewer instructions than 64 or 8.
constexpr size_t kSmallBucket = 16;

// How many rank bits one pass over `n` entries sorts on: about n / kSmallBucket buckets (the
// others would be empty, and every bucket costs a few steps per pass).
int radix_bits(size_t n) {
  return std::clamp(static_cast<int>(std::bit_width(n / kSmallBucket)), 1, kRadixBits);
}

// The rank bits that are not the same in all of [first, last).
uint64_t differing_bits(const SpillEntry* first, const SpillEntry* last) {
  uint64_t differing = 0;
  for (const SpillEntry* e = first; e != last; ++e) differing |= e->rank ^ first->rank;
  return differing;
}

// Sorts entries of one partition by (rank, tag): radix passes on the top bits in which their
// ranks differ while a bucket is large (it fits in the caches after the first pass), std::sort
// below. Skipping the bits all entries share matters for runs of one key (one rank: 7 passes of
// 256 buckets each for nothing) and for job 2's ranks (key bytes: hex digits).
void sort_bucket(SpillEntry* first, SpillEntry* last) {
  size_t n = static_cast<size_t>(last - first);
  int width = n <= kSmallBucket ? 0 : static_cast<int>(std::bit_width(differing_bits(first, last)));
  if (width == 0) return std::sort(first, last, RankBefore{});
  int bits = std::min(radix_bits(n), width);
  int shift = width - bits;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  auto end = radix_pass(first, last, size_t{1} << bits,
                        [&](const SpillEntry& e) { return (e.rank >> shift) & mask; });
  for (size_t b = 0, begin = 0; b < end.size(); begin = end[b++])
    if (end[b] - begin > 1) sort_bucket(first + begin, first + end[b]);
}

// Orders entries by (partition, rank, tag): a radix pass into buckets by partition and the
// top bits in which their ranks differ, then each bucket on its own. std::sort's log n
// passes over all entries were ~8% of the merge.
void sort_by_rank(std::vector<SpillEntry>& entries) {
  if (entries.size() < 2) return;
  SpillEntry* first = entries.data();
  SpillEntry* last = first + entries.size();
  uint32_t partitions = 0;
  for (const auto& e : entries) partitions = std::max(partitions, e.partition + 1);
  int bits = radix_bits(entries.size());
  int shift = std::max(0, static_cast<int>(std::bit_width(differing_bits(first, last))) - bits);
  uint64_t mask = (uint64_t{1} << bits) - 1;
  auto end = radix_pass(first, last, size_t{partitions} << bits, [&](const SpillEntry& e) {
    return (static_cast<size_t>(e.partition) << bits) | ((e.rank >> shift) & mask);
  });
  for (size_t b = 0, begin = 0; b < end.size(); begin = end[b++])
    if (end[b] - begin > 1) sort_bucket(first + begin, first + end[b]);
}

// The first 8 bytes of `key` (zeros past its end) as a big-endian integer: integers in the
// order of the keys (one load and a byte swap, not a loop over the bytes).
uint64_t prefix_of(std::string_view key) {
  char bytes[8] = {};
  std::memcpy(bytes, key.data(), std::min(key.size(), sizeof bytes));
  uint64_t prefix;
  std::memcpy(&prefix, bytes, sizeof prefix);
  return std::endian::native == std::endian::little ? __builtin_bswap64(prefix) : prefix;
}

}  // namespace

void Unmap::operator()(char* p) const {
  munmap(p, size);
}

RunSet::Place RunSet::place(std::string_view key) const {
  // Sorted partitions need no hash.
  return place(key, order_ == KeyOrder::hashed ? key_hash(key) : 0);
}

namespace {

// A byte as a hex digit, 0-15, never smaller for a larger byte (bytes between or beyond the
// digits get their neighbours' values): key ranges in order map to partitions in order.
uint32_t hex_rank(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte < '0') return 0;
  if (byte <= '9') return byte - '0';
  if (byte < 'a') return 10;
  if (byte <= 'f') return byte - 'a' + 10;
  return 15;
}

}  // namespace

RunSet::Place RunSet::place(std::string_view key, uint64_t hash) const {
  if (order_ == KeyOrder::hashed)
    return {hash, partitions_ <= 1 ? 0 : static_cast<uint32_t>(hash % partitions_)};
  uint32_t range = key.empty() ? 0 : hex_rank(key[0]) * static_cast<uint32_t>(partitions_) / 16;
  return {prefix_of(key), range};
}

std::filesystem::path RunSet::next_file() {
  std::lock_guard lock(mutex_);
  return dir_ / (name_ + "-" + std::to_string(files_++) + ".run");
}

void RunSet::add(Run run) {
  std::lock_guard lock(mutex_);
  runs_.push_back(std::move(run));
}

uint64_t RunSet::spilled_runs() const {
  std::lock_guard lock(mutex_);
  return std::count_if(runs_.begin(), runs_.end(), [](const Run& r) { return !r.memory; });
}

uint64_t RunSet::spilled_bytes() const {
  std::lock_guard lock(mutex_);
  uint64_t bytes = 0;
  for (const auto& run : runs_)
    if (!run.memory) bytes += run.offsets.back();
  return bytes;
}

void RunSet::remove_files() {
  std::lock_guard lock(mutex_);
  for (const auto& run : runs_) {
    std::error_code ignored;
    if (!run.memory) std::filesystem::remove(run.file, ignored);
  }
}

void RunSet::clear() {
  remove_files();
  std::lock_guard lock(mutex_);
  runs_.clear();
}

namespace {

// Arena chunks: at most this big, and small enough that the chunks left part-filled (one per
// area) waste at most 1/16 of the arena.
constexpr uint64_t kMaxChunk = 64 << 10;
constexpr uint64_t kMaxAreas = 256;
// Chunks are mapped this many at a time (2 MB blocks: few mappings and system calls).
constexpr uint64_t kChunksPerBlock = 32;
// Entries faulted in at a time (2 MB).
constexpr size_t kEntriesPrefaulted = (2 << 20) / sizeof(SpillEntry);

MappedBlock map_block(size_t size, int flags = 0) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return MappedBlock(static_cast<char*>(p), Unmap{size});
}

}  // namespace

SpillBuffer::SpillBuffer(RunSet& runs, uint64_t budget, ChunkRecycler* recycler)
    : runs_(runs),
      recycler_(recycler),
      arena_capacity_(budget / 4 * 3),
      entry_capacity_(std::max<uint64_t>(1, budget / 4 / sizeof(SpillEntry))),
      chunk_(std::clamp<uint64_t>(arena_capacity_ / 64, 1, kMaxChunk)),
      areas_(std::clamp<uint64_t>(arena_capacity_ / 16 / chunk_, 1, kMaxAreas)) {}

void SpillBuffer::add(std::string_view key, std::string_view value) {
  add_written(runs_.place(key), key, value.size(),
              [&](char* out) { std::memcpy(out, value.data(), value.size()); });
}

size_t SpillBuffer::start_record(RunSet::Place place) {
  if (!buffer_) {
    buffer_ = std::make_unique<MemoryRun>();
    buffer_->entries.reserve(entry_capacity_);
    entries_prefaulted_ = 0;
    buffer_->chunk_size = chunk_;
    buffer_->area_chunks.resize(areas_.size());
  }
  return area_of(place.rank);
}

SpillBuffer::Slot SpillBuffer::claim_record(RunSet::Place place, std::string_view key,
                                            size_t value_size, bool key_in_value) {
  size_t area = start_record(place);
  if (key_in_value) return {place, nullptr, claim(area, value_size)};
  bool new_key = last_key_.data() == nullptr || key != last_key_;
  char* bytes = claim(area, (new_key ? key.size() : 0) + value_size);
  if (!new_key) return {place, last_key_.data(), bytes};
  std::memcpy(bytes, key.data(), key.size());
  return {place, keep_key(bytes, key.size()), bytes + key.size()};
}

void SpillBuffer::add_entry(const Slot& slot, std::string_view key, std::string_view value) {
  if (buffer_->entries.size() == entries_prefaulted_) prefault_entries();
  buffer_->entries.push_back({slot.place.rank, slot.key, value.data(), slot.place.partition,
                              static_cast<uint32_t>(key.size()),
                              static_cast<uint32_t>(value.size()),
                              value.empty() ? '\0' : value[0]});
  if (full_ || buffer_->entries.size() >= entry_capacity_) spill();
}

// The entry list is reserved up front and written as it fills: its next pages are faulted in
// a few MB at a time, one system call instead of a page fault per 4 KB (a hint: a kernel
// without MADV_POPULATE_WRITE faults them in one by one, as before).
void SpillBuffer::prefault_entries() {
  const auto& entries = buffer_->entries;
  auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t from =
      (reinterpret_cast<uintptr_t>(entries.data() + entries.size()) + page - 1) & -page;
  entries_prefaulted_ = std::min(entries.capacity(), entries.size() + kEntriesPrefaulted);
  uintptr_t to = reinterpret_cast<uintptr_t>(entries.data() + entries_prefaulted_) & -page;
  if (from < to) madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
}

// Ranks that sort next to each other share their top bits, and so their area: a run read in
// order walks one area at a time (a few hundred KB to a few MB) instead of missing the TLB on
// every record across the whole arena (prefetching did not hide those misses on this VM).
size_t SpillBuffer::area_of(uint64_t rank) const {
  return area_of_rank(rank, areas_.size());
}

char* SpillBuffer::claim(size_t area, uint64_t size) {
  Area& free = areas_[area];
  if (static_cast<uint64_t>(free.end - free.next) < size) {
    uint64_t grow = std::max(chunk_, size);
    arena_used_ += grow;
    full_ =
        arena_used_ + chunk_ > arena_capacity_;  // no further chunk fits: spill after this record
    char* chunk = grow > chunk_ ? buffer_->large.emplace_back(map_block(grow)).get() : next_chunk();
    if (grow == chunk_) buffer_->area_chunks[area].push_back(chunk);
    free = {chunk, chunk + grow};
  }
  free.next += size;
  return free.next - size;
}

char* SpillBuffer::free_part(size_t area, uint64_t at_least) {
  if (free_bytes(area) < at_least) {
    claim(area, at_least);  // takes a new chunk (or a block of its own), then gives it back
    areas_[area].next -= at_least;
  }
  return areas_[area].next;
}

// A chunk kept from before the last spill, else one an earlier job is done with, else a new
// one (never zero-filled here: every byte handed out is written before it is read).
char* SpillBuffer::next_chunk() {
  auto& chunks = buffer_->chunks;
  if (chunks_used_ == chunks.size()) {
    char* recycled = recycler_ ? recycler_->take(chunk_) : nullptr;
    chunks.push_back(recycled ? recycled : carve_chunk());
  }
  return chunks[chunks_used_++];
}

char* SpillBuffer::carve_chunk() {
  auto& blocks = buffer_->blocks;
  size_t block = buffer_->carved / kChunksPerBlock, at = buffer_->carved % kChunksPerBlock;
  // Faulted in by mmap itself, 2 MB per system call instead of a page fault per 4 KB (at 1M
  // records 86.6k page faults -> 16.4k, system time 0.42 -> 0.31 s); the unused end of each area's
  // last chunk is touched too (+3 MB of RSS at 300k records).
  if (block == blocks.size()) blocks.push_back(map_block(chunk_ * kChunksPerBlock, MAP_POPULATE));
  ++buffer_->carved;
  return blocks[block].get() + at * chunk_;
}

void SpillBuffer::empty() {
  buffer_->entries.clear();
  buffer_->large.clear();
  for (auto& chunks : buffer_->area_chunks) chunks.clear();
  chunks_used_ = 0;
  arena_used_ = 0;
  full_ = false;
  last_key_ = {};
  std::fill(areas_.begin(), areas_.end(), Area{});
}

void SpillBuffer::sort() {
  const MemoryRun& run = *buffer_;
  auto& entries = buffer_->entries;
  // Integers first. Equal ranks almost always mean equal keys, so the keys (in the arena: a
  // cache miss each) are compared once per entry afterwards, and only a range of entries
  // whose ranks collide is sorted again by the full order.
  sort_by_rank(entries);
  for (size_t i = 0, j; i < entries.size(); i = j) {
    bool one_key = true;
    for (j = i + 1; j < entries.size() && entries[j].partition == entries[i].partition &&
                    entries[j].rank == entries[i].rank;
         ++j) {
      prefetch(run, j + kPrefetchDistance, entries.size());
      one_key = one_key && key_of(entries[j]) == key_of(entries[i]);
    }
    if (!one_key)
      std::sort(entries.begin() + static_cast<std::ptrdiff_t>(i),
                entries.begin() + static_cast<std::ptrdiff_t>(j),
                [&run](const SpillEntry& a, const SpillEntry& b) {
                  return compare(a.rank, key_of(a), a.tag, b.rank, key_of(b), b.tag) < 0;
                });
  }
}

void SpillBuffer::spill() {
  sort();
  Run run;
  run.file = runs_.next_file();
  RunFileWriter writer(run.file);
  run.offsets.assign(runs_.partitions() + 1, 0);
  const MemoryRun& memory = *buffer_;
  const auto& entries = memory.entries;
  size_t e = 0;
  for (size_t p = 0; p < runs_.partitions(); ++p) {
    const SpillEntry* previous = nullptr;
    for (; e < entries.size() && entries[e].partition == p; ++e) {
      const SpillEntry& entry = entries[e];
      prefetch(memory, e + kPrefetchDistance, entries.size());
      bool same_key =
          previous && previous->rank == entry.rank && key_of(*previous) == key_of(entry);
      uint32_t sizes[2] = {entry.value_size, same_key ? kSameKey : entry.key_size};
      writer.write({reinterpret_cast<const char*>(sizes), sizeof sizes});
      if (!same_key) {
        writer.write({reinterpret_cast<const char*>(&entry.rank), sizeof entry.rank});
        writer.write(key_of(entry));
      }
      writer.write(value_of(entry));
      previous = &entry;
    }
    run.offsets[p + 1] = writer.end_frame();
  }
  writer.close();
  runs_.add(std::move(run));
  spilled_ = true;
  empty();
}

void SpillBuffer::finish() {
  if (!buffer_ || buffer_->entries.empty()) return;
  // A buffer that spilled before belongs to a large input: its memory is worth more to the
  // next phase than one file less.
  if (spilled_) return spill();
  sort();
  Run run;
  run.offsets.assign(runs_.partitions() + 1, 0);
  const auto& entries = buffer_->entries;
  for (size_t p = 0, e = 0; p < runs_.partitions(); ++p) {
    while (e < entries.size() && entries[e].partition == p) ++e;
    run.offsets[p + 1] = e;
  }
  run.memory = std::move(buffer_);
  runs_.add(std::move(run));
}

namespace {

// Reads one partition of one run, record by record.
class Cursor {
 public:
  Cursor(const Run& run, size_t p) : memory_(run.memory.get()) {
    pos_ = run.offsets[p], end_ = run.offsets[p + 1];
    if (!memory_) file_ = std::make_unique<RunFileReader>(run.file, pos_, end_);
  }
  bool next() { return memory_ ? next_in_memory() : next_in_file(); }
  // Whether value() stays valid after next() (it then points into an in-memory run).
  bool stable() const { return memory_ != nullptr; }
  uint64_t rank() const { return rank_; }
  std::string_view key() const { return key_; }
  std::string_view value() const { return value_; }
  char tag() const { return value_.empty() ? '\0' : value_[0]; }

 private:
  bool next_in_memory() {
    if (pos_ >= end_) return false;
    const SpillEntry& e = memory_->entries[pos_++];
    prefetch(*memory_, pos_ + kPrefetchDistance, end_);
    rank_ = e.rank;
    key_ = key_of(e);
    value_ = value_of(e);
    return true;
  }
  bool next_in_file() {
    if (file_->at_end()) return false;
    uint32_t sizes[2];  // value size, key size or kSameKey
    file_->read(reinterpret_cast<char*>(sizes), sizeof sizes);
    if (sizes[1] != kSameKey) {
      file_->read(reinterpret_cast<char*>(&rank_), sizeof rank_);
      key_buffer_.resize(sizes[1]);
      file_->read(key_buffer_.data(), key_buffer_.size());
    }
    value_buffer_.resize(sizes[0]);
    file_->read(value_buffer_.data(), value_buffer_.size());
    key_ = key_buffer_;
    value_ = value_buffer_;
    return true;
  }

  const MemoryRun* memory_;
  std::unique_ptr<RunFileReader> file_;
  uint64_t pos_, end_;
  std::string key_buffer_, value_buffer_;
  uint64_t rank_ = 0;
  std::string_view key_, value_;
};

}  // namespace

void merge_partition(const RunSet& runs, size_t p, GroupVisitor& visitor) {
  std::vector<std::unique_ptr<Cursor>> cursors;
  for (const auto& run : runs.runs())
    if (run.offsets[p] < run.offsets[p + 1]) cursors.push_back(std::make_unique<Cursor>(run, p));
  auto greater = [&](size_t a, size_t b) {
    const Cursor& x = *cursors[a];
    const Cursor& y = *cursors[b];
    int c = compare(x.rank(), x.key(), x.tag(), y.rank(), y.key(), y.tag());
    return c != 0 ? c > 0 : a > b;
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(greater)> heap(greater);
  for (size_t i = 0; i < cursors.size(); ++i)
    if (cursors[i]->next()) heap.push(i);
  std::string key;
  uint64_t rank = 0;
  bool open = false;
  while (!heap.empty()) {
    size_t i = heap.top();
    heap.pop();
    Cursor& cursor = *cursors[i];
    // The cursor is read on while its records come before every other cursor's (the order the
    // heap would give): a single run, the in-memory case, never touches the heap again.
    bool more;
    do {
      if (!open || cursor.rank() != rank || cursor.key() != key) {
        if (open) visitor.end();
        open = true;
        rank = cursor.rank();
        key.assign(cursor.key());
        visitor.begin(key);
      }
      visitor.value(cursor.value(), cursor.stable());
      more = cursor.next();
    } while (more && (heap.empty() || greater(heap.top(), i)));
    if (more) heap.push(i);
  }
  if (open) visitor.end();
}

}  // namespace strata::merge
