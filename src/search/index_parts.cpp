#include "search/index_parts.hpp"

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

}  // namespace strata::search
