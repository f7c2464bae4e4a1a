#pragma once
// Out-of-core grouping: (key, value) pairs are buffered per thread, sorted by (partition,
// key) and spilled as runs (files in the work dir, or kept in memory for the last buffer);
// each partition is then read back as one k-way merge, group by group. The order of values
// within a group is unspecified: the reducers sort them by total orders themselves, so
// results never depend on thread count or spilling.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace strata::merge {

// A sorted run: records laid out as [u32 key size][u32 value size][key][value], partition p
// occupying bytes [offsets[p], offsets[p+1]). In a file, or in `memory`.
struct Run {
  std::filesystem::path file;
  std::shared_ptr<const std::string> memory;
  std::vector<uint64_t> offsets;
};

// Runs written by every buffer of one job.
class RunSet {
 public:
  RunSet(std::filesystem::path dir, std::string name, size_t partitions)
      : dir_(std::move(dir)), name_(std::move(name)), partitions_(partitions) {}
  size_t partitions() const { return partitions_; }
  std::filesystem::path next_file();
  void add(Run run);
  const std::vector<Run>& runs() const { return runs_; }  // after all buffers finished
  uint64_t spilled_runs() const;
  // Deletes the run files (the in-memory runs are released too).
  void clear();

 private:
  std::filesystem::path dir_;
  std::string name_;
  size_t partitions_;
  mutable std::mutex mutex_;
  size_t files_ = 0;
  std::vector<Run> runs_;
};

// One thread's buffer: spills to a file run when it holds more than `budget` bytes.
class SpillBuffer {
 public:
  SpillBuffer(RunSet& runs, uint64_t budget) : runs_(runs), budget_(budget) {}
  void add(std::string_view key, std::string_view value);
  // Hands the remaining entries to the RunSet as an in-memory run.
  void finish();

 private:
  struct Entry {
    uint32_t partition;
    uint32_t key_size;
    uint32_t value_size;
    uint64_t offset;  // key then value, in arena_
    uint64_t prefix;  // key_prefix(key)
  };
  void flush(bool to_file);
  std::string serialize(std::vector<uint64_t>& offsets) const;

  RunSet& runs_;
  uint64_t budget_;
  std::string arena_;
  std::vector<Entry> entries_;
};

// Calls `on_group(key, values)` for every key of partition `p`, in key order.
using GroupHandler =
    std::function<void(std::string_view key, const std::vector<std::string_view>& values)>;
void merge_partition(const RunSet& runs, size_t p, const GroupHandler& on_group);

uint64_t key_prefix(std::string_view key);

// Stable partition of a key (FNV-1a), the same on every platform.
size_t partition_of(std::string_view key, size_t partitions);

}  // namespace strata::merge
