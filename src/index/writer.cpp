#include "index/writer.hpp"

#include <stdexcept>
#include <vector>

#include "analyze/embedding.hpp"
#include "index/archive_registry.hpp"
#include "index/compact.hpp"
#include "index/group_table.hpp"
#include "index/schema.hpp"
#include "merge/merge_into.hpp"

namespace strata::index {
namespace {

Xapian::WritableDatabase open_index(const std::filesystem::path& dir) {
  if (is_serving_copy(dir))
    throw std::runtime_error("index " + dir.string() +
                             " is a read-only serving copy (strata compact --serving, no "
                             "termlist): write to the index it was copied from");
  Xapian::WritableDatabase db(dir.string(), Xapian::DB_CREATE_OR_OPEN);
  const std::string schema = db.get_metadata(std::string(kMetaSchema));
  if (schema.empty()) {
    db.set_metadata(std::string(kMetaSchema), std::string(kSchemaVersion));
    db.commit();
  } else if (schema != kSchemaVersion) {
    throw std::runtime_error("index " + dir.string() + " has schema version " + schema +
                             ", this strata writes version " + std::string(kSchemaVersion) +
                             ": index the archives into a new index directory");
  }
  return db;
}

}  // namespace

MergeFn default_merge() {
  return merge::merge_into;
}

IndexWriter::IndexWriter(const std::filesystem::path& dir, MergeFn merge)
    : db_(open_index(dir)), merge_(std::move(merge)), stored_(db_) {}

IndexWriter::~IndexWriter() {
  try {
    if (in_batch_) db_.cancel_transaction();
    db_.close();
  } catch (const Xapian::Error&) {
  }
}

void IndexWriter::begin() {
  if (in_batch_) throw std::logic_error("IndexWriter::begin: batch already open");
  db_.begin_transaction(true);
  in_batch_ = true;
}

void IndexWriter::commit() {
  if (!in_batch_) return;
  // Documents written after the last regroup: the grouping table no longer describes them.
  if (!changes_.empty()) invalidate_group_table(db_);
  db_.commit_transaction();
  in_batch_ = false;
  changes_.clear();
}

void IndexWriter::cancel() {
  if (!in_batch_) return;
  db_.cancel_transaction();
  in_batch_ = false;
  changes_.clear();
  registered_.clear();  // the batch's registrations are gone with it
  // A dictionary trained in the cancelled batch is gone with it.
  stored_ = StoredData(db_);
  samples_.clear();
  sampled_.clear();
}

void IndexWriter::use_dictionary_of(const IndexWriter& other) {
  const std::string dictionary = other.db_.get_metadata(std::string(kMetaDictionary));
  if (dictionary.empty() || has_dictionary() || in_batch_) return;
  db_.set_metadata(std::string(kMetaDictionary), dictionary);
  db_.commit();
  stored_ = StoredData(db_);
}

void IndexWriter::register_archive(const std::string& file) {
  if (file.empty() || registered_.count(file)) return;
  index::register_archive(db_, file);
  registered_.insert(file);
}

bool IndexWriter::read(Xapian::docid docid, merge::ImageDocument& doc, Moderation& m,
                       std::string* json) {
  const Xapian::Document xd = db_.get_document(docid);
  std::string data = stored_.unpack(xd.get_data());
  if (!parse_document_data(data, doc, m)) return false;
  m.embedding = analyze::embedding_from_bytes(xd.get_value(slot::embedding));
  if (json) *json = std::move(data);
  return true;
}

std::string IndexWriter::pack(Xapian::Document& xd) const {
  std::string json = xd.get_data();
  xd.set_data(stored_.pack(json, compression_));
  return json;
}

Xapian::docid IndexWriter::write(const std::string& id_term, Xapian::Document xd) {
  const std::string json = pack(xd);
  const Xapian::docid docid = db_.replace_document(id_term, xd);
  sample_for_dictionary(docid, json);
  return docid;
}

void IndexWriter::write(Xapian::docid docid, Xapian::Document xd, const std::string* group) {
  const std::string json = pack(xd);
  const std::string stored =
      group ? std::string()
            : db_.get_document(docid, Xapian::DOC_ASSUME_VALID).get_value(slot::group);
  if (!group) group = &stored;
  if (const auto leader = group_leader(*group)) {
    xd.add_boolean_term(group_term(*leader));
    xd.add_value(slot::group, *group);
  }
  db_.replace_document(docid, xd);
  sample_for_dictionary(docid, json);
}

RegroupReport IndexWriter::regroup_near_duplicates(unsigned threads, bool whole) {
  const RegroupReport report =
      index::regroup_near_duplicates(db_, stored_, changes_, threads, whole);
  changes_.clear();
  return report;
}

void IndexWriter::sample_for_dictionary(Xapian::docid docid, const std::string& json) {
  if (stored_.has_dictionary()) return;
  samples_.push_back(json);
  sampled_.push_back(docid);
  if (samples_.size() < kDictionarySamples) return;
  if (stored_.train(db_, samples_)) {
    // The sampled documents were written plain: compress them too.
    for (Xapian::docid id : sampled_) {
      Xapian::Document xd = db_.get_document(id);
      const std::string data = xd.get_data();
      if (data.empty() || !StoredData::is_plain(data)) continue;
      xd.set_data(stored_.pack(data, compression_));
      db_.replace_document(id, xd);
    }
  }
  samples_.clear();
  sampled_.clear();
}

std::optional<merge::ImageDocument> IndexWriter::get(const std::string& id) {
  Xapian::PostingIterator it = db_.postlist_begin(id_term(id));
  if (it == db_.postlist_end(id_term(id))) return std::nullopt;
  merge::ImageDocument doc;
  Moderation m;
  if (!read(*it, doc, m, nullptr)) return std::nullopt;
  return doc;
}

std::optional<Xapian::docid> IndexWriter::docid_of(const std::string& id) {
  const std::string idt = id_term(id);
  Xapian::PostingIterator it = db_.postlist_begin(idt);
  if (it == db_.postlist_end(idt)) return std::nullopt;
  return *it;
}

AddOutcome IndexWriter::add(const merge::ImageDocument& doc) {
  if (doc.id.empty()) throw std::invalid_argument("document without id");
  const std::string idt = id_term(doc.id);
  register_archive(doc.imgFile);
  register_archive(doc.pageFile);
  Xapian::PostingIterator it = db_.postlist_begin(idt);
  merge::ImageDocument existing;
  Moderation m;
  std::string old_json;
  if (it == db_.postlist_end(idt) || !read(*it, existing, m, &old_json)) {
    Moderation fresh;
    if (moderate_) moderate_(doc, fresh);
    note(write(idt, build_document(doc, fresh)), grouping_image(doc, fresh));
    return AddOutcome::added;
  }
  if (!merge_) throw std::logic_error("IndexWriter: no merge function for an existing id");
  merge_(existing, doc);
  return rewrite(*it, existing, m, old_json);
}

void IndexWriter::add_new(const merge::ImageDocument& doc) {
  if (doc.id.empty()) throw std::invalid_argument("document without id");
  register_archive(doc.imgFile);
  register_archive(doc.pageFile);
  Moderation fresh;
  if (moderate_) moderate_(doc, fresh);
  Xapian::Document xd = build_document(doc, fresh);
  const std::string json = pack(xd);
  const Xapian::docid docid = db_.add_document(xd);
  sample_for_dictionary(docid, json);
  note(docid, grouping_image(doc, fresh));
}

AddOutcome IndexWriter::replace(Xapian::docid docid, const merge::ImageDocument& doc) {
  register_archive(doc.imgFile);
  register_archive(doc.pageFile);
  // The caller found `docid` by the id's term: no existence check (a doclength lookup).
  const Xapian::Document xd = db_.get_document(docid, Xapian::DOC_ASSUME_VALID);
  const std::string old_json = stored_.unpack(xd.get_data());
  Moderation m;
  if (!parse_moderation(old_json, m)) m = Moderation();  // unreadable: as a new document
  m.embedding = analyze::embedding_from_bytes(xd.get_value(slot::embedding));
  const std::string group = xd.get_value(slot::group);
  return rewrite(docid, doc, m, old_json, &group);
}

AddOutcome IndexWriter::rewrite(Xapian::docid docid, const merge::ImageDocument& doc, Moderation& m,
                                const std::string& old_json, const std::string* old_group) {
  const auto old_embedding = m.embedding;
  if (moderate_) moderate_(doc, m);
  std::string data = document_data(doc, m);
  if (data == old_json && m.embedding == old_embedding) return AddOutcome::unchanged;
  write(docid, build_document(doc, m, std::move(data)), old_group);
  note(docid, grouping_image(doc, m));
  return AddOutcome::merged;
}

bool IndexWriter::remove(const std::string& id) {
  const auto docid = docid_of(id);
  if (!docid) return false;
  db_.delete_document(*docid);
  note(*docid, std::nullopt);
  return true;
}

bool IndexWriter::set_moderation(const std::string& id, const Moderation& m) {
  const std::string idt = id_term(id);
  Xapian::PostingIterator it = db_.postlist_begin(idt);
  if (it == db_.postlist_end(idt)) return false;
  const Xapian::docid docid = *it;
  merge::ImageDocument doc;
  Moderation old;
  if (!read(docid, doc, old, nullptr)) return false;
  write(docid, build_document(doc, m));
  note(docid, grouping_image(doc, m));
  return true;
}

uint64_t IndexWriter::remoderate(const ModerateFn& moderate) {
  // Document ids first: replacing documents invalidates a running posting list.
  std::vector<Xapian::docid> ids;
  for (auto it = db_.postlist_begin(""); it != db_.postlist_end(""); ++it) ids.push_back(*it);
  uint64_t changed = 0;
  for (Xapian::docid id : ids) {
    merge::ImageDocument doc;
    Moderation m;
    if (!read(id, doc, m, nullptr)) continue;
    const Moderation before = m;
    moderate(doc, m);
    if (m == before) continue;
    write(id, build_document(doc, m));
    note(id, grouping_image(doc, m));
    ++changed;
  }
  return changed;
}

}  // namespace strata::index
