#pragma once
// Out-of-core grouping: (key, value) pairs are buffered per thread, sorted by (partition,
// key rank, key, first value byte) and spilled as runs (LZ4 files in the work dir, or kept
// in memory for the last buffer); each partition is then read back as one k-way merge, key
// by key, value by value. Within a key, values come in order of their first byte (the
// codec's type tag: captures before references) and otherwise in no particular order: the
// reducers use total orders themselves, so results never depend on threads or spilling.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace strata::merge {

// SpillBuffer::add_written: the key is not inside the value.
inline constexpr size_t kKeyApart = SIZE_MAX;

// How keys are ordered within a partition and spread over partitions: by hash (cheapest; when
// only grouping matters), or lexicographically, partitions being ranges of keys in order (when
// the reducers' outputs, one after the other, must come out sorted by key: a key's partition
// is set by its first byte, read as a hex digit, so that hex digests spread evenly over up to
// 16 partitions; other keys still go to partitions in key order, less evenly).
enum class KeyOrder { hashed, lexicographic };

struct SpillEntry {
  uint64_t rank;  // KeyOrder: a hash of the key, or its first 8 bytes big-endian
  const char* key;
  const char* value;  // in the buffer's arena (the key before it or inside it), or in an
                      // earlier in-memory run
  uint32_t partition;
  uint32_t key_size;
  uint32_t value_size;
  char tag;  // the value's first byte ('\0' when empty), so sorting never reads the arena for it
};

// Memory mapped for an arena: not zero-filled by us, and given back to the system when freed
// (malloc kept freed chunks in one thread's arena, out of reach of the next phase's threads).
struct Unmap {
  size_t size;
  void operator()(char* p) const;
};
using MappedBlock = std::unique_ptr<char, Unmap>;

// The last buffer of a job, sorted but never written out. Its bytes lie in chunks reused after
// a spill: the first touch of fresh pages was a sixth of the merge's CPU.
struct MemoryRun {
  std::vector<MappedBlock> blocks, large;  // large: one record bigger than a chunk
  std::vector<char*> chunks;  // in the order handed out: carved from blocks, or recycled
  size_t carved = 0;          // chunks carved from blocks so far
  size_t chunk_size = 0;
  std::vector<std::vector<char*>> area_chunks;  // the chunks of each arena area
  std::vector<SpillEntry> entries;
};

// Which arena area holds the records of `rank` (areas: how many the buffer had). Ranks that
// sort next to each other share an area.
inline size_t area_of_rank(uint64_t rank, size_t areas) {
  return static_cast<size_t>((rank >> 32) * areas >> 32);
}

// A sorted run. In a file: records [u32 value size][u32 key size][u64 rank][key][value], where
// a record with the previous record's key has key size UINT32_MAX and neither rank nor key;
// partition p the LZ4 frame at bytes [offsets[p], offsets[p+1]). In memory: partition p
// is entries [offsets[p], offsets[p+1]).
struct Run {
  std::filesystem::path file;
  std::shared_ptr<const MemoryRun> memory;
  std::vector<uint64_t> offsets;
};

// Runs written by every buffer of one job.
class RunSet {
 public:
  RunSet(std::filesystem::path dir, std::string name, size_t partitions, KeyOrder order)
      : dir_(std::move(dir)), name_(std::move(name)), partitions_(partitions), order_(order) {}
  size_t partitions() const { return partitions_; }
  // Where a key goes: its rank (SpillEntry::rank) and partition.
  struct Place {
    uint64_t rank;
    uint32_t partition;
  };
  Place place(std::string_view key) const;
  // The same, for a caller that has the key's key_hash already (phase 1 hashes each capture's
  // SURT for the digest sightings too).
  Place place(std::string_view key, uint64_t hash) const;
  std::filesystem::path next_file();
  void add(Run run);
  const std::vector<Run>& runs() const { return runs_; }  // after all buffers finished
  uint64_t spilled_runs() const;
  uint64_t spilled_bytes() const;
  // Deletes the run files; the in-memory runs stay (a later job's runs may point into them).
  void remove_files();
  // Deletes the run files and releases the in-memory runs.
  void clear();

 private:
  std::filesystem::path dir_;
  std::string name_;
  size_t partitions_;
  KeyOrder order_;
  mutable std::mutex mutex_;
  size_t files_ = 0;
  std::vector<Run> runs_;
};

// One thread's buffer: its entry list is reserved up front and its arena grows by chunks,
// both within `budget` bytes, and it spills when full. The arena's chunks are handed out to
// a few areas by key rank (locality when read in order).
class ChunkRecycler;

