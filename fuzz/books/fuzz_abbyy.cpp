// The streamed Abbyy reader on arbitrary bytes, fed in two pieces; and the seed's line rules
// (books/compat.hpp) on the same bytes as an Abbyy file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "books/abbyy.hpp"
#include "books/compat.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata::books;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  size_t blocks = 0;
  try {
    AbbyyReader reader([&](AbbyyPage&& page) {
      for (const Block& b : page.blocks)
        if (b.text.size() > kMaxBlockText) __builtin_trap();  // the cap holds
      blocks += page.blocks.size();
    });
    reader.feed(bytes.substr(0, size / 2));
    reader.feed(bytes.substr(size / 2));
    reader.finish();
  } catch (const AbbyyError&) {
  }
  CompatBook book("id", "id", compat_scandata(bytes));
  book.feed(bytes);
  book.finish();
  for (const CompatImage& image : book.images())
    if (image.box.width() <= 200 || image.box.height() <= 200) __builtin_trap();
  return 0;
}
