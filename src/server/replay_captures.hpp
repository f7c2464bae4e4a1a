#pragma once
// The capture index (replay/captures.hpp) of the archives an index registers, shared by the
// server's workers: built on first use, and again when the index has changed (a new Xapian
// revision), from each archive where it is now (archive/locate.hpp: its registered path, or
// under --archive-root). Archives that cannot be found are left out (replay answers 404 for
// their captures, as for documents). Thread-safe; Xapian errors propagate.
#include <xapian.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include "replay/captures.hpp"

namespace strata::server {

class ReplayCaptures {
 public:
  explicit ReplayCaptures(std::vector<std::filesystem::path> archive_roots)
      : roots_(std::move(archive_roots)) {}
  std::shared_ptr<const replay::CaptureIndex> of(Xapian::Database& db);

 private:
  std::vector<std::filesystem::path> roots_;
  std::mutex mutex_;
  Xapian::rev revision_ = 0;
  std::shared_ptr<const replay::CaptureIndex> index_;
};

}  // namespace strata::server
