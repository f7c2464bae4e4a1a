#pragma once
// Archive keys and finding a record's bytes again, wherever its archive is now.
//
// A record's location is (archive key, offset). The key is the archive's absolute, lexically
// normal path when it was read ("/data/c1/a.warc.gz"), and for a WACZ member
// "/data/c1/x.wacz#archive/data.warc.gz". An index keeps, per key, where the archive is now
// and its size (index/archive_registry.hpp); when it is not there any more it is looked for
// under archive roots. Nothing here throws: failures are returned as a message that says
// what is wrong ("archive missing: ...", "archive changed: ...").
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "archive/reader.hpp"

namespace strata::archive {

// The stable key of an archive path: absolute and lexically normal.
std::string archive_key(const std::filesystem::path& path);
// The file part of a key or location ("x.wacz" for "x.wacz#entry").
std::string container_of(const std::string& file);

// What an index remembers of an archive.
struct ArchiveEntry {
  std::string key;     // as in the documents' imgFile/pageFile
  std::string path;    // where the container file is now (relocate changes it)
  uint64_t size = 0;   // 0 = unknown (the file was not there when registered)
  int64_t mtime = 0;   // seconds since the epoch
  std::string format;  // wacz, gzip, zstd, plain ("" = unknown)
};

// The entry of `key` as the file is now (size 0 and format "" when it is not there).
ArchiveEntry describe_archive(const std::string& key);

enum class ArchiveState { found, moved, missing, changed };
std::string_view to_string(ArchiveState state);

struct Located {
  ArchiveState state = ArchiveState::missing;
  std::string file;   // location to read (container path + "#member" for WACZ); "" if none
  std::string error;  // for missing/changed
};

// Finds `entry`'s archive: at entry.path when its size is the registered one (any size when
// unknown); else under each root by the path's suffixes, longest first (root/a/b/x.warc.gz,
// root/b/x.warc.gz, root/x.warc.gz), accepted only with the registered size.
Located locate_archive(const ArchiveEntry& entry, const std::vector<std::filesystem::path>& roots);

struct CheckedRecord {
  std::unique_ptr<ArchiveReader> reader;  // positioned on the record; null on error
  std::string error;
};

// The record at `offset` of `file`, only when its target URL is `target_url` (unless that is
// empty): a moved or rewritten archive never gives another record's bytes.
CheckedRecord read_checked_record(const std::string& file, uint64_t offset,
                                  std::string_view target_url, const ReaderOptions& options = {});

}  // namespace strata::archive
