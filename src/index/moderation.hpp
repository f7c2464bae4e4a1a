#pragma once
// The join of image analysis and the block list into the index (docs/analysis.md): the
// analysis records of <index>/analysis.jsonl by imgDigest, and <index>/blocklist.txt.
#include <filesystem>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analyze/blocklist.hpp"
#include "analyze/record.hpp"
#include "index/document_builder.hpp"
#include "index/writer.hpp"
#include "merge/document.hpp"

namespace strata::index {

// Copies what the index keeps of an analysis record into `m` (blocked is left alone).
void apply_analysis(const analyze::AnalysisRecord& record, Moderation& m);

class ModerationSource {
 public:
  // Reads <index_dir>/analysis.jsonl (the last record of a digest wins; torn lines are
  // skipped) and <index_dir>/blocklist.txt; both may be missing. `only`: the digests to keep
  // (only their lines are read, analyze/analysis_lines.hpp, so an add to a big index reads
  // its own); all when null.
  static ModerationSource load(const std::filesystem::path& index_dir,
                               const std::unordered_set<std::string>* only = nullptr);

  // Sets the analysis fields when the document's digest has a record (keeps `m`'s
  // otherwise, so an index never loses analysis) and `blocked` from the block list.
  void apply(const merge::ImageDocument& doc, Moderation& m) const;

  size_t records() const { return analysis_.size(); }
  const analyze::BlockList& blocks() const { return blocks_; }
  void set_blocks(analyze::BlockList blocks) { blocks_ = std::move(blocks); }

 private:
  std::unordered_map<std::string, Moderation> analysis_;  // digest -> analysis fields
  analyze::BlockList blocks_;
};

// IndexWriter's moderation for an index folder: its analysis.jsonl and blocklist.txt as they
// are now (read once); `only`: the digests of the documents it will write (all when null).
ModerateFn moderation_of(const std::filesystem::path& index_dir,
                         const std::unordered_set<std::string>* only = nullptr);

// True when `index_dir` holds a Xapian index (or a sharded index's first shard does).
bool index_exists(const std::filesystem::path& index_dir);

// Re-applies analysis.jsonl and blocklist.txt to every stored document of an existing index,
// in one transaction (a running `strata serve` sees the change at its next request); on a
// sharded index (index/shard_layout.hpp), its own files to every shard, one transaction each;
// returns how many documents changed. Throws Xapian::Error (e.g. another writer holds it).
uint64_t refresh_index(const std::filesystem::path& index_dir);

// True when blocklist.txt differs from the one the index's documents (any shard's) were last
// refreshed with (an edit made while the index was busy): refresh_index() then catches up.
bool blocklist_changed(const std::filesystem::path& index_dir);

std::filesystem::path analysis_file(const std::filesystem::path& index_dir);
std::filesystem::path blocklist_file(const std::filesystem::path& index_dir);

}  // namespace strata::index
