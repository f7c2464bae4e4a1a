#include "index/archive_registry.hpp"

#include "core/digest.hpp"
#include "core/json.hpp"
#include "index/schema.hpp"

namespace strata::index {
namespace {

// Xapian metadata keys are limited to ~245 bytes: longer archive keys go by their hash (the
// JSON holds the key itself).
constexpr size_t kMaxMetadataKey = 240;

std::string metadata_key(const std::string& key) {
  std::string m = std::string(kMetaArchivePrefix) + key;
  if (m.size() <= kMaxMetadataKey) return m;
  return std::string(kMetaArchivePrefix) + "sha256:" + sha256_hex(key);
}

std::string to_json(const archive::ArchiveEntry& e) {
  return Json{
      {"key", e.key}, {"path", e.path}, {"size", e.size}, {"mtime", e.mtime}, {"format", e.format}}
      .dump();
}

// The entry a metadata value describes; a legacy "1" (or damage) gives the key's own path.
archive::ArchiveEntry from_json(const std::string& key, const std::string& value) {
  archive::ArchiveEntry e;
  e.key = key;
  e.path = archive::container_of(key);
  const Json j = Json::parse(value, nullptr, false);
  if (!j.is_object()) return e;
  e.key = j.value("key", key);
  e.path = j.value("path", e.path);
  e.size = j.value("size", uint64_t{0});
  e.mtime = j.value("mtime", int64_t{0});
  e.format = j.value("format", "");
  return e;
}

bool is_json(const std::string& value) {
  return !value.empty() && value.front() == '{';
}

}  // namespace

void register_archive(Xapian::WritableDatabase& db, const std::string& key) {
  if (key.empty()) return;
  const std::string m = metadata_key(key);
  if (is_json(db.get_metadata(m))) return;
  db.set_metadata(m, to_json(archive::describe_archive(key)));
}

std::optional<archive::ArchiveEntry> registered_archive(const Xapian::Database& db,
                                                        const std::string& key) {
  if (key.empty()) return std::nullopt;
  const std::string value = db.get_metadata(metadata_key(key));
  if (value.empty()) return std::nullopt;
  return from_json(key, value);
}

std::vector<archive::ArchiveEntry> registered_archives(const Xapian::Database& db) {
  std::vector<archive::ArchiveEntry> out;
  const std::string prefix(kMetaArchivePrefix);
  for (auto it = db.metadata_keys_begin(prefix); it != db.metadata_keys_end(prefix); ++it)
    out.push_back(from_json((*it).substr(prefix.size()), db.get_metadata(*it)));
  return out;
}

size_t relocate_archives(Xapian::WritableDatabase& db, const std::filesystem::path& from,
                         const std::filesystem::path& to) {
  auto folder = [](const std::filesystem::path& p) {
    std::string key = archive::archive_key(p);
    if (key.size() > 1 && key.back() == '/') key.pop_back();
    return key;
  };
  const std::string old_prefix = folder(from), new_prefix = folder(to);
  size_t changed = 0;
  db.begin_transaction();
  for (archive::ArchiveEntry e : registered_archives(db)) {
    const bool under = e.path.size() > old_prefix.size() &&
                       e.path.compare(0, old_prefix.size(), old_prefix) == 0 &&
                       e.path[old_prefix.size()] == '/';
    if (e.path != old_prefix && !under) continue;
    e.path = new_prefix + e.path.substr(old_prefix.size());
    db.set_metadata(metadata_key(e.key), to_json(e));
    ++changed;
  }
  db.commit_transaction();
  return changed;
}

}  // namespace strata::index
