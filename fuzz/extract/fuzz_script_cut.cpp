// Differential: a page parsed without its script contents (PageDocument) must give the tree
// of the page parsed as it is, less the text inside HTML <script> elements.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "extract/html_dom.hpp"
#include "extract/html_script_cut.hpp"

namespace {
using namespace strata::extract;

bool same_attributes(const GumboVector& a, const GumboVector& b) {
  if (a.length != b.length) return false;
  for (unsigned i = 0; i < a.length; ++i) {
    auto* x = static_cast<const GumboAttribute*>(a.data[i]);
    auto* y = static_cast<const GumboAttribute*>(b.data[i]);
    if (std::strcmp(x->name, y->name) != 0 || std::strcmp(x->value, y->value) != 0) return false;
  }
  return true;
}

bool same_node(const GumboNode* a, const GumboNode* b) {
  if (a->type != b->type) return false;
  if (a->type == GUMBO_NODE_DOCUMENT) return a->v.document.has_doctype == b->v.document.has_doctype;
  if (!is_element(a)) return std::strcmp(a->v.text.text, b->v.text.text) == 0;
  return a->v.element.tag == b->v.element.tag &&
         a->v.element.tag_namespace == b->v.element.tag_namespace && tag_name(a) == tag_name(b) &&
         same_attributes(a->v.element.attributes, b->v.element.attributes);
}

bool same_tree_less_script_text(const GumboNode* cut, const GumboNode* whole) {
  std::vector<std::pair<const GumboNode*, const GumboNode*>> stack{{cut, whole}};
  while (!stack.empty()) {
    auto [a, b] = stack.back();
    stack.pop_back();
    if (!same_node(a, b)) return false;
    if (a->type != GUMBO_NODE_DOCUMENT && !is_element(a)) continue;
    const GumboVector& x = children(a);
    const GumboVector& y = children(b);
    if (is_tag(a, GUMBO_TAG_SCRIPT) && a->v.element.tag_namespace == GUMBO_NAMESPACE_HTML)
      continue;  // its text is what was cut
    if (x.length != y.length) return false;
    for (unsigned i = 0; i < x.length; ++i)
      stack.push_back(
          {static_cast<const GumboNode*>(x.data[i]), static_cast<const GumboNode*>(y.data[i])});
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view html(reinterpret_cast<const char*>(data), size);
  PageDocument page(html);
  HtmlDocument whole(html);
  if (!same_tree_less_script_text(page.root(), whole.root())) __builtin_trap();
  return 0;
}
