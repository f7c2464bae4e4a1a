#include "books/item_zip.hpp"

#include <zip.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "books/item.hpp"

namespace strata::books {
namespace fs = std::filesystem;
namespace {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct FileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Copies member `index` to `to` in chunks.
void copy_member(zip_t* zip, zip_uint64_t index, const std::string& name, const fs::path& to,
                 const std::string& zip_path) {
  std::unique_ptr<zip_file_t, FileCloser> in(zip_fopen_index(zip, index, 0));
  if (!in) throw ItemError(std::string("zip: ") + zip_strerror(zip) + " " + name, zip_path);
  std::ofstream out(to, std::ios::binary);
  std::vector<char> buffer(1 << 20);
  for (;;) {
    const zip_int64_t got = zip_fread(in.get(), buffer.data(), buffer.size());
    if (got < 0) throw ItemError("zip: cannot read " + name, zip_path);
    if (got == 0) break;
    out.write(buffer.data(), got);
  }
  if (!out) throw ItemError("cannot write " + to.string(), zip_path);
}

}  // namespace

bool is_item_zip(const fs::path& path) {
  std::string name = path.filename().string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::error_code ec;
  return ends_with(name, ".zip") && !ends_with(name, "_jp2.zip") && !ends_with(name, "_jpg.zip") &&
         !ends_with(name, "_tif.zip") && fs::is_regular_file(path, ec);
}

fs::path unpack_item_zip(const fs::path& zip_path, const fs::path& scratch) {
  int code = 0;
  std::unique_ptr<zip_t, ZipCloser> zip(zip_open(zip_path.c_str(), ZIP_RDONLY, &code));
  if (!zip)
    throw ItemError("zip: cannot open (libzip error " + std::to_string(code) + ")",
                    zip_path.string());
  const fs::path folder = scratch / zip_path.stem();
  std::error_code ec;
  fs::remove_all(folder, ec);
  fs::create_directories(folder, ec);
  if (ec) throw ItemError("cannot create " + folder.string(), zip_path.string());
  const zip_int64_t n = zip_get_num_entries(zip.get(), 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(zip.get(), static_cast<zip_uint64_t>(i), 0);
    if (!name || ends_with(name, "/")) continue;  // folders
    const fs::path file = fs::path(name).filename();
    if (file.empty() || file == "." || file == "..") continue;
    copy_member(zip.get(), static_cast<zip_uint64_t>(i), name, folder / file, zip_path.string());
  }
  return folder;
}

}  // namespace strata::books
