#include "merge/chunk_recycler.hpp"

namespace strata::merge {

ChunkRecycler::ChunkRecycler(const RunSet& runs) {
  for (const auto& run : runs.runs()) {
    // Every buffer of a job has the same chunk size; a run of another size is left alone.
    if (!run.memory || (chunk_size_ && run.memory->chunk_size != chunk_size_)) continue;
    size_t areas = run.memory->area_chunks.size();
    Source source{run.memory.get(), std::make_unique<std::atomic<size_t>[]>(areas)};
    for (size_t a = 0; a < areas; ++a) source.readers_left[a] = runs.partitions();
    chunk_size_ = run.memory->chunk_size;
    sources_.push_back(std::move(source));
  }
  next_area_.assign(runs.partitions(), std::vector<size_t>(sources_.size(), 0));
}

void ChunkRecycler::passed(size_t partition, uint64_t rank) {
  for (size_t s = 0; s < sources_.size(); ++s)
    pass_areas(partition, s, area_of_rank(rank, sources_[s].run->area_chunks.size()));
}

void ChunkRecycler::finished(size_t partition) {
  for (size_t s = 0; s < sources_.size(); ++s)
    pass_areas(partition, s, sources_[s].run->area_chunks.size());
}

void ChunkRecycler::pass_areas(size_t partition, size_t s, size_t end) {
  size_t& next = next_area_[partition][s];
  for (; next < end; ++next) {
    if (--sources_[s].readers_left[next] != 0) continue;
    const auto& chunks = sources_[s].run->area_chunks[next];
    std::lock_guard lock(mutex_);
    free_.insert(free_.end(), chunks.begin(), chunks.end());
  }
}

char* ChunkRecycler::take(uint64_t size) {
  if (size != chunk_size_) return nullptr;
  std::lock_guard lock(mutex_);
  if (free_.empty()) return nullptr;
  char* chunk = free_.back();
  free_.pop_back();
  return chunk;
}

}  // namespace strata::merge
