#include "server/similar_index.hpp"

#include <string>

#include "analyze/phash.hpp"
#include "index/schema.hpp"
#include "search/request.hpp"
#include "similar/groups.hpp"

namespace strata::server {
namespace {

// Whether `doc` has the boolean term `term`; `it` moves forward only (documents ascend).
bool has_term(Xapian::PostingIterator& it, const Xapian::PostingIterator& end, Xapian::docid doc) {
  if (it != end && *it < doc) it.skip_to(doc);
  return it != end && *it == doc;
}

}  // namespace

IndexVersion version_of(const Xapian::Database& db) {
  return {db.get_uuid(), db.get_revision()};
}

std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db) {
  namespace prefix = index::prefix;
  const IndexVersion version = version_of(db);
  std::vector<SimilarEntry> entries;
  std::vector<uint64_t> hashes;
  size_t degenerate = 0;
  auto safe = db.valuestream_begin(index::slot::safe);
  const auto safe_end = db.valuestream_end(index::slot::safe);
  auto term_cursor = [&](std::string_view term) {
    return std::pair{db.postlist_begin(std::string(term)), db.postlist_end(std::string(term))};
  };
  auto [blocked, blocked_end] = term_cursor(prefix::blocked);
  auto [inline_img, inline_end] = term_cursor(prefix::inline_img);
  auto [decorative, decorative_end] = term_cursor(prefix::decorative);
  const auto end = db.valuestream_end(index::slot::phash);
  for (auto it = db.valuestream_begin(index::slot::phash); it != end; ++it) {
    const Xapian::docid doc = it.get_docid();
    const auto hash = analyze::phash_from_hex(*it);
    if (!hash || has_term(blocked, blocked_end, doc) || has_term(inline_img, inline_end, doc))
      continue;
    if (similar::gate({"", *hash, 0, 0, 0}) != similar::Gate::ok) {
      ++degenerate;
      continue;
    }
    SimilarEntry entry{doc, false, has_term(decorative, decorative_end, doc)};
    if (safe != safe_end && safe.get_docid() < doc) safe.skip_to(doc);
    if (safe != safe_end && safe.get_docid() == doc)
      entry.shown_under_safe_search =
          search::safe_search_shows(Xapian::sortable_unserialise(*safe));
    entries.push_back(entry);
    hashes.push_back(*hash);
  }
  similar::HammingIndex index(similar::kNearDuplicateRadius, hashes);
  return std::make_shared<const SimilarSnapshot>(
      SimilarSnapshot{version, std::move(entries), std::move(index), degenerate});
}

std::shared_ptr<const SimilarSnapshot> SimilarIndexCache::get(Xapian::Database& db) {
  std::shared_ptr<const SimilarSnapshot> current;
  {
    std::lock_guard lock(current_);
    current = snapshot_;
  }
  const IndexVersion version = version_of(db);
  if (current && current->version == version) return current;
  std::unique_lock building(build_, std::defer_lock);
  if (!current)
    building.lock();  // the first: wait for it
  else if (!building.try_lock())
    return current;  // another request is rebuilding it
  {
    std::lock_guard lock(current_);  // built while this one waited?
    if (snapshot_ && snapshot_->version == version) return snapshot_;
  }
  auto fresh = build_similar_snapshot(db);
  std::lock_guard lock(current_);
  snapshot_ = fresh;
  return fresh;
}

}  // namespace strata::server
