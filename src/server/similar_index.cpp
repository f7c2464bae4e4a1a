#include "server/similar_index.hpp"

#include <string>

#include "analyze/embedding.hpp"
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

namespace {

// Walks the documents that have a value in `slot` and that search may show at all (neither
// blocked nor inline), with what the visibility filters need.
class VisibleDocuments {
 public:
  explicit VisibleDocuments(Xapian::Database& db)
      : db_(db),
        safe_(db.valuestream_begin(index::slot::safe)),
        safe_end_(db.valuestream_end(index::slot::safe)) {
    for (std::string_view term :
         {index::prefix::blocked, index::prefix::inline_img, index::prefix::decorative}) {
      cursors_.push_back(db.postlist_begin(std::string(term)));
      ends_.push_back(db.postlist_end(std::string(term)));
    }
  }

  // `visit(entry, value)` for each such document of `slot`, in document order.
  template <typename Visit>
  void each(Xapian::valueno slot, Visit visit) {
    const auto end = db_.valuestream_end(slot);
    for (auto it = db_.valuestream_begin(slot); it != end; ++it) {
      const Xapian::docid doc = it.get_docid();
      if (has_term(cursors_[0], ends_[0], doc) || has_term(cursors_[1], ends_[1], doc)) continue;
      SimilarEntry entry{doc, false, has_term(cursors_[2], ends_[2], doc)};
      if (safe_ != safe_end_ && safe_.get_docid() < doc) safe_.skip_to(doc);
      if (safe_ != safe_end_ && safe_.get_docid() == doc)
        entry.shown_under_safe_search =
            search::safe_search_shows(Xapian::sortable_unserialise(*safe_));
      visit(entry, *it);
    }
  }

 private:
  Xapian::Database& db_;
  Xapian::ValueIterator safe_, safe_end_;
  std::vector<Xapian::PostingIterator> cursors_, ends_;
};

}  // namespace

std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db) {
  return build_similar_snapshot(db, version_of(db));
}

std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db,
                                                              const IndexVersion& version) {
  auto snapshot = std::make_shared<SimilarSnapshot>();
  snapshot->version = version;
  std::vector<uint64_t> hashes;
  VisibleDocuments(db).each(index::slot::phash,
                            [&](const SimilarEntry& entry, const std::string& value) {
                              const auto hash = analyze::phash_from_hex(value);
                              if (!hash) return;
                              if (similar::gate(*hash) != similar::Gate::ok) {
                                ++snapshot->degenerate;
                                return;
                              }
                              snapshot->entries.push_back(entry);
                              hashes.push_back(*hash);
                            });
  snapshot->index = similar::HammingIndex(similar::kNearDuplicateRadius, hashes);
  std::vector<similar::EmbeddingCode> codes;
  VisibleDocuments(db).each(index::slot::embedding,
                            [&](const SimilarEntry& entry, const std::string& value) {
                              const auto code = analyze::embedding_from_bytes(value);
                              if (!code) return;
                              snapshot->visual_entries.push_back(entry);
                              codes.push_back(*code);
                            });
  snapshot->visual = similar::EmbeddingIndex(std::move(codes));
  return snapshot;
}

std::shared_ptr<const SimilarSnapshot> SimilarIndexCache::get(Xapian::Database& db) {
  return cache_.get(db, [](Xapian::Database& d) { return build_similar_snapshot(d); });
}

std::shared_ptr<const SimilarSnapshot> SimilarIndexCache::get(Xapian::Database& db,
                                                              const search::IndexParts& parts) {
  const IndexVersion version = version_of(parts);
  return cache_.get(db, version,
                    [&](Xapian::Database& d) { return build_similar_snapshot(d, version); });
}

}  // namespace strata::server
