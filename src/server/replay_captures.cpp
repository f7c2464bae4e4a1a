#include "server/replay_captures.hpp"

#include <algorithm>
#include <tuple>

#include "index/archive_registry.hpp"
#include "server/versioned_cache.hpp"

namespace strata::server {
namespace {

auto fields(const archive::ArchiveEntry& e) {
  return std::tie(e.key, e.path, e.size, e.mtime, e.format);
}

}  // namespace

std::shared_ptr<const replay::CaptureIndex> ReplayCaptures::build(
    const std::vector<archive::ArchiveEntry>& entries) {
  std::vector<replay::ArchiveSource> sources;
  for (const auto& entry : entries) {
    archive::Located located = archive::locate_archive(entry, roots_);
    if (!located.file.empty()) sources.push_back({entry.key, located.file});
  }
  return std::make_shared<const replay::CaptureIndex>(
      replay::CaptureIndex::build(sources, [](const Problem&) {}));
}

std::shared_ptr<const replay::CaptureIndex> ReplayCaptures::of(Xapian::Database& db) {
  std::lock_guard lock(mutex_);
  // Workers reopen at their own pace: an older revision is no reason to rebuild.
  if (index_ && db.get_revision() <= revision_) return index_;
  revision_ = db.get_revision();
  index_ = build(index::registered_archives(db));
  return index_;
}

std::shared_ptr<const replay::CaptureIndex> ReplayCaptures::of(const search::IndexParts& parts) {
  std::vector<std::string> versions;
  for (size_t k = 0; k < parts.size(); ++k) versions.push_back(part_version(parts.part(k)));
  std::lock_guard lock(mutex_);
  std::map<std::string, std::vector<archive::ArchiveEntry>> registries;
  for (size_t k = 0; k < parts.size(); ++k) {
    auto known = registries_.find(versions[k]);
    registries[versions[k]] = known != registries_.end()
                                  ? std::move(known->second)
                                  : index::registered_archives(parts.part(k));
  }
  registries_ = std::move(registries);  // the parts answering now
  // The union by key (the first part's entry where two differ: a relocation not yet
  // committed to every shard).
  std::vector<archive::ArchiveEntry> all;
  for (size_t k = 0; k < parts.size(); ++k)
    for (const auto& e : registries_[versions[k]]) all.push_back(e);
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.key < b.key; });
  all.erase(std::unique(all.begin(), all.end(),
                        [](const auto& a, const auto& b) { return a.key == b.key; }),
            all.end());
  const bool same = index_ && all.size() == registered_.size() &&
                    std::equal(all.begin(), all.end(), registered_.begin(),
                               [](const auto& a, const auto& b) { return fields(a) == fields(b); });
  if (!same) {
    index_ = build(all);
    registered_ = std::move(all);
  }
  return index_;
}

}  // namespace strata::server
