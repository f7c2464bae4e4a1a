#include "archive/locate.hpp"

#include <chrono>
#include <cstring>
#include <optional>

#include "archive/checkpoints.hpp"

namespace strata::archive {
namespace {

namespace fs = std::filesystem;

std::string format_of(const std::string& path) {
  std::string error;
  auto input = open_file_input(path, error);
  if (!input) return "";
  char magic[4] = {};
  size_t got = input->read(magic, 4);
  if (got == 4 && std::memcmp(magic, "PK\x03\x04", 4) == 0) return "wacz";
  if (!input->seek(0)) return "";
  switch (sniff_codec(*input)) {
    case Codec::gzip:
      return "gzip";
    case Codec::zstd:
      return "zstd";
    case Codec::plain:
      break;
  }
  return "plain";
}

// Size of a regular file, or nullopt.
std::optional<uint64_t> regular_size(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  uint64_t size = fs::file_size(path, ec);
  if (ec) return std::nullopt;
  return size;
}

std::string changed_message(const std::string& path, uint64_t size, uint64_t registered) {
  return "archive changed: size " + std::to_string(size) + ", registered " +
         std::to_string(registered) + ": " + path;
}

}  // namespace

std::string archive_key(const fs::path& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  return (ec ? path : abs).lexically_normal().string();
}

std::string container_of(const std::string& file) {
  size_t hash = file.find(".wacz#");
  return hash == std::string::npos ? file : file.substr(0, hash + 5);
}

ArchiveEntry describe_archive(const std::string& key) {
  ArchiveEntry e;
  e.key = key;
  e.path = container_of(key);
  if (auto size = regular_size(e.path)) {
    e.path = archive_key(e.path);  // a relative key (older indexes): where it is from here
    e.size = *size;
    std::error_code ec;
    auto written = fs::last_write_time(e.path, ec);
    if (!ec) {
      auto since = std::chrono::file_clock::to_sys(written).time_since_epoch();
      e.mtime = std::chrono::duration_cast<std::chrono::seconds>(since).count();
    }
    e.format = format_of(e.path);
  }
  return e;
}

std::string_view to_string(ArchiveState state) {
  switch (state) {
    case ArchiveState::found:
      return "found";
    case ArchiveState::moved:
      return "moved";
    case ArchiveState::missing:
      return "missing";
    case ArchiveState::changed:
      return "changed";
  }
  return "missing";
}

Located locate_archive(const ArchiveEntry& entry, const std::vector<fs::path>& roots) {
  const std::string member = entry.key.substr(container_of(entry.key).size());
  auto fits = [&entry](uint64_t size) { return entry.size == 0 || size == entry.size; };
  Located out;
  if (auto size = regular_size(entry.path)) {
    if (fits(*size)) return {ArchiveState::found, entry.path + member, ""};
    out = {ArchiveState::changed, "", changed_message(entry.path, *size, entry.size)};
  }
  // The path's suffixes, longest first: a/b/x.warc.gz, b/x.warc.gz, x.warc.gz.
  const fs::path relative = fs::path(entry.path).relative_path();
  std::vector<fs::path> suffixes;
  for (auto it = relative.begin(); it != relative.end(); ++it) {
    fs::path suffix;
    for (auto part = it; part != relative.end(); ++part) suffix /= *part;
    suffixes.push_back(suffix);
  }
  for (const auto& root : roots)
    for (const auto& suffix : suffixes) {
      const fs::path candidate = (root / suffix).lexically_normal();
      auto size = regular_size(candidate);
      if (!size) continue;
      if (fits(*size)) return {ArchiveState::moved, candidate.string() + member, ""};
      if (out.state == ArchiveState::missing)
        out = {ArchiveState::changed, "", changed_message(candidate.string(), *size, entry.size)};
    }
  if (out.state == ArchiveState::missing)
    out.error = "archive missing: " + entry.path +
                (roots.empty() ? "" : " (not found under any --archive-root either)");
  return out;
}

CheckedRecord read_checked_record(const std::string& file, uint64_t offset,
                                  std::string_view target_url, const ReaderOptions& options) {
  std::string problem;
  CheckedRecord out;
  out.reader = read_record_at(file, offset, options, [&problem](const Problem& p) {
    if (problem.empty()) problem = p.kind + ": " + p.detail;
  });
  const std::string where = file + " at offset " + std::to_string(offset);
  if (!out.reader) {
    out.error =
        "archive record not readable: " + where + (problem.empty() ? "" : " (" + problem + ")");
    return out;
  }
  const std::string& found = out.reader->record().target_uri;
  if (!target_url.empty() && found != target_url) {
    out.error = "archive changed: the record at " + where + " is " + found + ", not " +
                std::string(target_url);
    out.reader.reset();
  }
  return out;
}

}  // namespace strata::archive
