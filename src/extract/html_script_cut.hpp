#pragma once
// Parsing a page without the contents of its <script> elements. Script text never yields a
// reference, a caption or a title (jsoup's text() skips it), yet on modern pages it is half
// of the HTML gumbo tokenises. The cut is only kept when gumbo itself confirms that every
// cut content was the whole content of an HTML <script>, so the tree is the page's own less
// those script texts; otherwise the page is parsed as it is.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extract/html_dom.hpp"

namespace strata::extract {

// The html with some script contents removed, and where each was (offsets in this html).
struct ScriptCut {
  std::string html;
  std::vector<size_t> cuts;
};

// Removes the content of every `<script ...>...</script` whose content cannot end the script
// early or late (no "<!--" together with "<script", which the tokeniser's escape states treat
// differently). Does not check that the tag really opens a script: see PageDocument.
ScriptCut cut_script_contents(std::string_view html);

// True when every cut offset is where an HTML-namespace <script> of `root` (parsed from
// `parsed`) has its start tag end and its end tag begin.
bool cuts_confirmed(const GumboNode* root, std::string_view parsed,
                    const std::vector<size_t>& cuts);

class PageDocument {
 public:
  explicit PageDocument(std::string_view html);
  const HtmlDocument& document() const { return *doc_; }
  const GumboNode* root() const { return doc_->root(); }
  // The text gumbo parsed (positions in the tree are offsets in it).
  std::string_view parsed() const { return parsed_; }
  bool scripts_cut() const { return !cut_.empty(); }
  // True when a cut was not confirmed and the page had to be parsed again as it is.
  bool reparsed() const { return reparsed_; }

 private:
  std::string cut_;  // the parsed text when scripts were cut: gumbo's tree points into it
  std::unique_ptr<HtmlDocument> doc_;
  std::string_view parsed_;
  bool reparsed_ = false;
};

}  // namespace strata::extract
