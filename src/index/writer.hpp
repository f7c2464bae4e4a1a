#pragma once
// IndexWriter: adds merged ImageDocuments to a Xapian image index (the single writer; any
// number of readers may have it open). Re-adding an id merges the stored document with the
// incoming one through the merge stage's merge function (cross-collection merge), so
// re-indexing a collection changes nothing.
#include <xapian.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>

#include "index/document_builder.hpp"
#include "index/near_duplicate_groups.hpp"
#include "index/stored_data.hpp"
#include "merge/document.hpp"

namespace strata::index {

using MergeFn = std::function<void(merge::ImageDocument& existing, const merge::ImageDocument&)>;
// Updates a document's moderation (analysis join, block list) in place.
using ModerateFn = std::function<void(const merge::ImageDocument&, Moderation&)>;

// The merge function the writer uses by default (merge::merge_into once available).
MergeFn default_merge();

enum class AddOutcome { added, merged, unchanged };

class IndexWriter {
 public:
  // Documents the stored-data dictionary is trained on: zstd wants ~100x the dictionary size.
  static constexpr uint64_t kDictionarySamples = 4000;

  // Opens (creating if needed) the index at `dir`.
  explicit IndexWriter(const std::filesystem::path& dir, MergeFn merge = default_merge());
  ~IndexWriter();
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Applied to every document add() writes (new or merged); none by default.
  void set_moderate(ModerateFn moderate) { moderate_ = std::move(moderate); }
  // The zstd level of the documents written from now on (Compression::small by default).
  void set_compression(Compression level) { compression_ = level; }

  AddOutcome add(const merge::ImageDocument& doc);
  // Adds `doc`, whose id the caller knows the index does not hold (no lookup of it; two
  // documents with one id would both be stored).
  void add_new(const merge::ImageDocument& doc);
  // Replaces the stored document `docid` by `doc` as it is (nothing merged: a document
  // rebuilt from all its records), keeping the stored moderation (then set_moderate's).
  AddOutcome replace(Xapian::docid docid, const merge::ImageDocument& doc);
  // Deletes the document `id`; false when there is none.
  bool remove(const std::string& id);
  // Sets the classifier / block-list state of a stored document; false if the id is absent.
  bool set_moderation(const std::string& id, const Moderation& m);
  // Runs `moderate` over every stored document and rewrites those it changes (late
  // analysis, block-list edits); returns how many changed.
  uint64_t remoderate(const ModerateFn& moderate);
  // Regroups the near-duplicate images of the whole index (index/near_duplicate_groups.hpp):
  // call it in the batch, after its documents are written, so the groups commit with them.
  // Regroups only what the writes since the last regroup reach, unless `whole`.
  RegroupReport regroup_near_duplicates(unsigned threads = 1, bool whole = false);
  std::optional<merge::ImageDocument> get(const std::string& id);
  // The docid of the stored document `id`; none when absent.
  std::optional<Xapian::docid> docid_of(const std::string& id);

  // Everything between begin() and commit() becomes visible atomically; an interrupted or
  // cancelled batch leaves the index as it was before begin().
  void begin();
  void commit();
  void cancel();
  bool in_batch() const { return in_batch_; }

  void set_metadata(const std::string& key, const std::string& value) {
    db_.set_metadata(key, value);
  }
  std::string metadata(const std::string& key) const { return db_.get_metadata(key); }
  Xapian::doccount size() const { return db_.get_doccount(); }

  bool has_dictionary() const { return stored_.has_dictionary(); }
  // Makes a new, empty index compress with `other`'s dictionary (shards merged later must
  // share one); does nothing when this index has a dictionary or `other` has none.
  void use_dictionary_of(const IndexWriter& other);
  // The same with a dictionary's bytes (the metadata kMetaDictionary of another index).
  void use_dictionary(const std::string& dictionary);
  // The open database, batch included: the shards of a sharded index are regrouped together
  // (index::regroup_over_shards).
  Xapian::WritableDatabase& database() { return db_; }

 private:
  void register_archive(const std::string& file);
  // The stored document `docid` holds, parsed; false when absent or unreadable.
  bool read(Xapian::docid docid, merge::ImageDocument& doc, Moderation& m, std::string* json);
  // Writes `doc` with moderation `m` (moderated first) over document `docid`, whose stored
  // JSON is `old_json`, unless the data would stay the same.
  AddOutcome rewrite(Xapian::docid docid, const merge::ImageDocument& doc, Moderation& m,
                     const std::string& old_json);
  // Compresses xd's JSON data in place; returns the JSON.
  std::string pack(Xapian::Document& xd) const;
  // Writes xd (data compressed) under the unique term / docid; feeds dictionary training.
  Xapian::docid write(const std::string& id_term, Xapian::Document xd);
  // Keeps the stored document's near-duplicate group: the regroup rewrites it only if changed.
  void write(Xapian::docid docid, Xapian::Document xd);
  // Adds the near-duplicate group whose slot::group value is `group` (none when empty).
  static void keep_group(Xapian::Document& xd, const std::string& group);
  // write() for replace(): xd (its group kept) over document `docid`, rewriting in Xapian
  // only what changed: its data, its terms unless `same_text` (the stored document indexed
  // the same text) and it has the same terms and wdf, its values unless `old_values` (the
  // stored document's, none when unknown) holds the same.
  void write_changes(Xapian::docid docid, Xapian::Document xd, const Xapian::Document* old_values,
                     bool same_text);
  // Records a written document's grouping key (none: deleted or no pHash) for the regroup.
  void note(Xapian::docid docid, std::optional<similar::Image> image) {
    changes_[docid] = std::move(image);
  }
  void sample_for_dictionary(Xapian::docid docid, const std::string& json);

  Xapian::WritableDatabase db_;
  MergeFn merge_;
  ModerateFn moderate_;
  bool in_batch_ = false;
  StoredData stored_;
  Compression compression_ = Compression::small;
  std::vector<std::string> samples_;  // JSON of the first documents, until a dictionary exists
  std::vector<Xapian::docid> sampled_;
  GroupChanges changes_;  // since the last regroup
  // Archive keys registered (or found registered) in this batch or before it: the metadata
  // lookup is made once per archive, not twice per document.
  std::unordered_set<std::string> registered_;
};

}  // namespace strata::index
