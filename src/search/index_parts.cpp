#include "search/index_parts.hpp"

#include "index/archive_registry.hpp"

namespace strata::search {

IndexParts::IndexParts(const Xapian::Database& db, bool remote) : parts_{db}, remote_(remote) {
  stored_.emplace_back(db);
}

IndexParts::IndexParts(const std::vector<Xapian::Database>& parts, bool remote)
    : parts_(parts), remote_(remote) {
  for (const Xapian::Database& part : parts) stored_.emplace_back(part);
}

const index::StoredData& IndexParts::stored(Xapian::docid docid) const {
  return stored_[(docid - 1) % stored_.size()];
}

std::optional<archive::ArchiveEntry> IndexParts::registered_archive(const std::string& key) const {
  for (const Xapian::Database& part : parts_)
    if (auto entry = index::registered_archive(part, key)) return entry;
  return std::nullopt;
}

}  // namespace strata::search
