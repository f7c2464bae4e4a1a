#pragma once
// An Internet Archive book item on disk: a folder named after the identifier holding
// `PREFIX_abbyy.gz` (or `_abbyy.xml`), `PREFIX_scandata.xml` (or `scandata.xml`), the page
// images `PREFIX_jp2.zip` (else `_jpg.zip`, else `_tif.zip`) and `PREFIX_meta.xml`. PREFIX is
// usually the identifier but need not be ("PMLP09691-morley_1597"). Page images are read in place
// from their ZIP, one member at a time, never unpacked to disk.
//
// Failure contract: ItemError (with the file and byte offset) for an unreadable file, a
// truncated gzip stream or a ZIP libzip cannot open; a missing member is not an error
// (PageImages::has).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace strata::books {

class ItemError : public std::runtime_error {
 public:
  ItemError(const std::string& what, std::string file, uint64_t offset = 0)
      : std::runtime_error(what), file_(std::move(file)), offset_(offset) {}
  const std::string& file() const { return file_; }
  uint64_t offset() const { return offset_; }

 private:
  std::string file_;
  uint64_t offset_;
};

struct ItemFiles {
  std::string identifier;    // the folder's name
  std::string image_prefix;  // the images ZIP's name without `_jp2.zip` (seed: IMAGEINFILE)
  std::filesystem::path abbyy, scandata, images, meta;  // empty when absent
};

ItemFiles locate_item(const std::filesystem::path& folder);

// Reads a gzip or plain file in chunks (`chunk` decoded bytes at most), handing each over.
void read_decoded(const std::filesystem::path& path,
                  const std::function<void(std::string_view)>& chunk);

std::string read_whole(const std::filesystem::path& path);

// The page images ZIP: members named `..._NNNN.jp2|jpg|jpeg|tif|tiff` by leaf number.
class PageImages {
 public:
  explicit PageImages(const std::filesystem::path& zip);
  ~PageImages();
  PageImages(const PageImages&) = delete;
  PageImages& operator=(const PageImages&) = delete;

  bool has(int leaf) const { return members_.count(leaf) > 0; }
  const std::string& member_name(int leaf) const;
  std::string read(int leaf);  // the member's bytes
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t members() const { return members_.size(); }

 private:
  struct Member {
    uint64_t index = 0;
    std::string name;
  };
  std::string path_;
  void* zip_ = nullptr;
  std::map<int, Member> members_;
  uint64_t bytes_read_ = 0;
};

enum class PageFormat { jp2, jpeg, tiff, unknown };
PageFormat page_format_of(std::string_view bytes);

}  // namespace strata::books
