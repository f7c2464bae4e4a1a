#include "extract/html_script_cut.hpp"

#include <algorithm>

namespace strata::extract {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
}

// First position at or after `from` where `word` (lower-case) starts, ignoring ASCII case.
size_t find_ignoring_case(std::string_view s, std::string_view word, size_t from) {
  while (from < s.size()) {
    size_t lt = s.find(word[0], from);
    if (lt == std::string_view::npos || s.size() - lt < word.size()) return std::string_view::npos;
    size_t i = 1;
    while (i < word.size() && lower(s[lt + i]) == word[i]) ++i;
    if (i == word.size()) return lt;
    from = lt + 1;
  }
  return std::string_view::npos;
}

// After "<script": the tag name ends (HTML whitespace, '/' or '>').
bool ends_tag_name(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>';
}

// A content in which "</script" is the first end tag in every tokeniser state: without
// "<!--" there is no escape state, and without "<script" no double escape.
bool safe_to_cut(std::string_view content) {
  return content.find("<!--") == std::string_view::npos ||
         find_ignoring_case(content, "<script", 0) == std::string_view::npos;
}

// Finds the next "<script" that is not inside a comment. A miss (a comment that ends at
// "--!>", a "<!--" in an attribute) only costs a cut or a confirmation: see PageDocument.
class ScriptTagFinder {
 public:
  explicit ScriptTagFinder(std::string_view html) : html_(html), comment_(html.find("<!--")) {}
  size_t next(size_t pos) {
    for (;;) {
      size_t tag = find_ignoring_case(html_, "<script", pos);
      if (tag == std::string_view::npos) return tag;
      if (comment_ < pos) comment_ = html_.find("<!--", pos);
      if (comment_ > tag) return tag;
      size_t close = html_.find("-->", comment_ + 4);
      if (close == std::string_view::npos) return close;
      pos = close + 3;
    }
  }

 private:
  std::string_view html_;
  size_t comment_;  // the first "<!--" not before the last position asked for
};

}  // namespace

ScriptCut cut_script_contents(std::string_view html) {
  ScriptCut out;
  ScriptTagFinder tags(html);
  size_t copied = 0;  // html[0, copied) is in out.html already
  for (size_t pos = tags.next(0); pos != std::string_view::npos; pos = tags.next(pos)) {
    pos += 7;
    if (pos >= html.size() || !ends_tag_name(html[pos])) continue;
    size_t begin = html.find('>', pos);
    if (begin == std::string_view::npos) break;
    ++begin;
    size_t end = find_ignoring_case(html, "</script", begin);
    if (end == std::string_view::npos) break;
    pos = end + 8;
    if (end == begin || !safe_to_cut(html.substr(begin, end - begin))) continue;
    if (out.html.empty()) out.html.reserve(html.size());
    out.html.append(html.substr(copied, begin - copied));
    out.cuts.push_back(out.html.size());
    copied = end;
  }
  if (!out.cuts.empty()) out.html.append(html.substr(copied));
  return out;
}

bool cuts_confirmed(const GumboNode* root, std::string_view parsed,
                    const std::vector<size_t>& cuts) {
  std::vector<size_t> empty_scripts;  // offsets where an HTML script starts and ends at once
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    if (is_tag(n, GUMBO_TAG_SCRIPT) && n->v.element.tag_namespace == GUMBO_NAMESPACE_HTML) {
      const GumboElement& e = n->v.element;
      const char* start_end = e.original_tag.data + e.original_tag.length;
      if (e.original_tag.length > 0 && e.original_end_tag.data == start_end)
        empty_scripts.push_back(static_cast<size_t>(start_end - parsed.data()));
    }
    const GumboVector& kids = children(n);
    for (unsigned i = 0; i < kids.length; ++i)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  std::sort(empty_scripts.begin(), empty_scripts.end());
  return std::includes(empty_scripts.begin(), empty_scripts.end(), cuts.begin(), cuts.end());
}

PageDocument::PageDocument(std::string_view html) {
  ScriptCut cut = cut_script_contents(html);
  if (!cut.cuts.empty()) {
    cut_ = std::move(cut.html);
    doc_ = std::make_unique<HtmlDocument>(cut_);
    parsed_ = doc_->source();
    if (cuts_confirmed(doc_->root(), parsed_, cut.cuts)) return;
    doc_.reset();
    cut_.clear();
    reparsed_ = true;
  }
  doc_ = std::make_unique<HtmlDocument>(html);
  parsed_ = doc_->source();
}

}  // namespace strata::extract
