#pragma once
// Making a new index without ever leaving a half-made one, and telling a missing, empty or
// damaged index apart from a good one before a command trips over it.
#include <filesystem>
#include <string>

namespace strata::index {

// Where `strata index` writes: the index folder itself when it holds an index (or shards,
// index/shard_layout.hpp); else a
// sibling "<name>.creating" (one a killed run left is removed first; a block list already in
// the index folder is carried over) that put_in_place() renames to the index folder, so a
// kill at any moment of a first run leaves no index folder, or a complete one.
class NewIndex {
 public:
  explicit NewIndex(const std::filesystem::path& index_dir);
  const std::filesystem::path& folder() const { return folder_; }
  // Non-empty when the index folder exists without an index and holds files an index never
  // has (it is then left alone and nothing is built).
  const std::string& problem() const { return problem_; }
  // False, with a message on stderr, when the rename fails. Nothing to do for an existing index.
  bool put_in_place() const;

 private:
  std::filesystem::path index_dir_, folder_;
  std::string problem_;
};

// Empty when `index_dir` holds a readable index; else one line saying what is wrong.
std::string index_problem(const std::filesystem::path& index_dir);

}  // namespace strata::index
