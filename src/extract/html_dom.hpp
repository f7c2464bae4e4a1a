#pragma once
// A parsed HTML5 document (gumbo) and the small tree helpers the extraction code needs.
// Gumbo follows the WHATWG tree-construction rules, so tag soup always yields a tree and
// never throws; this wrapper only owns the result and hides gumbo's C types where cheap.
// One exception, worked around here: Debian's libgumbo keeps its assertions, and a CDATA
// section in foreign content inside a table (`<table><math><mi><![CDATA[>]]>`, found by
// fuzz_script_cut) fails one and aborts the process. Such a page is parsed from a copy in
// which every `<![CDATA[` reads `<!-CDATA[` (same length, so positions hold): a bogus
// comment, as gumbo already parses it outside SVG and MathML; only the CDATA text of SVG
// or MathML is lost, which describes no image.
#include <gumbo.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata::extract {

// Bump allocator for one parse. Gumbo makes a small allocation per node, attribute and
// string and frees them all at the end: bumping a pointer and dropping whole blocks replaces
// those malloc/free calls and the tree walk of gumbo_destroy_output. Gumbo's freed
// temporaries are not reused, which costs at most a small multiple of the page size.
class ParseArena {
 public:
  explicit ParseArena(size_t first_block);
  void* allocate(size_t bytes);
  size_t reserved() const { return reserved_; }  // bytes in blocks

 private:
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::byte* next_ = nullptr;
  size_t left_ = 0;
  size_t reserved_ = 0;
};

class HtmlDocument {
 public:
  explicit HtmlDocument(std::string_view html);
  ~HtmlDocument();
  HtmlDocument(const HtmlDocument&) = delete;
  HtmlDocument& operator=(const HtmlDocument&) = delete;

  const GumboNode* root() const { return output_->document; }
  // The text gumbo parsed: the page, or its copy without CDATA sections (above). Positions
  // and pointers in the tree refer to it.
  std::string_view source() const { return source_; }
  bool has_doctype() const { return output_->document->v.document.has_doctype; }
  size_t arena_bytes() const { return arena_.reserved(); }

 private:
  ParseArena arena_;  // owns every byte of output_
  std::string without_cdata_;  // the page's copy, when it had a CDATA section
  std::string_view source_;
  GumboOutput* output_;
};

// True for element and template nodes (both carry a GumboElement).
inline bool is_element(const GumboNode* n) {
  return n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE;
}
inline bool is_tag(const GumboNode* n, GumboTag tag) {
  return is_element(n) && n->v.element.tag == tag;
}
// Lower-case tag name ("img"; unknown tags keep their source spelling, lower-cased).
std::string tag_name(const GumboNode* n);

// Attribute value, or nullptr when absent.
const char* attribute(const GumboNode* n, const char* name);
inline std::string_view attribute_or_empty(const GumboNode* n, const char* name) {
  const char* v = attribute(n, name);
  return v ? std::string_view(v) : std::string_view();
}

// Child nodes (all kinds) of an element or the document.
const GumboVector& children(const GumboNode* n);

// Previous/next sibling that is an element (jsoup previousElementSibling()).
const GumboNode* previous_element_sibling(const GumboNode* n);
const GumboNode* next_element_sibling(const GumboNode* n);

// Title of the document: text of the first <title>, whitespace-normalised ("" if none).
std::string document_title(const GumboNode* root);

// Collapses runs of whitespace to one space and trims (Java trim: chars <= 0x20).
std::string normalise_whitespace(std::string_view s);

}  // namespace strata::extract
