// Differential: references found from a page's prefix (html_prefix.hpp) must be the ones
// found from the whole page. The input is a page head; a long listing without references and
// the input's second half again follow it, so that most inputs have a prefix to try.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "extract/html_refs.hpp"

namespace {
using namespace strata::extract;

std::string describe(const PageRefs& p) {
  std::string out = p.title + "\n" + p.base_url + "\n" + std::to_string(p.images_in_page) + "\n";
  for (const HtmlRef& r : p.refs)
    out += r.tag + " " + r.url + " " + r.alt + " " + r.title + " " + r.caption + " " +
           std::string(position_name(r.position)) + "\n";
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string html(input);
  for (int i = 0; i < 60; ++i) html += "<tr><td><a href=\"/p?id=1\">Re: post</a></td><td>2</td>\n";
  if (!input.empty()) html += input.substr(input.size() / 2);  // the input's end again
  strata::Counters c1, c2;
  RefOptions prefix, whole;
  prefix.max_images = whole.max_images = 200;
  whole.parse_prefix = false;
  if (describe(find_references("http://example.com/a/b.html", html, prefix, c1)) !=
      describe(find_references("http://example.com/a/b.html", html, whole, c2)))
    __builtin_trap();
  return 0;
}
