// Captions of every <img> of an arbitrary page, and trim250 on its text.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "extract/caption.hpp"
#include "extract/html_dom.hpp"
#include "extract/html_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata::extract;
  HtmlDocument doc(std::string_view(reinterpret_cast<const char*>(data), size));
  CaptionExtractor captions;
  std::vector<const GumboNode*> stack{doc.root()};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    if (is_tag(n, GUMBO_TAG_IMG)) {
      auto c = captions.caption(n);
      if (c && c->size() > 4 * 260) __builtin_trap();  // trim250 bounds every caption
    }
    const GumboVector& kids = children(n);
    for (unsigned i = 0; i < kids.length; ++i) stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  trim250(node_text(doc.root()));
  return 0;
}
