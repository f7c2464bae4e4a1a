#include "extract/html_text.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "extract/html_dom.hpp"

namespace strata::extract {
namespace {

size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;  // stray continuation byte: gumbo never emits one, but stay total
}

bool is_text_node(const GumboNode* n) {
  return n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
         n->type == GUMBO_NODE_CDATA;
}

// jsoup keeps script and style content as DataNode, which text() ignores.
bool is_data_element(const GumboNode* n) {
  return is_tag(n, GUMBO_TAG_SCRIPT) || is_tag(n, GUMBO_TAG_STYLE);
}

// jsoup TextNode preserveWhitespace: the parent or one of its 5 ancestors is pre-like.
bool preserves_whitespace(const GumboNode* text) {
  const GumboNode* el = text->parent;
  for (int i = 0; i < 6 && el && is_element(el); ++i, el = el->parent) {
    GumboTag t = el->v.element.tag;
    if (t == GUMBO_TAG_PRE || t == GUMBO_TAG_PLAINTEXT || t == GUMBO_TAG_TITLE ||
        t == GUMBO_TAG_TEXTAREA)
      return true;
  }
  return false;
}

// Builds a TextSummary from the characters of the untrimmed jsoup accumulator, applying
// Java's trim() on the fly (chars <= 0x20 at either end are dropped).
class SummarySink {
 public:
  explicit SummarySink(size_t keep) : keep_(keep) {}

  // One UTF-8 code point.
  void put(std::string_view cp) {
    raw_nonempty_ = true;
    raw_last_space_ = cp == " ";
    if (static_cast<unsigned char>(cp[0]) <= 0x20) {
      if (out_.chars > 0) pending_.append(cp);
      return;
    }
    if (!pending_.empty()) {
      for (size_t i = 0; i < pending_.size(); ++i) emit(pending_.substr(i, 1));
      pending_.clear();
    }
    emit(cp);
  }
  bool raw_nonempty() const { return raw_nonempty_; }
  bool raw_last_space() const { return raw_last_space_; }

  TextSummary finish() {
    if (!out_.complete()) out_.tail = last_chars(tail_, keep_);
    return std::move(out_);
  }

 private:
  void emit(std::string_view cp) {
    ++out_.chars;
    if (out_.head_chars < keep_) {
      append_code_point(out_.head, cp);
      ++out_.head_chars;
      return;
    }
    append_code_point(tail_, cp);
    if (++tail_chars_ > 4 * keep_) {
      tail_ = last_chars(tail_, keep_);
      tail_chars_ = keep_;
    }
  }
  // Text is mostly ASCII: one byte without a call to append.
  static void append_code_point(std::string& out, std::string_view cp) {
    if (cp.size() == 1)
      out += cp[0];
    else
      out.append(cp);
  }
  static std::string last_chars(const std::string& s, size_t n) {
    size_t pos = s.size();
    for (size_t count = 0; pos > 0 && count < n;) {
      --pos;
      if ((static_cast<unsigned char>(s[pos]) & 0xC0) != 0x80) ++count;
    }
    return s.substr(pos);
  }

  size_t keep_;
  TextSummary out_;
  std::string tail_;
  size_t tail_chars_ = 0;
  std::string pending_;
  bool raw_nonempty_ = false;
  bool raw_last_space_ = false;
};

bool is_jsoup_whitespace(std::string_view cp) {
  if (cp.size() == 1) {
    char c = cp[0];
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
  }
  return cp == "\xC2\xA0";  // NBSP (160)
}

// StringUtil.appendNormalisedWhitespace, or the raw text inside pre-like elements.
void append_text(SummarySink& sink, const GumboNode* text_node) {
  std::string_view text = text_node->v.text.text;
  bool preserve = preserves_whitespace(text_node);
  bool strip_leading = sink.raw_last_space();
  bool last_was_white = false, reached_non_white = false;
  for (size_t i = 0; i < text.size();) {
    size_t len = std::min(utf8_length(static_cast<unsigned char>(text[i])), text.size() - i);
    std::string_view cp = text.substr(i, len);
    i += len;
    if (preserve) {
      sink.put(cp);
    } else if (is_jsoup_whitespace(cp)) {
      if ((strip_leading && !reached_non_white) || last_was_white) continue;
      sink.put(" ");
      last_was_white = true;
    } else {
      sink.put(cp);
      last_was_white = false;
      reached_non_white = true;
    }
  }
}

const GumboNode* next_sibling(const GumboNode* n) {
  if (!n->parent) return nullptr;
  const GumboVector& kids = children(n->parent);
  size_t next = n->index_within_parent + 1;
  return next < kids.length ? static_cast<const GumboNode*>(kids.data[next]) : nullptr;
}

}  // namespace

