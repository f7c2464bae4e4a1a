#include "cdx/index_file.hpp"

#include "archive/reader.hpp"
#include "cdx/cdxj.hpp"

namespace strata::cdx {

std::vector<std::string> index_file(const std::filesystem::path& path, ProblemSink problems) {
  archive::ReaderOptions options;
  auto reader = archive::ArchiveReader::open(path, options, std::move(problems));
  std::string filename = path.filename().string();
  std::vector<std::string> lines;
  while (reader->next()) {
    if (!indexed(reader->record())) continue;
    // Record::length is final only once the whole record has been consumed.
    reader->finish_record();
    lines.push_back(cdxj_line(reader->record(), filename));
  }
  return lines;
}

}  // namespace strata::cdx
