#pragma once
// One value computed from an index and kept while the index's version (UUID and revision)
// stays the same: the "more like this" snapshot (similar_index.hpp) and the index summary
// (index_summary.hpp). When the index changes, the first request to notice computes the new
// value while the others go on answering from the previous one; the very first one waits.
#include <xapian.h>

#include <memory>
#include <mutex>
#include <string>

namespace strata::server {

// Which state of which database a value was computed from: an index rebuilt beside its folder
// and renamed into place is another database (UUID) whose revisions start again.
struct IndexVersion {
  std::string uuid;
  Xapian::rev revision = 0;
  bool operator==(const IndexVersion&) const = default;
};
inline IndexVersion version_of(const Xapian::Database& db) {
  return {db.get_uuid(), db.get_revision()};
}

// T has a member `IndexVersion version`; compute(db) returns a std::shared_ptr<const T> (or
// one convertible to it) for db's current version.
template <typename T>
class VersionedCache {
 public:
  template <typename Compute>
  std::shared_ptr<const T> get(Xapian::Database& db, Compute compute) {
    std::shared_ptr<const T> current;
    {
      std::lock_guard lock(current_);
      current = value_;
    }
    const IndexVersion version = version_of(db);
    if (current && current->version == version) return current;
    std::unique_lock building(build_, std::defer_lock);
    if (!current)
      building.lock();  // the first: wait for it
    else if (!building.try_lock())
      return current;  // another request is computing it
    {
      std::lock_guard lock(current_);  // computed while this one waited?
      if (value_ && value_->version == version) return value_;
    }
    std::shared_ptr<const T> fresh = compute(db);
    std::lock_guard lock(current_);
    value_ = fresh;
    return fresh;
  }

 private:
  std::mutex build_;    // held while computing
  std::mutex current_;  // guards value_
  std::shared_ptr<const T> value_;
};

}  // namespace strata::server
