#include "index/new_index.hpp"

#include <xapian.h>

#include <iostream>

#include "index/moderation.hpp"
#include "index/shard_layout.hpp"

namespace strata::index {

namespace fs = std::filesystem;

namespace {

// What a killed run can leave in an index folder: Xapian's files, the record store, the
// analysis cache (and its offsets table), thumbnails, the block list and a sharded index's shard
// folders.
bool index_file_name(const std::string& name) {
  const auto ends_with = [&](std::string_view end) {
    return name.size() >= end.size() &&
           name.compare(name.size() - end.size(), end.size(), end) == 0;
  };
  return name == "iamglass" || name == "flintlock" || name == "thumbs" ||
         name.rfind("analysis.jsonl", 0) == 0 || name == "blocklist.txt" ||
         name.rfind("shard", 0) == 0 || name.rfind("records.sqlite", 0) == 0 ||
         ends_with(".glass") || ends_with(".tmp");
}

}  // namespace

NewIndex::NewIndex(const fs::path& index_dir) : index_dir_(index_dir), folder_(index_dir) {
  if (index_exists(index_dir) || shard_count(index_dir)) return;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(index_dir, ec))
    if (!index_file_name(entry.path().filename().string()))
      problem_ = index_dir.string() + " holds no index but other files (" +
                 entry.path().filename().string() + "): choose a new or empty folder";
  if (!problem_.empty()) return;
  fs::path dir = index_dir.lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "idx/"
  folder_ = dir.parent_path() / (dir.filename().string() + ".creating");
  fs::remove_all(folder_, ec);
  fs::create_directories(folder_, ec);
  if (fs::exists(blocklist_file(index_dir)))
    fs::copy_file(blocklist_file(index_dir), blocklist_file(folder_), ec);
}

bool NewIndex::put_in_place() const {
  if (folder_ == index_dir_) return true;
  std::error_code ec;
  fs::remove_all(index_dir_, ec);  // a folder without an index: what a killed run left
  fs::rename(folder_, index_dir_, ec);
  if (ec)
    std::cerr << "index: cannot rename " << folder_ << " to " << index_dir_ << ": " << ec.message()
              << '\n';
  return !ec;
}

std::string index_problem(const fs::path& index_dir) {
  std::error_code ec;
  if (!fs::is_directory(index_dir, ec)) return "no index folder " + index_dir.string();
  try {
    Xapian::Database db(index_dir.string());
    return {};
  } catch (const Xapian::Error& e) {
    return "no readable index in " + index_dir.string() + " (" + e.get_type() +
           (fs::is_empty(index_dir, ec) ? ": empty folder" : "") + "): create it with strata index";
  }
}

}  // namespace strata::index
