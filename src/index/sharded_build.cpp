#include "index/sharded_build.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "index/compact.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

struct Shard {
  fs::path dir;
  std::unique_ptr<IndexWriter> writer;
  uint64_t from = 0, to = 0;  // next document to write, end of the range
};

void fill(Shard& shard, uint64_t until, uint64_t commit_every, const DocumentAt& document) {
  while (shard.from < until) {
    const uint64_t end = std::min(until, shard.from + commit_every);
    shard.writer->begin();
    for (; shard.from < end; ++shard.from) shard.writer->add(document(shard.from));
    shard.writer->commit();
  }
}

std::vector<Shard> open_shards(const fs::path& to, uint64_t count, unsigned jobs,
                               const ModerateFn& moderate) {
  std::vector<Shard> shards(jobs);
  const uint64_t per = (count + jobs - 1) / jobs;
  for (unsigned k = 0; k < jobs; ++k) {
    Shard& s = shards[k];
    s.dir = to.string() + ".shard-" + std::to_string(k);
    fs::remove_all(s.dir);
    s.writer = std::make_unique<IndexWriter>(s.dir);
    if (moderate) s.writer->set_moderate(moderate);
    s.from = std::min(count, k * per);
    s.to = std::min(count, s.from + per);
  }
  return shards;
}

void fill_in_parallel(std::vector<Shard>& shards, uint64_t commit_every,
                      const DocumentAt& document) {
  std::vector<std::exception_ptr> errors(shards.size());
  std::vector<std::thread> threads;
  for (size_t k = 0; k < shards.size(); ++k)
    threads.emplace_back([&, k] {
      try {
        fill(shards[k], shards[k].to, commit_every, document);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// Too few documents for a dictionary: the first shard writes them all.
void take_all(std::vector<Shard>& shards, uint64_t count) {
  for (size_t k = 1; k < shards.size(); ++k) {
    shards[k].writer.reset();
    fs::remove_all(shards[k].dir);
  }
  shards.resize(1);
  shards.front().to = count;
}

}  // namespace

void build_sharded(const fs::path& to, uint64_t count, const DocumentAt& document,
                   const ShardedBuild& options) {
  if (fs::exists(to)) throw std::runtime_error(to.string() + " already exists");
  const unsigned jobs =
      static_cast<unsigned>(std::clamp<uint64_t>(options.jobs, 1, std::max<uint64_t>(count, 1)));
  std::vector<Shard> shards = open_shards(to, count, jobs, options.moderate);
  if (!options.dictionary.empty())
    for (Shard& s : shards) s.writer->use_dictionary(options.dictionary);
  // The first shard trains the dictionary that all of them use.
  Shard& first = shards.front();
  fill(first, std::min(first.to, IndexWriter::kDictionarySamples), options.commit_every, document);
  if (!first.writer->has_dictionary()) take_all(shards, count);
  for (size_t k = 1; k < shards.size(); ++k) shards[k].writer->use_dictionary_of(*first.writer);
  fill_in_parallel(shards, options.commit_every, document);
  std::vector<fs::path> dirs;
  for (Shard& s : shards) {
    s.writer.reset();  // closes the shard
    dirs.push_back(s.dir);
  }
  compact_index(dirs, to);
  for (const fs::path& d : dirs) fs::remove_all(d);
}

}  // namespace strata::index
