#include "analyze/analysis_lines.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

#include <xxhash.h>

#include "analyze/record.hpp"
#include "core/json.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

// Table layout (native byte order: a table from another machine fails its checks and is made
// again): magic, covered length (ends after a newline), XXH3-64 of the covered length's last
// kCheckBytes bytes, entry count, then the entries sorted by (hash, offset).
constexpr char kMagic[8] = {'S', 'A', 'O', 'F', 'F', 'S', '0', '2'};
constexpr uint64_t kCheckBytes = 4096;

struct Entry {
  uint64_t hash, offset;
  bool operator<(const Entry& o) const {
    return hash != o.hash ? hash < o.hash : offset < o.offset;
  }
};

struct Header {
  char magic[8];
  uint64_t covered, check, count;
};

// Stable across builds and machines (the table outlives the program): XXH3's output is
// specified, as the merge's key hash uses it.
uint64_t hash_of(std::string_view text) {
  return XXH3_64bits(text.data(), text.size());
}

class File {
 public:
  explicit File(const fs::path& path, int flags = O_RDONLY, mode_t mode = 0)
      : fd_(::open(path.c_str(), flags | O_CLOEXEC, mode)) {}
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  int fd() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  uint64_t size() const {
    struct stat st {};
    return fd_ >= 0 && fstat(fd_, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  }
  // Reads up to `n` bytes at `offset`; the count read (short at the end or on an error).
  size_t read_at(char* to, size_t n, uint64_t offset) const {
    size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, to + done, n - done, static_cast<off_t>(offset + done));
      if (got <= 0) break;
      done += static_cast<size_t>(got);
    }
    return done;
  }

 private:
  int fd_;
};

// The hash of the kCheckBytes bytes before `covered` (fewer at the file's start).
uint64_t check_of(const File& file, uint64_t covered) {
  const uint64_t n = std::min(covered, kCheckBytes);
  std::string bytes(n, '\0');
  if (file.read_at(bytes.data(), n, covered - n) != n) return 0;
  return hash_of(bytes);
}

// The sorted entries of a valid table, mapped read-only.
class Table {
 public:
  // Maps `path` when it describes the first `covered()` bytes of `file`; else empty.
  Table(const fs::path& path, const File& file) {
    File table(path);
    if (!table) return;
    const uint64_t size = table.size();
    Header header{};
    if (size < sizeof header ||
        table.read_at(reinterpret_cast<char*>(&header), sizeof header, 0) != sizeof header)
      return;
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 ||
        size != sizeof header + header.count * sizeof(Entry) || header.covered > file.size() ||
        header.check != check_of(file, header.covered))
      return;
    if (header.count > 0) {
      void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, table.fd(), 0);
      if (map == MAP_FAILED) return;
      map_ = map, map_size_ = size;
      entries_ = reinterpret_cast<const Entry*>(static_cast<const char*>(map) + sizeof header);
    }
    count_ = header.count;
    covered_ = header.covered;
    valid_ = true;
  }
  ~Table() {
    if (map_) ::munmap(map_, map_size_);
  }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  bool valid() const { return valid_; }
  uint64_t covered() const { return covered_; }
  const Entry* begin() const { return entries_; }
  const Entry* end() const { return entries_ + count_; }

 private:
  void* map_ = nullptr;
  size_t map_size_ = 0;
  const Entry* entries_ = nullptr;
  uint64_t count_ = 0, covered_ = 0;
  bool valid_ = false;
};

// The lines of `file` from `from` on: entries for the complete ones with a digest; returns the
// length covered (after the last newline), and the start of a last line without its newline.
struct Tail {
  std::vector<Entry> entries;
  uint64_t covered = 0;
  std::optional<uint64_t> torn;  // offset of a last line without newline
};

Tail scan_tail(const File& file, uint64_t from) {
  Tail tail;
  tail.covered = from;
  constexpr size_t kChunk = size_t{1} << 20;
  std::string buffer;
  uint64_t at = from;  // file offset of buffer[0]
  std::vector<char> chunk(kChunk);
  for (;;) {
    const size_t got = file.read_at(chunk.data(), kChunk, at + buffer.size());
    if (got == 0) break;
    buffer.append(chunk.data(), got);
    size_t start = 0;
    for (;;) {
      const char* nl =
          static_cast<const char*>(std::memchr(buffer.data() + start, '\n', buffer.size() - start));
      if (!nl) break;
      const size_t end = static_cast<size_t>(nl - buffer.data());
      const std::string_view line(buffer.data() + start, end - start);
      if (const std::string digest = record_digest(line); !digest.empty())
        tail.entries.push_back({hash_of(digest), at + start});
      start = end + 1;
    }
    buffer.erase(0, start);
    at += start;
    tail.covered = at;
  }
  if (!buffer.empty()) tail.torn = at;
  std::sort(tail.entries.begin(), tail.entries.end());
  return tail;
}

