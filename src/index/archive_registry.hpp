#pragma once
// The archive registry of an index: for every archive key its documents name (imgFile,
// pageFile; archive/locate.hpp) where the archive is now, its size, modification time and
// format, as Xapian metadata "strata:archive:<key>" -> JSON. Documents keep their keys
// forever; moving archives only rewrites the registry (relocate) or is resolved at read time
// under archive roots. Xapian errors propagate (callers are commands and the writer).
#include <xapian.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "archive/locate.hpp"

namespace strata::index {

// Records `key` as the file is now, unless it is registered already (keys registered by
// older versions as "1" are described again).
void register_archive(Xapian::WritableDatabase& db, const std::string& key);

std::optional<archive::ArchiveEntry> registered_archive(const Xapian::Database& db,
                                                        const std::string& key);
std::vector<archive::ArchiveEntry> registered_archives(const Xapian::Database& db);

// Rewrites the registered paths equal to `from` or under it (a folder) to the same place
// under `to`, in one transaction; returns how many changed. Documents keep their keys.
size_t relocate_archives(Xapian::WritableDatabase& db, const std::filesystem::path& from,
                         const std::filesystem::path& to);

}  // namespace strata::index
