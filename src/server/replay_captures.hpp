#pragma once
// The capture index (replay/captures.hpp) of the archives an index registers, shared by the
// server's workers: built on first use, and again when the index has changed (a new Xapian
// revision), from each archive where it is now (archive/locate.hpp: its registered path, or
// under --archive-root). Archives that cannot be found are left out (replay answers 404 for
// their captures, as for documents). Over several parts (shards, docs/scale.md) it covers the
// archives every part registers (each shard registers those its documents name; one archive
// registered by several shards is read once), rebuilt only when that set changes. Thread-safe;
// Xapian errors propagate.
#include <xapian.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "archive/locate.hpp"
#include "replay/captures.hpp"
#include "search/index_parts.hpp"

namespace strata::server {

class ReplayCaptures {
 public:
  explicit ReplayCaptures(std::vector<std::filesystem::path> archive_roots)
      : roots_(std::move(archive_roots)) {}
  std::shared_ptr<const replay::CaptureIndex> of(Xapian::Database& db);
  std::shared_ptr<const replay::CaptureIndex> of(const search::IndexParts& parts);

 private:
  std::shared_ptr<const replay::CaptureIndex> build(
      const std::vector<archive::ArchiveEntry>& entries);

  std::vector<std::filesystem::path> roots_;
  std::mutex mutex_;
  Xapian::rev revision_ = 0;
  std::shared_ptr<const replay::CaptureIndex> index_;
  // Over parts: each part's registry by the part's version, and the union the index is of.
  std::map<std::string, std::vector<archive::ArchiveEntry>> registries_;
  std::vector<archive::ArchiveEntry> registered_;
};

}  // namespace strata::server
