// Book page and book chapter records (extract/book_page.hpp) on arbitrary payloads: nullopt
// or a reference whose image and page URLs are set, nullopt or a chapter whose facts are an
// object; never a throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/book_page.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata::extract;
  PageInput where{"https://archive.org/download/id/id_jp2.zip/id_0001.jp2?xywh=1,2,3,4",
                  "20110324120000",
                  "books",
                  "books.warc.gz",
                  0,
                  0,
                  std::string_view(reinterpret_cast<const char*>(data), size)};
  const auto ref = book_page_reference(where);
  if (ref && (ref->imgUrl.empty() || ref->pageUrl.empty() || ref->book.empty())) __builtin_trap();
  const auto chapter = book_chapter(where.html);
  if (chapter && !chapter->book.starts_with('{')) __builtin_trap();
  return 0;
}