bool is_block_tag(std::string_view name) {
  static constexpr std::array<std::string_view, 63> kBlock = {
      "html",   "head",       "body",     "frameset", "script",  "noscript",   "style",  "meta",
      "link",   "title",      "frame",    "noframes", "section", "nav",        "aside",  "hgroup",
      "header", "footer",     "p",        "h1",       "h2",      "h3",         "h4",     "h5",
      "h6",     "ul",         "ol",       "pre",      "div",     "blockquote", "hr",     "address",
      "figure", "figcaption", "form",     "fieldset", "ins",     "del",        "dl",     "dt",
      "dd",     "li",         "table",    "caption",  "thead",   "tfoot",      "tbody",  "colgroup",
      "col",    "tr",         "th",       "td",       "video",   "audio",      "canvas", "details",
      "menu",   "plaintext",  "template", "article",  "main",    "svg",        "math"};
  for (std::string_view block : kBlock)
    if (block == name) return true;
  return false;
}

// text() asks this of every element, twice: known tags are looked up by their GumboTag
// (naming each built a string and compared it with the 63 block names).
bool is_block_element(const GumboNode* n) {
  static const std::array<bool, GUMBO_TAG_UNKNOWN> kBlockTags = [] {
    std::array<bool, GUMBO_TAG_UNKNOWN> out{};
    for (size_t t = 0; t < out.size(); ++t)
      out[t] = is_block_tag(gumbo_normalized_tagname(static_cast<GumboTag>(t)));
    return out;
  }();
  if (!is_element(n)) return false;
  GumboTag tag = n->v.element.tag;
  return tag < GUMBO_TAG_UNKNOWN ? kBlockTags[tag] : is_block_tag(tag_name(n));
}

TextSummary node_text(const GumboNode* root, size_t keep_chars) {
  SummarySink sink(keep_chars);
  // Explicit stack of (node, visited-children) pairs: head on first visit, tail on exit.
  std::vector<std::pair<const GumboNode*, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [n, done] = stack.back();
    stack.pop_back();
    if (done) {  // tail(): a block followed by a text node gets a separating space
      const GumboNode* next = n == root ? nullptr : next_sibling(n);
      if (is_block_element(n) && next && is_text_node(next) && !sink.raw_last_space())
        sink.put(" ");
      continue;
    }
    if (is_text_node(n)) {
      append_text(sink, n);
      continue;
    }
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;  // comments
    if (is_element(n) && sink.raw_nonempty() && !sink.raw_last_space() &&
        (is_block_element(n) || is_tag(n, GUMBO_TAG_BR)))
      sink.put(" ");
    stack.push_back({n, true});
    if (is_data_element(n)) continue;
    const GumboVector& kids = children(n);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back({static_cast<const GumboNode*>(kids.data[i]), false});
  }
  return sink.finish();
}

std::string to_string(const TextSummary& s) {
  return s.complete() ? s.head : s.head + " … " + s.tail;
}

const TextSummary& TextCache::text(const GumboNode* node) {
  auto it = text_.find(node);
  if (it != text_.end()) return it->second;
  return text_.emplace(node, node_text(node)).first->second;
}

bool TextCache::has_text(const GumboNode* node) {
  // Captions ask again about the same ancestors for every image: answered without a stack.
  if (auto known = has_text_.find(node); known != has_text_.end()) return known->second;
  // Post-order over the uncached part of the subtree.
  std::vector<std::pair<const GumboNode*, bool>> stack{{node, false}};
  while (!stack.empty()) {
    auto [n, done] = stack.back();
    stack.pop_back();
    if (has_text_.count(n)) continue;
    if (is_text_node(n)) {
      bool preserve = preserves_whitespace(n);
      std::string_view t = n->v.text.text;
      bool any = false;
      for (size_t i = 0; i < t.size() && !any; ++i) {
        auto c = static_cast<unsigned char>(t[i]);
        bool nbsp = c == 0xC2 && i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0xA0;
        if (nbsp && !preserve) {
          ++i;
          continue;
        }
        any = c > 0x20;
      }
      has_text_[n] = any;
      continue;
    }
    bool container = n->type == GUMBO_NODE_DOCUMENT || (is_element(n) && !is_data_element(n));
    if (!container) {
      has_text_[n] = false;
      continue;
    }
    const GumboVector& kids = children(n);
    if (!done) {
      stack.push_back({n, true});
      for (unsigned i = 0; i < kids.length; ++i)
        stack.push_back({static_cast<const GumboNode*>(kids.data[i]), false});
      continue;
    }
    bool any = false;
    for (unsigned i = 0; i < kids.length && !any; ++i)
      any = has_text_[static_cast<const GumboNode*>(kids.data[i])];
    has_text_[n] = any;
  }
  return has_text_[node];
}

}  // namespace strata::extract
