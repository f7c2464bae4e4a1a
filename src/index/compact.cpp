#include "index/compact.hpp"

#include <xapian.h>

#include <stdexcept>

namespace strata::index {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTermlistTable = "termlist.glass";

bool is_table_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return p.extension() == ".glass" || name == "iamglass" || name == "flintlock" ||
         name.rfind("changes", 0) == 0;
}

uint64_t table_bytes(const fs::path& dir) {
  uint64_t sum = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && is_table_file(e.path())) sum += e.file_size();
  return sum;
}

// Hard links (no copy of the thumbnails) where the file system allows, copies otherwise.
void link_or_copy(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::create_hard_links, ec);
  if (ec) fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

}  // namespace

CompactReport compact_index(const fs::path& from, const fs::path& to, CompactMode mode) {
  CompactReport report = compact_index(std::vector<fs::path>{from}, to);
  if (mode == CompactMode::serving) {
    report.bytes_after -= fs::file_size(to / kTermlistTable);
    fs::remove(to / kTermlistTable);  // as constants.h says: the copy then has no termlist
  }
  return report;
}

bool is_serving_copy(const fs::path& dir) {
  return fs::exists(dir / "iamglass") && !fs::exists(dir / kTermlistTable);
}

CompactReport compact_index(const std::vector<fs::path>& from, const fs::path& to) {
  if (fs::exists(to)) throw std::runtime_error(to.string() + " already exists");
  if (from.empty()) throw std::runtime_error("nothing to compact into " + to.string());
  fs::path partial = to;
  partial += ".partial";
  fs::remove_all(partial);
  CompactReport report;
  {
    Xapian::Database db;
    for (const fs::path& source : from) {
      if (!fs::exists(source / "iamglass"))
        throw std::runtime_error(source.string() + " is not an index");
      db.add_database(Xapian::Database(source.string()));
      report.bytes_before += table_bytes(source);
    }
    report.documents = db.get_doccount();
    db.compact(partial.string());
  }
  for (const auto& e : fs::directory_iterator(from.front())) {
    if (is_table_file(e.path())) continue;
    // The record store (src/store) is written in place: each index needs its own copy.
    if (e.path().filename().string().rfind("records.sqlite", 0) == 0)
      fs::copy_file(e.path(), partial / e.path().filename());
    else
      link_or_copy(e.path(), partial / e.path().filename());
  }
  report.bytes_after = table_bytes(partial);
  fs::rename(partial, to);
  return report;
}

}  // namespace strata::index
