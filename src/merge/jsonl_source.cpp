#include "merge/jsonl_source.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string_view>

#include "merge/record_reader.hpp"

namespace fs = std::filesystem;

namespace strata::merge {
namespace {

constexpr uint64_t kMinPieceBytes = uint64_t{16} << 20;
constexpr unsigned kPiecesPerWorker = 4;
constexpr size_t kBlockBytes = size_t{1} << 20;

// The bytes [begin, end) of a file: whole lines, `begin` at a line start.
struct Piece {
  fs::path file;
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;
};

void report(const JsonlReading& reading, const Piece& piece, uint64_t offset, const char* kind,
            std::string detail) {
  if (reading.problems) reading.problems({piece.file.string(), offset, kind, std::move(detail)});
}

// Parses a piece's lines into records for `emit`; lines that are not records are counted and
// reported.
class PieceReader {
 public:
  PieceReader(const Piece& piece, const JsonlReading& reading, const RecordEmit& emit)
      : piece_(piece), reading_(reading), emit_(emit) {}

  void run(Counters& counters) {
    std::ifstream in(piece_.file, std::ios::binary);
    if (!in || !in.seekg(static_cast<std::streamoff>(piece_.begin))) {
      counters.add("input_files_unreadable");
      return report(reading_, piece_, piece_.begin, "unreadable_file", "cannot open");
    }
    read_blocks(in);
    if (malformed_) counters.add("lines_malformed", malformed_);
    if (not_records_) counters.add("lines_not_records", not_records_);
  }

 private:
  // Reads a block at a time; a line cut by the block's end is moved to the front and completed
  // by the next read (the buffer grows for a line longer than itself).
  void read_blocks(std::ifstream& in) {
    std::vector<char> buffer(kBlockBytes);
    uint64_t base = piece_.begin;  // file offset of buffer[0]
    uint64_t left = piece_.end - piece_.begin;
    size_t held = 0;
    for (bool last = false; !last;) {
      if (held == buffer.size()) buffer.resize(buffer.size() * 2);
      size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size() - held, left));
      in.read(buffer.data() + held, static_cast<std::streamsize>(want));
      size_t got = static_cast<size_t>(in.gcount());
      held += got;
      left -= got;
      last = left == 0 || got < want;
      size_t used = lines(std::string_view(buffer.data(), held), base, last);
      if (reading_.on_progress) reading_.on_progress(used, lines_ - lines_told_);
      lines_told_ = lines_;
      std::memmove(buffer.data(), buffer.data() + used, held - used);
      base += used;
      held -= used;
    }
  }

  // Reads the whole lines of `text` (and, when `last`, the unfinished one at its end); returns
  // the bytes used.
  size_t lines(std::string_view text, uint64_t base, bool last) {
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string_view::npos; start = end + 1)
      line(text.substr(start, end - start), base + start);
    if (!last || start == text.size()) return start;
    line(text.substr(start), base + start);
    return text.size();
  }

  void line(std::string_view text, uint64_t offset) {
    ++lines_;
    if (text.empty()) return;
    switch (reader_.read(text, record_)) {
      case RecordReader::Result::record:
        return emit_(record_);
      case RecordReader::Result::not_record:
        ++not_records_;
        return report(reading_, piece_, offset, "not_a_record", "");
      case RecordReader::Result::malformed:
        ++malformed_;
        return report(reading_, piece_, offset, "malformed_json", reader_.error());
    }
  }

  const Piece& piece_;
  const JsonlReading& reading_;
  const RecordEmit& emit_;
  RecordReader reader_;
  Record record_;
  uint64_t lines_ = 0, lines_told_ = 0;
  // Counted once at the end: a Counters lookup per line shows in profiles.
  int64_t malformed_ = 0, not_records_ = 0;
};

Source source_of(Piece piece, const JsonlReading& reading) {
  return [piece = std::move(piece), reading](const RecordEmit& emit, Counters& counters) {
    PieceReader(piece, reading, emit).run(counters);
  };
}

// The first line start at or after `at` (`size` when there is none).
uint64_t line_start_from(std::ifstream& in, uint64_t at, uint64_t size) {
  if (at == 0) return 0;
  in.clear();
  in.seekg(static_cast<std::streamoff>(at - 1));
  char block[4096];
  for (uint64_t offset = at - 1; offset < size; offset += sizeof block) {
    in.read(block, sizeof block);
    auto got = static_cast<size_t>(in.gcount());
    if (const void* newline = std::memchr(block, '\n', got))
      return offset + static_cast<uint64_t>(static_cast<const char*>(newline) - block) + 1;
    if (got < sizeof block) break;
  }
  return size;
}

}  // namespace

std::vector<Source> jsonl_file_sources(const fs::path& file, unsigned workers,
                                       const JsonlReading& reading) {
  std::error_code ec;
  uint64_t size = fs::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  uint64_t pieces = ec || !in ? 1
                              : std::clamp<uint64_t>(size / kMinPieceBytes, 1,
                                                     uint64_t{workers} * kPiecesPerWorker);
  std::vector<Source> sources;
  uint64_t begin = 0;
  for (uint64_t i = 1; i <= pieces && begin < size; ++i) {
    uint64_t end = i == pieces ? size : line_start_from(in, size / pieces * i, size);
    if (end <= begin) continue;
    sources.push_back(source_of({file, begin, end}, reading));
    begin = end;
  }
  if (sources.empty()) sources.push_back(source_of({file}, reading));  // empty or unreadable
  return sources;
}

Source jsonl_file_source(fs::path file, const JsonlReading& reading) {
  return source_of({std::move(file)}, reading);
}

}  // namespace strata::merge
