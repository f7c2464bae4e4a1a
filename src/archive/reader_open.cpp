// Opening readers: files (plain/gzip/zstd/WACZ by magic bytes), memory, and single records.
#include <zip.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "archive/checkpoints.hpp"
#include "archive/locate.hpp"
#include "archive/reader_impl.hpp"

namespace strata::archive {
namespace {

bool is_archive_entry(std::string_view name) {
  for (std::string_view suffix : {".warc", ".warc.gz", ".warc.zst", ".arc", ".arc.gz"})
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix)
      return true;
  return false;
}

bool has_zip_magic(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && std::memcmp(magic, "PK\x03\x04", 4) == 0;
}

StreamProblem stream_problem(ArchiveReader::Impl* impl, ProblemSink sink) {
  return [impl, sink](uint64_t offset, const char* kind, const std::string& detail) {
    ++impl->stream_problems;
    if (sink) sink(Problem{impl->file, offset, kind, detail});
  };
}

std::unique_ptr<ArchiveReader> failed(std::unique_ptr<ArchiveReader::Impl> impl,
                                      const ProblemSink& sink, const char* kind,
                                      const std::string& detail) {
  impl->usable = false;
  if (sink) sink(Problem{impl->path, 0, kind, detail});
  return std::make_unique<ArchiveReader>(std::move(impl));
}

// Lists the archive entries of a WACZ (archive/*.warc.gz normally), in name order.
bool open_wacz(ArchiveReader::Impl& impl, std::string& error) {
  int code = 0;
  impl.zip = zip_open(impl.path.c_str(), ZIP_RDONLY, &code);
  if (!impl.zip) {
    zip_error_t err;
    zip_error_init_with_code(&err, code);
    error = zip_error_strerror(&err);
    zip_error_fini(&err);
    return false;
  }
  zip_int64_t n = zip_get_num_entries(impl.zip, 0);
  std::vector<std::pair<std::string, zip_uint64_t>> found;
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(impl.zip, static_cast<zip_uint64_t>(i), 0);
    if (name && is_archive_entry(name)) found.emplace_back(name, static_cast<zip_uint64_t>(i));
  }
  std::sort(found.begin(), found.end());
  for (const auto& entry : found) impl.entries.push_back(entry.second);
  return true;
}

}  // namespace

ArchiveReader::ArchiveReader(std::unique_ptr<Impl> impl, const ReaderOptions& options,
                             ProblemSink problems)
    : impl_(std::move(impl)), options_(options), problems_(std::move(problems)) {}

std::unique_ptr<ArchiveReader> ArchiveReader::open(const std::filesystem::path& path,
                                                   const ReaderOptions& options,
                                                   ProblemSink problems) {
  auto impl = std::make_unique<Impl>();
  impl->path = impl->file = path.string();
  std::string error;
  auto input = open_file_input(path, error);
  if (!input) return failed(std::move(impl), problems, "unreadable_file", error);
  uint64_t size = input->size();
  Impl* raw = impl.get();
  if (has_zip_magic(path)) {
    input.reset();
    if (!open_wacz(*impl, error)) return failed(std::move(impl), problems, "bad_wacz", error);
    if (impl->entries.empty())
      return failed(std::move(impl), problems, "bad_wacz", "no archive/*.warc entries");
  } else {
    impl->stream = std::make_unique<Stream>(std::move(input), stream_problem(raw, problems));
  }
  auto reader = std::make_unique<ArchiveReader>(std::move(impl));
  reader->options_ = options;
  reader->problems_ = std::move(problems);
  reader->file_size_ = size;
  return reader;
}

std::unique_ptr<ArchiveReader> ArchiveReader::open_memory(std::string_view data, std::string name,
                                                          const ReaderOptions& options,
                                                          ProblemSink problems) {
  auto impl = std::make_unique<Impl>();
  impl->path = impl->file = std::move(name);
  impl->stream = std::make_unique<Stream>(memory_input(data), stream_problem(impl.get(), problems));
  auto reader = std::make_unique<ArchiveReader>(std::move(impl));
  reader->options_ = options;
  reader->problems_ = std::move(problems);
  reader->file_size_ = data.size();
  return reader;
}

