#include "index/writer.hpp"

#include <stdexcept>
#include <vector>

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
  use_dictionary(other.db_.get_metadata(std::string(kMetaDictionary)));
}

void IndexWriter::use_dictionary(const std::string& dictionary) {
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
  read_slot_moderation(xd, m);
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

void IndexWriter::write(Xapian::docid docid, Xapian::Document xd) {
  const std::string json = pack(xd);
  keep_group(xd, db_.get_document(docid, Xapian::DOC_ASSUME_VALID).get_value(slot::group));
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
  const Xapian::Document stored = db_.get_document(docid, Xapian::DOC_ASSUME_VALID);
  const std::string old_json = stored_.unpack(stored.get_data());
  merge::ImageDocument old_doc;
  Moderation m;
  const bool readable = parse_document_data(old_json, old_doc, m);
  if (!readable) m = Moderation();  // as a new document
  read_slot_moderation(stored, m);
  const Moderation old_m = m;
  if (moderate_) moderate_(doc, m);
  std::string data = document_data(doc, m);
  if (data == old_json && same_slot_moderation(m, old_m)) return AddOutcome::unchanged;
  Xapian::Document xd = build_document(doc, m, std::move(data));
  const std::string group = stored.get_value(slot::group);
  keep_group(xd, group);
  // What the stored document holds, as far as it follows from its stored data without
  // tokenising: its values (those of build_document for the stored fields) and whether the
  // text it indexed is the new document's.
  Xapian::Document old_values;
  if (readable) {
    old_values = document_values(old_doc, old_m);
    keep_group(old_values, group);
  }
  write_changes(docid, std::move(xd), readable ? &old_values : nullptr,
                readable && same_indexed_text(old_doc, doc));
  note(docid, grouping_image(doc, m));
  return AddOutcome::merged;
}

namespace {

// True when the stored document `docid` has the terms of `xd`, with the same wdf each.
bool same_terms(const Xapian::Database& db, Xapian::docid docid, const Xapian::Document& xd) {
  auto a = db.termlist_begin(docid);
  const auto a_end = db.termlist_end(docid);
  auto b = xd.termlist_begin();
  const auto b_end = xd.termlist_end();
  for (; a != a_end && b != b_end; ++a, ++b)
    if (*a != *b || a.get_wdf() != b.get_wdf()) return false;
  return a == a_end && b == b_end;
}

// True when `a` and `b` hold the same values in the same slots.
bool same_values(const Xapian::Document& a, const Xapian::Document& b) {
  auto i = a.values_begin(), j = b.values_begin();
  const auto i_end = a.values_end(), j_end = b.values_end();
  for (; i != i_end && j != j_end; ++i, ++j)
    if (i.get_valueno() != j.get_valueno() || *i != *j) return false;
  return i == i_end && j == j_end;
}

}  // namespace

void IndexWriter::keep_group(Xapian::Document& xd, const std::string& group) {
  if (const auto leader = group_leader(group)) {
    xd.add_boolean_term(group_term(*leader));
    xd.add_value(slot::group, group);
  }
}

void IndexWriter::write_changes(Xapian::docid docid, Xapian::Document xd,
                                const Xapian::Document* old_values, bool same_text) {
  const std::string json = pack(xd);
  // Positions come from the text fields alone (build_document): with the same text and the
  // same terms and wdf (one termlist read), the stored positions are the ones xd has.
  const bool terms = !same_text || !same_terms(db_, docid, xd);
  // Read from the stored data, not the index: reading a document's values costs a lookup per
  // slot, as many as rewriting them.
  const bool values = !old_values || !same_values(*old_values, xd);
  if (terms && values) {
    db_.replace_document(docid, xd);
  } else {
    // Xapian's modification shortcut: a document opened last from this database and replaced
    // rewrites only what was changed in it, here its data and its terms or values.
    Xapian::Document target = db_.get_document(docid, Xapian::DOC_ASSUME_VALID);
    if (terms) {
      target.clear_terms();
      for (auto t = xd.termlist_begin(); t != xd.termlist_end(); ++t) {
        for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p)
          target.add_posting(*t, *p, 0);
        target.add_term(*t, t.get_wdf());
      }
    }
    if (values) {
      target.clear_values();
      for (auto v = xd.values_begin(); v != xd.values_end(); ++v)
        target.add_value(v.get_valueno(), *v);
    }
    target.set_data(xd.get_data());
    db_.replace_document(docid, target);
  }
  sample_for_dictionary(docid, json);
}

AddOutcome IndexWriter::rewrite(Xapian::docid docid, const merge::ImageDocument& doc, Moderation& m,
                                const std::string& old_json) {
  const Moderation before = m;
  if (moderate_) moderate_(doc, m);
  std::string data = document_data(doc, m);
  if (data == old_json && same_slot_moderation(m, before)) return AddOutcome::unchanged;
  write(docid, build_document(doc, m, std::move(data)));
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
