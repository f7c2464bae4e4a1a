#include "extract/html_dom.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

namespace strata::extract {

namespace {
constexpr size_t kMinBlock = 64 * 1024;
constexpr size_t kAlign = alignof(std::max_align_t);

void* arena_allocate(void* arena, size_t bytes) {
  return static_cast<ParseArena*>(arena)->allocate(bytes);
}
void arena_free(void*, void*) {}  // the arena frees everything at once
}  // namespace

ParseArena::ParseArena(size_t first_block) {
  size_t size = std::max(kMinBlock, first_block);
  blocks_.emplace_back(new std::byte[size]);
  next_ = blocks_.back().get();
  left_ = size;
  reserved_ = size;
}

void* ParseArena::allocate(size_t bytes) {
  bytes = (std::max<size_t>(bytes, 1) + kAlign - 1) & ~(kAlign - 1);
  if (bytes > left_) {
    // Blocks double (bounded waste, few blocks); an oversized request gets its own.
    size_t size = std::max(bytes, std::max(kMinBlock, reserved_));
    blocks_.emplace_back(new std::byte[size]);
    next_ = blocks_.back().get();
    left_ = size;
    reserved_ += size;
  }
  void* out = next_;
  next_ += bytes;
  left_ -= bytes;
  return out;
}

namespace {
constexpr std::string_view kCdataOpen = "<![CDATA[";
// The same length, and a bogus comment to the tokenizer (header: why).
constexpr std::string_view kCdataNeutral = "<!-CDATA[";
static_assert(kCdataOpen.size() == kCdataNeutral.size());
}  // namespace

// The first block is sized on the page: gumbo's tree takes a few times the HTML's bytes.
HtmlDocument::HtmlDocument(std::string_view html) : arena_(html.size() * 4), source_(html) {
  if (size_t at = html.find(kCdataOpen); at != std::string_view::npos) {
    without_cdata_.assign(html);
    for (; at != std::string::npos; at = without_cdata_.find(kCdataOpen, at))
      without_cdata_.replace(at, kCdataNeutral.size(), kCdataNeutral);
    source_ = without_cdata_;
  }
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = arena_allocate;
  options.deallocator = arena_free;
  options.userdata = &arena_;
  // Parse errors are of no use to us and on broken pages they cost memory and time.
  options.max_errors = 0;
  output_ = gumbo_parse_with_options(&options, source_.data(), source_.size());
}

// No gumbo_destroy_output: every byte of the tree lives in arena_.
HtmlDocument::~HtmlDocument() = default;

std::string tag_name(const GumboNode* n) {
  if (!is_element(n)) return {};
  const GumboElement& e = n->v.element;
  std::string name;
  if (e.tag != GUMBO_TAG_UNKNOWN) {
    name = gumbo_normalized_tagname(e.tag);
  } else {
    GumboStringPiece piece = e.original_tag;
    gumbo_tag_from_original_text(&piece);
    name.assign(piece.data, piece.length);
    for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  return name;
}

const char* attribute(const GumboNode* n, const char* name) {
  if (!is_element(n)) return nullptr;
  const GumboAttribute* a = gumbo_get_attribute(&n->v.element.attributes, name);
  return a ? a->value : nullptr;
}

const GumboVector& children(const GumboNode* n) {
  return n->type == GUMBO_NODE_DOCUMENT ? n->v.document.children : n->v.element.children;
}

namespace {
const GumboNode* element_sibling(const GumboNode* n, int step) {
  const GumboNode* parent = n->parent;
  if (!parent) return nullptr;
  const GumboVector& kids = children(parent);
  for (long i = static_cast<long>(n->index_within_parent) + step;
       i >= 0 && i < static_cast<long>(kids.length); i += step) {
    auto* c = static_cast<const GumboNode*>(kids.data[i]);
    if (is_element(c)) return c;
  }
  return nullptr;
}
}  // namespace

const GumboNode* previous_element_sibling(const GumboNode* n) {
  return element_sibling(n, -1);
}
const GumboNode* next_element_sibling(const GumboNode* n) {
  return element_sibling(n, +1);
}

std::string normalise_whitespace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (unsigned char c : s) {
    if (c <= 0x20) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(static_cast<char>(c));
  }
  return out;
}

std::string document_title(const GumboNode* root) {
  // Iterative DFS: tag soup can nest deeper than the stack allows for recursion.
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (is_tag(n, GUMBO_TAG_TITLE)) {
      std::string text;
      const GumboVector& kids = children(n);
      for (unsigned i = 0; i < kids.length; ++i) {
        auto* c = static_cast<const GumboNode*>(kids.data[i]);
        if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE) text += c->v.text.text;
      }
      return normalise_whitespace(text);
    }
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    const GumboVector& kids = children(n);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  return {};
}

}  // namespace strata::extract
