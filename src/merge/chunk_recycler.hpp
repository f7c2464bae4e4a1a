#pragma once
// Hands the arena chunks of one job's in-memory runs to the next job's buffers as soon as no
// reader needs them: a partition is read in rank order and a chunk holds one arena area (a
// range of ranks), so once every partition has read past an area its chunks are free. The
// next job then writes into memory that is already mapped and touched instead of taking a
// page fault per 4 KB. Readers copy what they hand on to the next job.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "merge/sorter.hpp"

namespace strata::merge {

class ChunkRecycler {
 public:
  // `runs`: a job's runs, every buffer finished.
  explicit ChunkRecycler(const RunSet& runs);
  // Whether some run's chunks may be handed on (else passed() has nothing to do).
  bool active() const { return !sources_.empty(); }
  // The reader of `partition` is done with every key ranked below `rank`.
  void passed(size_t partition, uint64_t rank);
  // The reader of `partition` is done.
  void finished(size_t partition);
  // A free chunk of `size` bytes, or nullptr.
  char* take(uint64_t size);

 private:
  struct Source {
    const MemoryRun* run;
    std::unique_ptr<std::atomic<size_t>[]> readers_left;  // per area
  };
  void pass_areas(size_t partition, size_t source, size_t end);

  std::vector<Source> sources_;
  std::vector<std::vector<size_t>> next_area_;  // [partition][source]: the first area not passed
  std::mutex mutex_;
  std::vector<char*> free_;
  uint64_t chunk_size_ = 0;
};

}  // namespace strata::merge
