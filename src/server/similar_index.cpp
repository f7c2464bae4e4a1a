#include "server/similar_index.hpp"

#include <algorithm>
#include <string>

#include "analyze/embedding.hpp"
#include "index/hash_values.hpp"
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

// `visit(docid, value)` for each document with a value in `slot`, in docid order. A value
// stream reads a local index's column; over a remote shard Xapian 1.4 reads it a round trip a
// document (245 µs each on this machine: 10 minutes a slot at 2.5M documents), so there the
// values come in one match instead: every document with a value, the value as its collapse
// key, nothing collapsed (about 25x faster: 10 µs a document, docs/scale.md).
template <typename Visit>
void each_value(Xapian::Database& db, Xapian::valueno slot, bool remote, Visit visit) {
  if (!remote) {
    for (auto it = db.valuestream_begin(slot), end = db.valuestream_end(slot); it != end; ++it)
      visit(it.get_docid(), *it);
    return;
  }
  const Xapian::doccount all = std::max<Xapian::doccount>(db.get_doccount(), 1);
  Xapian::Enquire enquire(db);
  enquire.set_query(Xapian::Query(Xapian::Query::OP_VALUE_GE, slot, std::string()));
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  enquire.set_docid_order(Xapian::Enquire::ASCENDING);
  enquire.set_collapse_key(slot, all);
  const Xapian::MSet mset = enquire.get_mset(0, all, all);
  for (auto it = mset.begin(); it != mset.end(); ++it) visit(*it, it.get_collapse_key());
}

// Walks the documents that have a value in `slot` and that search may show at all (neither
// blocked nor inline), with what the visibility filters need.
class VisibleDocuments {
 public:
  VisibleDocuments(Xapian::Database& db, bool remote)
      : db_(db),
        remote_(remote),
        safe_stream_(db.valuestream_begin(index::slot::safe)),
        safe_end_(db.valuestream_end(index::slot::safe)) {
    if (remote)  // read at once (each_value): not a round trip a document
      each_value(db, index::slot::safe, true, [&](Xapian::docid doc, const std::string& value) {
        safe_.emplace_back(doc, search::safe_search_shows(Xapian::sortable_unserialise(value)));
      });
    for (std::string_view term :
         {index::prefix::blocked, index::prefix::inline_img, index::prefix::decorative}) {
      cursors_.push_back(db.postlist_begin(std::string(term)));
      ends_.push_back(db.postlist_end(std::string(term)));
    }
  }

  // `visit(entry, value)` for each such document of `slot`, in document order.
  template <typename Visit>
  void each(Xapian::valueno slot, Visit visit) {
    size_t safe = 0;  // cursor in safe_
    each_value(db_, slot, remote_, [&](Xapian::docid doc, const std::string& value) {
      if (has_term(cursors_[0], ends_[0], doc) || has_term(cursors_[1], ends_[1], doc)) return;
      SimilarEntry entry{doc, false, has_term(cursors_[2], ends_[2], doc)};
      if (remote_) {
        while (safe < safe_.size() && safe_[safe].first < doc) ++safe;
        entry.shown_under_safe_search =
            safe < safe_.size() && safe_[safe].first == doc && safe_[safe].second;
      } else {
        if (safe_stream_ != safe_end_ && safe_stream_.get_docid() < doc) safe_stream_.skip_to(doc);
        if (safe_stream_ != safe_end_ && safe_stream_.get_docid() == doc)
          entry.shown_under_safe_search =
              search::safe_search_shows(Xapian::sortable_unserialise(*safe_stream_));
      }
      visit(entry, value);
    });
  }

 private:
  Xapian::Database& db_;
  bool remote_;
  Xapian::ValueIterator safe_stream_, safe_end_;      // local
  std::vector<std::pair<Xapian::docid, bool>> safe_;  // remote: whether safe search shows each
  std::vector<Xapian::PostingIterator> cursors_, ends_;
};

}  // namespace

std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db) {
  return build_similar_snapshot(db, version_of(db), false);
}

std::shared_ptr<const SimilarSnapshot> build_similar_snapshot(Xapian::Database& db,
                                                              const IndexVersion& version,
                                                              bool remote) {
  auto snapshot = std::make_shared<SimilarSnapshot>();
  snapshot->version = version;
  std::vector<uint64_t> hashes;
  VisibleDocuments(db, remote)
      .each(index::slot::phash, [&](const SimilarEntry& entry, const std::string& value) {
        const auto hash = index::phash_from_value(value);
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
  VisibleDocuments(db, remote)
      .each(index::slot::embedding, [&](const SimilarEntry& entry, const std::string& value) {
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
  return cache_.get(db, version, [&](Xapian::Database& d) {
    return build_similar_snapshot(d, version, parts.remote());
  });
}

}  // namespace strata::server