namespace {

// The raw bytes of `file`: a path, or "x.wacz#entry" read in place.
std::unique_ptr<Input> open_raw(ArchiveReader::Impl& impl, const std::string& file,
                                std::string& error) {
  impl.path = container_of(file);
  if (impl.path == file) return open_file_input(file, error);
  if (!impl.zip && !open_wacz(impl, error)) return nullptr;
  zip_int64_t index = zip_name_locate(impl.zip, file.c_str() + impl.path.size() + 1, 0);
  if (index < 0) {
    error = "no such entry";
    return nullptr;
  }
  return zip_entry_input(impl.zip, static_cast<zip_uint64_t>(index), error);
}

// A reader on the record that starts exactly at `offset` of `input` (positioned there);
// nullptr when none does.
std::unique_ptr<ArchiveReader> reader_at(std::unique_ptr<ArchiveReader::Impl> impl,
                                         std::unique_ptr<Input> input, uint64_t offset,
                                         const std::string& dictionary,
                                         const ReaderOptions& options, ProblemSink problems) {
  ArchiveReader::Impl* raw = impl.get();
  impl->stream = std::make_unique<Stream>(std::move(input), stream_problem(raw, problems), offset);
  if (!dictionary.empty() && impl->stream->codec() == Codec::zstd &&
      !impl->stream->load_zstd_dictionary(dictionary) && problems)
    problems(Problem{impl->file, 0, "bad_zstd_dictionary", "dictionary frame not usable"});
  auto reader = std::make_unique<ArchiveReader>(std::move(impl), options, std::move(problems));
  if (!reader->next() || reader->record().offset != offset) return nullptr;
  return reader;
}

std::string checkpoint_cache_key(const std::string& file, const std::string& container) {
  std::error_code ec;
  auto size = std::filesystem::file_size(container, ec);
  auto mtime = std::filesystem::last_write_time(container, ec).time_since_epoch().count();
  return file + '\n' + std::to_string(size) + '\n' + std::to_string(mtime);
}

// A record of a whole-file gzip/zstd archive by its offset in the decoded stream.
std::unique_ptr<ArchiveReader> decoded_record_at(const std::string& file, uint64_t offset,
                                                 const ReaderOptions& options,
                                                 ProblemSink problems) {
  auto impl = std::make_unique<ArchiveReader::Impl>();
  impl->file = file;
  impl->single = true;
  ArchiveReader::Impl* raw = impl.get();
  std::string error;
  auto open = [raw, &file, &error] { return open_raw(*raw, file, error); };
  auto index = cached_checkpoints(checkpoint_cache_key(file, container_of(file)), open, error);
  std::unique_ptr<Input> input;
  if (index && offset < index->decoded_size) {
    auto decoded = decoded_input(open(), *index, index->before(offset), error);
    if (decoded && decoded->seek(offset)) input = std::move(decoded);
  }
  if (!input) {
    if (problems)
      problems(Problem{file, offset, "unreadable_file",
                       error.empty() ? "no record at this decoded offset" : error});
    return nullptr;
  }
  return reader_at(std::move(impl), std::move(input), offset, {}, options, std::move(problems));
}

}  // namespace

std::unique_ptr<ArchiveReader> read_record_at(const std::string& file, uint64_t offset,
                                              const ReaderOptions& options, ProblemSink problems) {
  auto impl = std::make_unique<ArchiveReader::Impl>();
  impl->file = file;
  impl->single = true;
  std::string error;
  std::unique_ptr<Input> input = open_raw(*impl, file, error);
  if (!input) {
    if (problems) problems(Problem{file, offset, "unreadable_file", error});
    return nullptr;
  }
  // Per-record members (and plain files) are located by their disk offset; records inside a
  // shared member (whole-file compression) by their decoded offset (Record::location()).
  const Codec codec = sniff_codec(*input);
  const bool member_here =
      codec == Codec::plain || offset == 0 || (input->seek(offset) && sniff_codec(*input) == codec);
  if (member_here && input->seek(0)) {
    // zstd WARCs with a dictionary keep it in a frame at the start of the file.
    std::string dictionary = offset > 0 ? read_zstd_dictionary_frame(*input) : std::string();
    if (!input->seek(offset)) {
      if (problems) problems(Problem{file, offset, "unreadable_file", "cannot seek to the record"});
      return nullptr;
    }
    auto reader =
        reader_at(std::move(impl), std::move(input), offset, dictionary, options, problems);
    if (reader || codec == Codec::plain) return reader;
  }
  return decoded_record_at(file, offset, options, std::move(problems));
}

}  // namespace strata::archive
