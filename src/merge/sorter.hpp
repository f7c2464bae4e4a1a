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

// How keys are ordered within a partition: by hash (cheapest; when only grouping matters) or
// lexicographically (when the reducer's output must come out sorted by key).
enum class KeyOrder { hashed, lexicographic };

struct SpillEntry {
  uint64_t rank;    // KeyOrder: a hash of the key, or its first 8 bytes big-endian
  uint64_t offset;  // key then value, in the buffer's arena
  uint32_t partition;
  uint32_t key_size;
  uint32_t value_size;
  char tag;  // the value's first byte ('\0' when empty), so sorting never reads the arena for it
};

// The last buffer of a job, sorted but never written out.
struct MemoryRun {
  std::string arena;
  std::vector<SpillEntry> entries;
};

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
  std::filesystem::path next_file();
  void add(Run run);
  const std::vector<Run>& runs() const { return runs_; }  // after all buffers finished
  uint64_t spilled_runs() const;
  uint64_t spilled_bytes() const;
  // Deletes the run files (the in-memory runs are released too).
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

// One thread's buffer: its arena and entry list are reserved up front within `budget`
// bytes (no reallocation, so resident memory stays within it) and spilled when full. The
// arena is handed out in chunks to a few areas by key rank (locality when read in order).
class SpillBuffer {
 public:
  SpillBuffer(RunSet& runs, uint64_t budget);
  void add(std::string_view key, std::string_view value);
  // Hands the remaining entries to the RunSet: as an in-memory run, or as a file when this
  // buffer spilled before.
  void finish();

 private:
  void sort();
  void spill();
  size_t area_of(uint64_t rank) const;
  // Where a record of `size` bytes goes in `area` (spills first when the arena is full).
  uint64_t claim(size_t area, uint64_t size);

  struct Area {
    uint64_t next = 0, end = 0;  // the free part of the area's last chunk
  };
  RunSet& runs_;
  uint64_t arena_capacity_, entry_capacity_, chunk_;
  std::vector<Area> areas_;
  std::unique_ptr<MemoryRun> buffer_;
  bool spilled_ = false;
};

// Receives one partition, key by key in the RunSet's KeyOrder. A value's view is valid only
// during the call, or, when `stable` (it lies in an in-memory run), until the partition is
// merged: a reducer can then keep it without a copy.
class GroupVisitor {
 public:
  virtual ~GroupVisitor() = default;
  virtual void begin(std::string_view key) = 0;
  virtual void value(std::string_view value, bool stable) = 0;
  virtual void end() = 0;
};

void merge_partition(const RunSet& runs, size_t p, GroupVisitor& visitor);

}  // namespace strata::merge
