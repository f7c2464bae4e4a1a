#pragma once
// The stored document data of an index, compressed with zstd and a dictionary trained on the
// index's own first documents (kept in the index metadata, never changed afterwards). Each
// document stays independently readable and replaceable; small JSON documents that plain
// per-document compression barely shrinks get ~4x smaller (docs/search.md, "Index size").
// Data written before the dictionary exists stays plain JSON and is read as such.
#include <xapian.h>

#include <memory>
#include <string>
#include <vector>

namespace strata::index {

struct ZstdDictionary;

// The zstd level documents are written at: `small` (12) for a new index, `fast` (3) for the
// documents an incremental add writes into an existing one (~9x less CPU per document, ~9 %
// larger: docs/search.md "Index size").
enum class Compression { small, fast };

class StoredData {
 public:
  // Reads the index's dictionary, if it has one (decoded dictionaries are shared per process).
  explicit StoredData(const Xapian::Database& db);
  ~StoredData();
  StoredData(StoredData&&) noexcept;
  StoredData& operator=(StoredData&&) noexcept;

  bool has_dictionary() const { return dict_ != nullptr; }
  // True for data stored as plain JSON (written before the index had a dictionary).
  static bool is_plain(const std::string& stored);
  // JSON -> stored bytes (the JSON itself while there is no dictionary).
  std::string pack(const std::string& json, Compression level = Compression::small) const;
  // Stored bytes -> JSON; "" on corrupt data.
  std::string unpack(const std::string& stored) const;

  // Trains a dictionary from sample JSON documents and stores it in `db` (in the caller's
  // transaction); false when zstd cannot train one from them.
  bool train(Xapian::WritableDatabase& db, const std::vector<std::string>& samples);

 private:
  std::shared_ptr<const ZstdDictionary> dict_;
};

}  // namespace strata::index
