#include "cover/spill_sort.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace strata::cover {

SpillFolder::~SpillFolder() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void SpillFolder::create() {
  if (!path_.empty()) return;
  std::error_code ec;
  std::filesystem::path parent = parent_;
  if (parent.empty()) parent = std::filesystem::temp_directory_path(ec);
  if (ec) throw CoverError("no temporary folder for spilling the shingle index: " + ec.message());
  std::string pattern = (parent / "strata-cover-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw CoverError("cannot make a spill folder in " + parent.string() + ": " +
                     std::strerror(errno) + " (give a writable folder with --temp)");
  path_ = pattern;
}

std::filesystem::path SpillFolder::next_file() {
  create();
  return path_ / ("run-" + std::to_string(files_++) + ".lz4");
}

namespace spill_detail {

void write_run(const std::filesystem::path& file, std::string_view bytes) {
  try {
    merge::RunFileWriter out(file);
    for (size_t at = 0; at < bytes.size(); at += 1 << 16) out.write(bytes.substr(at, 1 << 16));
    out.end_frame();
    out.close();
  } catch (const std::runtime_error& e) {
    throw CoverError(std::string("spill: ") + e.what());
  }
}

RunReader::RunReader(const std::filesystem::path& file, size_t size_of_record)
    : record_size(size_of_record) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  if (ec) throw std::runtime_error("cannot read merge run " + file.string());
  reader = std::make_unique<merge::RunFileReader>(file, 0, bytes);
}

bool RunReader::next(char* to) {
  if (reader->at_end()) return false;
  reader->read(to, record_size);
  return true;
}

}  // namespace spill_detail
}  // namespace strata::cover
