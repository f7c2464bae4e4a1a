// Page sketches take any bytes: sketch_html and sketch_text never crash, a sketch's text form
// reads back to the same sketch, any other text is either refused or reads back to a sketch
// that prints as exactly that text, and the estimate stays in [0, 1].
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "similar/page_sketch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  using namespace strata::similar;
  auto html = sketch_html(bytes);
  auto text = sketch_text(bytes);
  for (const auto& s : {html, text}) {
    if (!s) continue;
    if (s->shingles == 0 || decode_page_sketch(encode_page_sketch(*s)) != s) __builtin_trap();
  }
  if (html && text) {
    double j = estimated_jaccard(*html, *text);
    if (!(j >= 0 && j <= 1)) __builtin_trap();
    const PageSketch* pages[] = {&*html, &*text, nullptr};
    if (page_groups(pages).size() != 3) __builtin_trap();
  }
  if (auto read = decode_page_sketch(bytes); read && encode_page_sketch(*read) != bytes)
    __builtin_trap();
  return 0;
}
