#include "books/item.hpp"

#include <zip.h>
#include <zlib.h>

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace strata::books {
namespace fs = std::filesystem;
namespace {

bool ends_with_icase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
      return false;
  return true;
}

// "x/PREFIX_0012.jp2" -> 12; -1 when the name is no page image.
int leaf_of_member(std::string_view name) {
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return -1;
  const auto ext = name.substr(dot);
  if (!ends_with_icase(ext, ".jp2") && !ends_with_icase(ext, ".jpg") &&
      !ends_with_icase(ext, ".jpeg") && !ends_with_icase(ext, ".tif") &&
      !ends_with_icase(ext, ".tiff"))
    return -1;
  size_t start = dot;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1]))) --start;
  if (start == dot || start == 0 || name[start - 1] != '_' || dot - start > 6) return -1;
  return std::stoi(std::string(name.substr(start, dot - start)));
}

}  // namespace

ItemFiles locate_item(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw ItemError("not an item folder", folder.string());
  ItemFiles item;
  item.identifier = fs::absolute(folder).lexically_normal().filename().string();
  if (item.identifier.empty())
    item.identifier = fs::absolute(folder).parent_path().filename().string();
  fs::path jpg, tif;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (ends_with_icase(name, "_abbyy.gz") || ends_with_icase(name, "_abbyy.xml"))
      item.abbyy = entry.path();
    else if (ends_with_icase(name, "scandata.xml"))
      item.scandata = entry.path();
    else if (ends_with_icase(name, "_jp2.zip"))
      item.images = entry.path();
    else if (ends_with_icase(name, "_jpg.zip"))
      jpg = entry.path();
    else if (ends_with_icase(name, "_tif.zip"))
      tif = entry.path();
    else if (ends_with_icase(name, "_meta.xml"))
      item.meta = entry.path();
  }
  if (item.images.empty()) item.images = jpg;  // the seed prefers JPEG; JP2 is the better scan
  if (item.images.empty()) item.images = tif;
  if (!item.images.empty()) {
    const std::string name = item.images.filename().string();
    item.image_prefix = name.substr(0, name.size() - std::strlen("_jp2.zip"));
  }
  return item;
}

void read_decoded(const fs::path& path, const std::function<void(std::string_view)>& chunk) {
  gzFile in = gzopen(path.c_str(), "rb");
  if (!in) throw ItemError("cannot open", path.string());
  gzbuffer(in, 1 << 17);
  std::string buffer(1 << 18, '\0');
  uint64_t offset = 0;
  for (;;) {
    const int n = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n < 0) {
      int code = 0;
      const std::string why = gzerror(in, &code);
      gzclose(in);
      throw ItemError("gzip: " + why, path.string(), offset);
    }
    if (n == 0) break;
    chunk(std::string_view(buffer.data(), static_cast<size_t>(n)));
    offset += static_cast<uint64_t>(n);
  }
  int code = 0;
  gzerror(in, &code);
  gzclose(in);
  if (code != Z_OK) throw ItemError("truncated gzip stream", path.string(), offset);
}

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ItemError("cannot open", path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return std::move(out).str();
}

PageImages::PageImages(const fs::path& zip) : path_(zip.string()) {
  int code = 0;
  zip_ = zip_open(path_.c_str(), ZIP_RDONLY, &code);
  if (!zip_) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    const std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw ItemError("zip: " + why, path_);
  }
  auto* archive = static_cast<zip_t*>(zip_);
  const zip_int64_t n = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(archive, static_cast<zip_uint64_t>(i), 0);
    const int leaf = name ? leaf_of_member(name) : -1;
    if (leaf >= 0) members_.try_emplace(leaf, Member{static_cast<uint64_t>(i), name});
  }
}

PageImages::~PageImages() {
  zip_discard(static_cast<zip_t*>(zip_));
}

const std::string& PageImages::member_name(int leaf) const {
  return members_.at(leaf).name;
}

std::string PageImages::read(int leaf) {
  const Member& member = members_.at(leaf);
  auto* archive = static_cast<zip_t*>(zip_);
  zip_stat_t st;
  if (zip_stat_index(archive, member.index, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw ItemError("zip: cannot stat " + member.name, path_);
  zip_file_t* file = zip_fopen_index(archive, member.index, 0);
  if (!file)
    throw ItemError(std::string("zip: ") + zip_strerror(archive) + " " + member.name, path_);
  std::string bytes(st.size, '\0');
  const zip_int64_t got = zip_fread(file, bytes.data(), bytes.size());
  const std::string why = got < 0 ? zip_file_strerror(file) : "short read";
  zip_fclose(file);
  if (got != static_cast<zip_int64_t>(bytes.size()))
    throw ItemError("zip: " + member.name + ": " + why, path_);
  bytes_read_ += (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : st.size;
  return bytes;
}

PageFormat page_format_of(std::string_view bytes) {
  if (bytes.size() >= 12 && std::memcmp(bytes.data(), "\x00\x00\x00\x0CjP  ", 8) == 0)
    return PageFormat::jp2;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "\xFF\x4F\xFF\x51", 4) == 0)
    return PageFormat::jp2;
  if (bytes.size() >= 3 && std::memcmp(bytes.data(), "\xFF\xD8\xFF", 3) == 0)
    return PageFormat::jpeg;
  if (bytes.size() >= 4 &&
      (std::memcmp(bytes.data(), "II*\0", 4) == 0 || std::memcmp(bytes.data(), "MM\0*", 4) == 0))
    return PageFormat::tiff;
  return PageFormat::unknown;
}

}  // namespace strata::books