// Writes the table of `file` covering `covered` bytes: `old`'s entries merged with `added`
// (both sorted), through a temporary file renamed into place. A failure leaves no table
// change (the next call scans the tail again).
void write_table(const fs::path& path, const File& file, uint64_t covered, const Table* old,
                 const std::vector<Entry>& added) {
  const fs::path temp = path.string() + ".tmp" + std::to_string(::getpid());
  std::FILE* out = std::fopen(temp.c_str(), "wb");
  if (!out) return;
  const uint64_t old_count = old ? static_cast<uint64_t>(old->end() - old->begin()) : 0;
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.covered = covered, header.check = check_of(file, covered);
  header.count = old_count + added.size();
  bool ok = std::fwrite(&header, sizeof header, 1, out) == 1;
  const Entry* a = old ? old->begin() : nullptr;
  const Entry* a_end = old ? old->end() : nullptr;
  auto b = added.begin();
  std::vector<Entry> buffer;  // written 64k entries (1 MB) at a time
  buffer.reserve(size_t{1} << 16);
  while (ok && (a != a_end || b != added.end())) {
    buffer.clear();
    while (buffer.size() < buffer.capacity() && (a != a_end || b != added.end()))
      buffer.push_back((b == added.end() || (a != a_end && *a < *b)) ? *a++ : *b++);
    ok = std::fwrite(buffer.data(), sizeof(Entry), buffer.size(), out) == buffer.size();
  }
  ok = std::fclose(out) == 0 && ok;
  std::error_code ec;
  if (ok) fs::rename(temp, path, ec);
  if (!ok || ec) fs::remove(temp, ec);
}

// The line starting at `offset`: empty when `offset` is not at a line start.
std::string line_at(const File& file, uint64_t offset) {
  std::string line;
  if (offset > 0) {
    char before = 0;
    if (file.read_at(&before, 1, offset - 1) != 1 || before != '\n') return {};
  }
  constexpr size_t kStep = 2048;  // a record with its embedding is about 1 KB
  for (;;) {
    const size_t old = line.size();
    line.resize(old + kStep);
    const size_t got = file.read_at(line.data() + old, kStep, offset + old);
    line.resize(old + got);
    if (const size_t nl = line.find('\n', old); nl != std::string::npos) {
      line.resize(nl);
      return line;
    }
    if (got < kStep) return line;  // the last line, without newline
  }
}

// The wanted lines through the table; false when the table proved wrong (an entry not at a
// line of its digest): nothing was passed to `fn` then.
bool read_lines(const File& file, const Table* table, const std::vector<Entry>& tail,
                const std::vector<std::string_view>& digests,
                const std::function<void(std::string_view)>& fn) {
  std::vector<std::pair<uint64_t, uint64_t>> found;  // offset, hash
  for (const auto digest : digests) {
    const uint64_t hash = hash_of(digest);
    const Entry low{hash, 0}, high{hash, UINT64_MAX};
    if (table)
      for (auto it = std::lower_bound(table->begin(), table->end(), low);
           it != table->end() && !(high < *it); ++it)
        found.emplace_back(it->offset, hash);
    for (auto it = std::lower_bound(tail.begin(), tail.end(), low);
         it != tail.end() && !(high < *it); ++it)
      found.emplace_back(it->offset, hash);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  std::vector<std::string_view> wanted(digests);
  std::sort(wanted.begin(), wanted.end());
  std::vector<std::string> lines;
  lines.reserve(found.size());
  for (const auto& [offset, hash] : found) {
    std::string line = line_at(file, offset);
    const std::string digest = record_digest(line);
    if (digest.empty() || hash_of(digest) != hash) return false;
    // Another digest with the same hash: not asked for.
    if (!std::binary_search(wanted.begin(), wanted.end(), std::string_view(digest))) continue;
    lines.push_back(std::move(line));
  }
  for (const auto& line : lines) fn(line);
  return true;
}

}  // namespace

std::string record_digest(std::string_view line) {
  if (const auto digest = digest_of_line(line); !digest.empty()) return std::string(digest);
  const Json j = Json::parse(line, nullptr, false);
  if (j.is_object())
    if (const auto it = j.find("digest"); it != j.end() && it->is_string())
      return it->get<std::string>();
  return {};
}

fs::path analysis_offsets_file(const fs::path& analysis_jsonl) {
  return analysis_jsonl.string() + ".offsets";
}

void update_analysis_offsets(const fs::path& analysis_jsonl) {
  const File file(analysis_jsonl);
  if (!file) return;
  const fs::path path = analysis_offsets_file(analysis_jsonl);
  const Table table(path, file);
  const Table* valid = table.valid() ? &table : nullptr;
  const Tail tail = scan_tail(file, valid ? valid->covered() : 0);
  if (!valid || tail.covered != valid->covered())
    write_table(path, file, tail.covered, valid, tail.entries);
}

void for_each_analysis_line(const fs::path& analysis_jsonl,
                            const std::vector<std::string_view>& digests,
                            const std::function<void(std::string_view line)>& fn) {
  const File file(analysis_jsonl);
  if (!file) return;
  const fs::path path = analysis_offsets_file(analysis_jsonl);
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::optional<Table> table;
    if (attempt == 0) table.emplace(path, file);
    const Table* valid = table && table->valid() ? &*table : nullptr;
    Tail tail = scan_tail(file, valid ? valid->covered() : 0);
    if (!valid || tail.covered != valid->covered())
      write_table(path, file, tail.covered, valid, tail.entries);
    if (tail.torn) {  // passed as a scan would: indexed once its newline is written
      const std::string line = line_at(file, *tail.torn);
      if (const std::string digest = record_digest(line); !digest.empty())
        tail.entries.insert(std::upper_bound(tail.entries.begin(), tail.entries.end(),
                                             Entry{hash_of(digest), *tail.torn}),
                            Entry{hash_of(digest), *tail.torn});
    }
    if (read_lines(file, valid, tail.entries, digests, fn)) return;
    // The table did not describe the file (rewritten in place): made again from the whole file.
  }
  // The file changed under the second attempt too: a plain scan.
  std::vector<std::string_view> wanted(digests);
  std::sort(wanted.begin(), wanted.end());
  std::ifstream in(analysis_jsonl);
  for (std::string line; std::getline(in, line);)
    if (std::binary_search(wanted.begin(), wanted.end(), std::string_view(record_digest(line))))
      fn(line);
}

}  // namespace strata::analyze
