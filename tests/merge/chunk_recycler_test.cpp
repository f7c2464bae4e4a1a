#include "merge/chunk_recycler.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "testing/shared_data.hpp"

namespace strata::merge {
namespace {

std::filesystem::path runs_dir() {
  auto dir = strata::testing::scratch_dir() / "runs";
  std::filesystem::create_directories(dir);
  return dir;
}

// A job's runs over two partitions, records spread over every arena area.
void fill(RunSet& runs, uint64_t budget) {
  SpillBuffer buffer(runs, budget);
  for (int i = 0; i < 20000; ++i) buffer.add("key" + std::to_string(i), std::string(100, 'v'));
  buffer.finish();
}

TEST(ChunkRecycler, HandsOnAnAreaOnlyWhenEveryPartitionHasPassedIt) {
  RunSet runs(runs_dir(), "c", 2, KeyOrder::hashed);
  fill(runs, uint64_t{64} << 20);
  ASSERT_EQ(runs.spilled_runs(), 0u);
  const MemoryRun& run = *runs.runs()[0].memory;
  std::set<char*> chunks;
  for (const auto& area : run.area_chunks) chunks.insert(area.begin(), area.end());
  ASSERT_GT(run.area_chunks.size(), 2u);

  ChunkRecycler recycler(runs);
  EXPECT_TRUE(recycler.active());
  EXPECT_EQ(recycler.take(run.chunk_size), nullptr);
  recycler.passed(0, UINT64_MAX);  // partition 0 has read everything but the last area
  EXPECT_EQ(recycler.take(run.chunk_size), nullptr);
  recycler.passed(1, uint64_t{1} << 63);  // partition 1 has read the lower half
  std::set<char*> handed;
  while (char* chunk = recycler.take(run.chunk_size)) handed.insert(chunk);
  EXPECT_FALSE(handed.empty());
  EXPECT_LT(handed.size(), chunks.size());
  EXPECT_EQ(recycler.take(run.chunk_size + 1), nullptr);  // another size: never
  recycler.finished(0);
  recycler.finished(1);
  while (char* chunk = recycler.take(run.chunk_size)) handed.insert(chunk);
  EXPECT_EQ(handed, chunks);
}

TEST(ChunkRecycler, NothingToHandOnFromSpilledRuns) {
  RunSet runs(runs_dir(), "c", 2, KeyOrder::hashed);
  fill(runs, 200000);  // small: the buffer spills, its last records too
  ASSERT_GT(runs.spilled_runs(), 0u);
  ChunkRecycler recycler(runs);
  EXPECT_FALSE(recycler.active());
  recycler.finished(0);
  recycler.finished(1);
  EXPECT_EQ(recycler.take(64 << 10), nullptr);
}

}  // namespace
}  // namespace strata::merge