class SpillBuffer {
 public:
  // `recycler` (may be null): where chunks of an earlier job's arena are taken from before new
  // memory is mapped.
  SpillBuffer(RunSet& runs, uint64_t budget, ChunkRecycler* recycler = nullptr);
  // A key equal to the previous one is stored once (job 2 gets many values per key in a row).
  void add(std::string_view key, std::string_view value);
  // Adds a value of `size` bytes that `write(char*)` puts in place (no staging copy), under
  // `key` at `place` (RunSet::place). When the value holds the key at byte `key_at` (phase 1's
  // records start with their SURT), the key is not stored beside it.
  template <typename Write>
  void add_written(RunSet::Place place, std::string_view key, size_t size, Write&& write,
                   size_t key_at = kKeyApart) {
    Slot slot = claim_record(place, key, size, key_at != kKeyApart);
    write(slot.value);
    if (key_at != kKeyApart) slot.key = keep_key(slot.value + key_at, key.size());
    add_entry(slot, key, {slot.value, size});
  }
  // Adds a value of a size not known beforehand, which holds the key at byte `key_at`:
  // `write(char* out, size_t room)` writes it into `room` bytes and returns its size, or 0
  // when it needs more room (it is then called again with more). Phase 1 encodes each record
  // once instead of sizing it first.
  template <typename Write>
  void add_unsized(RunSet::Place place, std::string_view key, Write&& write, size_t key_at) {
    size_t area = start_record(place);
    char* value = free_part(area, 0);
    size_t size;
    while ((size = write(value, free_bytes(area))) == 0)
      value = free_part(area, 2 * free_bytes(area) + 1);
    claim(area, size);  // the bytes just written: they fit in the free part
    add_entry({place, keep_key(value + key_at, key.size()), value}, key, {value, size});
  }
  // Hands the remaining entries to the RunSet: as an in-memory run, or as a file when this
  // buffer spilled before.
  void finish();

 private:
  // Where a record goes: its key's place, its stored key, and room for its value.
  struct Slot {
    RunSet::Place place;
    const char* key;
    char* value;
  };
  // Stores the key (unless it repeats the last one or lies in the value) and claims
  // `value_size` bytes after it.
  Slot claim_record(RunSet::Place place, std::string_view key, size_t value_size,
                    bool key_in_value);
  // The key at `key`, stored: the next record with the same key points at it.
  const char* keep_key(const char* key, size_t size) {
    last_key_ = {key, size};
    return key;
  }
  // Makes sure there is a buffer; the area of `place`'s records.
  size_t start_record(RunSet::Place place);
  // The free part of `area`'s last chunk, after a new chunk when it has fewer than `at_least`
  // bytes.
  char* free_part(size_t area, uint64_t at_least);
  size_t free_bytes(size_t area) const {
    return static_cast<size_t>(areas_[area].end - areas_[area].next);
  }
  void add_entry(const Slot& slot, std::string_view key, std::string_view value);
  void prefault_entries();
  void sort();
  void spill();
  size_t area_of(uint64_t rank) const;
  // Where `size` bytes go in `area`; sets full_ when the arena has no room for another chunk.
  char* claim(size_t area, uint64_t size);
  char* next_chunk();
  char* carve_chunk();
  // Forgets the buffered records; the chunks are kept for the next ones.
  void empty();

  struct Area {
    char *next = nullptr, *end = nullptr;  // the free part of the area's last chunk
  };
  RunSet& runs_;
  ChunkRecycler* recycler_;
  uint64_t arena_capacity_, entry_capacity_, chunk_;
  std::vector<Area> areas_;
  std::unique_ptr<MemoryRun> buffer_;
  uint64_t arena_used_ = 0;        // bytes of chunks handed out since the last spill
  size_t chunks_used_ = 0;         // of buffer_->chunks
  size_t entries_prefaulted_ = 0;  // how many of buffer_->entries are faulted in
  std::string_view last_key_;      // the last key stored in the arena
  bool full_ = false;
  bool spilled_ = false;
};

// Receives one partition, key by key in the RunSet's KeyOrder. A value's view is valid only
// during the call, or, when `stable` (it lies in an in-memory run), until the reader has
// passed its key (a ChunkRecycler may then hand its memory on; without one, as long as the
// RunSet keeps its runs): a reducer can keep it for the key's group without a copy.
class GroupVisitor {
 public:
  virtual ~GroupVisitor() = default;
  virtual void begin(std::string_view key) = 0;
  virtual void value(std::string_view value, bool stable) = 0;
  virtual void end() = 0;
};

void merge_partition(const RunSet& runs, size_t p, GroupVisitor& visitor);

}  // namespace strata::merge
