#include "index/writer.hpp"

#include <stdexcept>
#include <vector>

#include "index/schema.hpp"
#include "merge/merge_into.hpp"

namespace strata::index {

MergeFn default_merge() {
  return merge::merge_into;
}

IndexWriter::IndexWriter(const std::filesystem::path& dir, MergeFn merge)
    : db_(dir.string(), Xapian::DB_CREATE_OR_OPEN), merge_(std::move(merge)) {
  if (db_.get_metadata(std::string(kMetaSchema)).empty()) {
    db_.set_metadata(std::string(kMetaSchema), std::string(kSchemaVersion));
    db_.commit();
  }
}

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
  db_.commit_transaction();
  in_batch_ = false;
}

void IndexWriter::cancel() {
  if (!in_batch_) return;
  db_.cancel_transaction();
  in_batch_ = false;
}

void IndexWriter::register_archive(const std::string& file) {
  if (file.empty()) return;
  std::string key = std::string(kMetaArchivePrefix) + file;
  if (key.size() > 240 || !db_.get_metadata(key).empty()) return;
  db_.set_metadata(key, "1");
}

std::optional<merge::ImageDocument> IndexWriter::get(const std::string& id) {
  Xapian::PostingIterator it = db_.postlist_begin(id_term(id));
  if (it == db_.postlist_end(id_term(id))) return std::nullopt;
  merge::ImageDocument doc;
  Moderation m;
  if (!parse_document_data(db_.get_document(*it).get_data(), doc, m)) return std::nullopt;
  return doc;
}

AddOutcome IndexWriter::add(const merge::ImageDocument& doc) {
  if (doc.id.empty()) throw std::invalid_argument("document without id");
  const std::string idt = id_term(doc.id);
  register_archive(doc.imgFile);
  register_archive(doc.pageFile);
  Xapian::PostingIterator it = db_.postlist_begin(idt);
  merge::ImageDocument existing;
  Moderation m;
  const std::string old_data = it == db_.postlist_end(idt) ? "" : db_.get_document(*it).get_data();
  if (old_data.empty() || !parse_document_data(old_data, existing, m)) {
    Moderation fresh;
    if (moderate_) moderate_(doc, fresh);
    db_.replace_document(idt, build_document(doc, fresh));
    return AddOutcome::added;
  }
  if (!merge_) throw std::logic_error("IndexWriter: no merge function for an existing id");
  merge_(existing, doc);
  if (moderate_) moderate_(existing, m);
  if (document_data(existing, m) == old_data) return AddOutcome::unchanged;
  db_.replace_document(idt, build_document(existing, m));
  return AddOutcome::merged;
}

bool IndexWriter::set_moderation(const std::string& id, const Moderation& m) {
  const std::string idt = id_term(id);
  Xapian::PostingIterator it = db_.postlist_begin(idt);
  if (it == db_.postlist_end(idt)) return false;
  merge::ImageDocument doc;
  Moderation old;
  if (!parse_document_data(db_.get_document(*it).get_data(), doc, old)) return false;
  db_.replace_document(idt, build_document(doc, m));
  return true;
}

uint64_t IndexWriter::remoderate(const ModerateFn& moderate) {
  // Document ids first: replacing documents invalidates a running posting list.
  std::vector<Xapian::docid> ids;
  for (auto it = db_.postlist_begin(""); it != db_.postlist_end(""); ++it) ids.push_back(*it);
  uint64_t changed = 0;
  for (Xapian::docid id : ids) {
    const Xapian::Document stored = db_.get_document(id);
    merge::ImageDocument doc;
    Moderation m;
    if (!parse_document_data(stored.get_data(), doc, m)) continue;
    const Moderation before = m;
    moderate(doc, m);
    if (m == before) continue;
    db_.replace_document(id, build_document(doc, m));
    ++changed;
  }
  return changed;
}

}  // namespace strata::index
