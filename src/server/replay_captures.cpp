#include "server/replay_captures.hpp"

#include "index/archive_registry.hpp"

namespace strata::server {

std::shared_ptr<const replay::CaptureIndex> ReplayCaptures::of(Xapian::Database& db) {
  std::lock_guard lock(mutex_);
  // Workers reopen at their own pace: an older revision is no reason to rebuild.
  if (index_ && db.get_revision() <= revision_) return index_;
  std::vector<replay::ArchiveSource> sources;
  for (const auto& entry : index::registered_archives(db)) {
    archive::Located located = archive::locate_archive(entry, roots_);
    if (!located.file.empty()) sources.push_back({entry.key, located.file});
  }
  revision_ = db.get_revision();
  index_ = std::make_shared<const replay::CaptureIndex>(
      replay::CaptureIndex::build(sources, [](const Problem&) {}));
  return index_;
}

}  // namespace strata::server
