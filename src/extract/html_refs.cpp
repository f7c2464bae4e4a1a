#include "extract/html_refs.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "extract/css_urls.hpp"
#include "extract/html_dom.hpp"
#include "extract/html_prefix.hpp"
#include "extract/html_prescan.hpp"
#include "extract/html_script_cut.hpp"
#include "extract/srcset.hpp"
#include "url/url.hpp"

namespace strata::extract {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  return s;
}

bool is_data_image(std::string_view v) {
  v = trim(v);
  constexpr std::string_view kPrefix = "data:image";
  if (v.size() < kPrefix.size()) return false;
  for (size_t i = 0; i < kPrefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(v[i])) != kPrefix[i]) return false;
  return true;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The elements the finder looks at, gathered in one document-order pass.
struct Elements {
  std::vector<const GumboNode*> images, sources, anchors, styles, styled;
  const GumboNode* base = nullptr;
};

Elements collect(const GumboNode* root) {
  Elements found;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    if (is_element(n)) {
      GumboTag t = n->v.element.tag;
      if (t == GUMBO_TAG_IMG)
        found.images.push_back(n);
      else if (t == GUMBO_TAG_SOURCE && n->parent && tag_name(n->parent) == "picture")
        found.sources.push_back(n);
      else if (t == GUMBO_TAG_A && attribute(n, "href"))
        found.anchors.push_back(n);
      else if (t == GUMBO_TAG_STYLE)
        found.styles.push_back(n);
      else if (t == GUMBO_TAG_BASE && !found.base && attribute(n, "href"))
        found.base = n;
      if (attribute(n, "style")) found.styled.push_back(n);
    }
    const GumboVector& kids = children(n);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  return found;
}

// What the references of a source are described by (alt, title, caption): the <picture>'s
// <img>, which the sources are alternatives of, else the source itself.
const GumboNode* described_by(const GumboNode* source) {
  const GumboNode* img = source;
  const GumboVector& kids = children(source->parent);
  for (unsigned i = 0; i < kids.length; ++i) {
    auto* c = static_cast<const GumboNode*>(kids.data[i]);
    if (is_tag(c, GUMBO_TAG_IMG)) img = c;
  }
  return img;
}

class Finder {
 public:
  Finder(std::string base, const RefOptions& options, Counters& counters)
      : base_(std::move(base)),
        base_names_image_(url::has_image_extension(base_)),
        options_(options),
        counters_(counters),
        captions_(options.caption),
        positions_(base_) {}

  void image(const GumboNode* img);
  void source(const GumboNode* source);
  void anchor(const GumboNode* a);
  // `position`: the styled element's place (a <style> block's URLs are the page's).
  void css(std::string_view text, PagePosition position);
  void styled(const GumboNode* e) { css(attribute_or_empty(e, "style"), positions_.of(e)); }
  std::vector<HtmlRef> take() { return std::move(refs_); }
  // Each element's picture, by its first URL (srcset candidates are one picture): the unit
  // the two page-wide rules below count.
  using PictureOf = std::map<const GumboNode*, std::string_view>;
  PictureOf picture_of_elements() const;
  void drop_shared_captions(const PictureOf& picture_of);
  void mark_repeated_pictures(const PictureOf& picture_of);
  size_t captions_timed_out() const { return captions_.timed_out(); }

 private:
  // Resolved URL, or "" (counted) when unusable. Data URIs are returned as they are.
  std::string resolve(std::string_view raw);
  // resolve(base_, value) then url::has_image_extension, skipping the resolution (most of
  // the cost on pages full of width="300" and href="/news/") when it cannot succeed.
  std::optional<std::string> resolve_image_url(std::string_view value) const;
  // Candidate URLs of an <img> or <source>, resolved and de-duplicated, in attribute order.
  std::vector<std::string> candidates(const GumboNode* el, bool any_attribute);
  void emit_element(const GumboNode* el, const char* tag, const GumboNode* described_by);
  // `described_by`: the <img> whose caption the reference has (nullptr for a and css).
  void add(HtmlRef ref, const GumboNode* described_by = nullptr);
  const std::set<std::string>& element_urls();

  std::string base_;
  bool base_names_image_;
  const RefOptions& options_;
  Counters& counters_;
  CaptionExtractor captions_;
  PositionClassifier positions_;
  std::vector<HtmlRef> refs_;
  std::vector<const GumboNode*> described_by_;  // per reference: the element its texts are of
  std::set<std::pair<std::string, std::string>> page_seen_;  // (url, tag) of a and css
  // URLs from img/source/a, gathered when CSS first needs them (all elements come first).
  std::optional<std::set<std::string>> element_urls_;
};

std::string Finder::resolve(std::string_view raw) {
  std::string_view value = trim(raw);
  if (is_data_image(value)) return std::string(value);
  if (value.empty()) {
    counters_.add("html_refs_invalid");
    return {};
  }
  std::optional<std::string> abs = url::resolve(base_, value);
  if (!abs || abs->empty()) {
    counters_.add("html_refs_invalid");
    return {};
  }
  if (!url::within_length_limit(*abs)) {
    counters_.add("html_refs_too_long");
    return {};
  }
  return std::move(*abs);
}

std::optional<std::string> Finder::resolve_image_url(std::string_view value) const {
  // Resolution drops tabs and newlines and maps non-ASCII dots, but on printable ASCII the
  // resolved last path segment is the value's own (same '/', '?', '#' splitting; a
  // backslash only shortens it), an empty one (dot segments, "dir/") or the base's (empty
  // path, query, fragment, "http:"). So unless the base names an image, a printable value
  // without an image extension cannot resolve to one.
  bool printable_ascii = std::all_of(value.begin(), value.end(), [](char c) {
    return static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7F;
  });
  if (printable_ascii && !base_names_image_ && !url::has_image_extension(value))
    return std::nullopt;
  std::optional<std::string> abs = url::resolve(base_, value);
  if (!abs || !url::has_image_extension(*abs)) return std::nullopt;
  return abs;
}

std::vector<std::string> Finder::candidates(const GumboNode* el, bool any_attribute) {
  std::vector<std::string> out;
  auto push = [&out](std::string u) {
    if (u.empty()) return;
    for (const std::string& seen : out)
      if (seen == u) return;
    out.push_back(std::move(u));
  };
  if (any_attribute) {
    for (const char* name : {"src", "lowsrc"})
      if (!trim(attribute_or_empty(el, name)).empty()) push(resolve(attribute_or_empty(el, name)));
  }
  const GumboVector& attrs = el->v.element.attributes;
  for (unsigned i = 0; i < attrs.length; ++i) {
    auto* a = static_cast<const GumboAttribute*>(attrs.data[i]);
    std::string_view name = a->name, value = a->value;
    if (ends_with(name, "srcset")) {  // srcset, data-srcset, data-lazy-srcset, ...
      for (const std::string& c : parse_srcset(value)) push(resolve(c));
      continue;
    }
    if (!any_attribute || name == "src" || name == "lowsrc" || trim(value).empty()) continue;
    // Any other attribute counts when it names an image (data-src="x.jpg", as Arquivo).
    if (is_data_image(value)) {
      push(std::string(trim(value)));
      continue;
    }
    std::optional<std::string> abs = resolve_image_url(trim(value));
    if (abs && url::within_length_limit(*abs)) push(*abs);
  }
  return out;
}

// "html_refs_<tag>", without building the name per reference.
std::string_view refs_counter(std::string_view tag) {
  static constexpr std::array<std::string_view, 5> kNames = {
      "html_refs_img", "html_refs_source", "html_refs_a", "html_refs_css", "html_refs_inline"};
  constexpr size_t kPrefix = std::string_view("html_refs_").size();
  for (std::string_view name : kNames)
    if (name.substr(kPrefix) == tag) return name;
  throw std::logic_error("no counter for reference tag " + std::string(tag));
}

void Finder::add(HtmlRef ref, const GumboNode* described_by) {
  counters_.add(refs_counter(ref.tag));
  refs_.push_back(std::move(ref));
  described_by_.push_back(described_by);
}

Finder::PictureOf Finder::picture_of_elements() const {
  PictureOf picture_of;
  for (size_t i = 0; i < refs_.size(); ++i)
    if (described_by_[i]) picture_of.emplace(described_by_[i], refs_[i].url);
  return picture_of;
}

// A text given to kSharedCaptionPictures or more different pictures of the page is the
// page's (layout slices, a row of icons, a list's heading), not any one picture's. One picture
// repeated beside its text keeps it: an author's avatar on each tweet, a rating's stars
// (full, half and empty: three pictures).
void Finder::drop_shared_captions(const PictureOf& picture_of) {
  constexpr size_t kSharedCaptionPictures = 4;
  std::map<std::string_view, std::set<std::string_view>> pictures_by_caption;
  for (size_t i = 0; i < refs_.size(); ++i)
    if (described_by_[i] && !refs_[i].caption.empty())
      pictures_by_caption[refs_[i].caption].insert(picture_of.at(described_by_[i]));
  std::set<std::string> shared;  // copies: the captions viewed above are cleared below
  for (const auto& [caption, pictures] : pictures_by_caption)
    if (pictures.size() >= kSharedCaptionPictures) shared.emplace(caption);
  if (shared.empty()) return;
  size_t dropped = 0;
  for (size_t i = 0; i < refs_.size(); ++i) {
    if (!described_by_[i] || !shared.count(refs_[i].caption)) continue;
    refs_[i].caption.clear();
    ++dropped;
  }
  counters_.add("html_captions_shared_dropped", static_cast<int64_t>(dropped));
}

// A picture the page shows kRepeatedPictureElements times or more (a bullet, a rating's star,
// a pictogram beside every entry of a guide, an avatar on every post) is the page's
// furniture wherever it stands, like its header and navigation: its references count as
// chrome, so the page's title and URL, which name the page's subject, are not indexed as
// its words (index/position_prior.hpp). A site's logo stays a logo.
void Finder::mark_repeated_pictures(const PictureOf& picture_of) {
  constexpr size_t kRepeatedPictureElements = 3;
  std::map<std::string_view, size_t> elements_showing;
  for (const auto& [element, picture] : picture_of) ++elements_showing[picture];
  size_t marked = 0;
  for (size_t i = 0; i < refs_.size(); ++i) {
    if (!described_by_[i] || refs_[i].position == PagePosition::logo) continue;
    if (elements_showing[picture_of.at(described_by_[i])] < kRepeatedPictureElements) continue;
    refs_[i].position = PagePosition::chrome;
    ++marked;
  }
  if (marked > 0) counters_.add("html_refs_repeated_picture", static_cast<int64_t>(marked));
}

const std::set<std::string>& Finder::element_urls() {
  if (!element_urls_) {  // a set per page with CSS, not a copy of every reference's URL
    element_urls_.emplace();
    for (const HtmlRef& ref : refs_)
      if (ref.tag != "css" && !ref.inline_) element_urls_->insert(ref.url);
  }
  return *element_urls_;
}

void Finder::emit_element(const GumboNode* el, const char* tag, const GumboNode* described_by) {
  std::vector<std::string> urls = candidates(el, std::string_view(tag) == "img");
  if (urls.empty()) return;
  std::string alt = truncate_chars(attribute_or_empty(described_by, "alt"));
  std::string title = truncate_chars(attribute_or_empty(described_by, "title"));
  std::optional<std::string> caption = captions_.caption(described_by);
  std::string caption_text = std::move(caption).value_or("");
  const PagePosition position = positions_.of(described_by);
  for (size_t i = 0; i < urls.size(); ++i) {
    HtmlRef ref;
    ref.inline_ = is_data_image(urls[i]);
    ref.tag = ref.inline_ ? "inline" : tag;
    ref.url = std::move(urls[i]);
    // The texts are copied for all candidates but the last (most elements have one).
    bool last = i + 1 == urls.size();
    ref.alt = last ? std::move(alt) : alt;
    ref.title = last ? std::move(title) : title;
    ref.caption = last ? std::move(caption_text) : caption_text;
    ref.position = position;
    add(std::move(ref), described_by);
  }
}

void Finder::image(const GumboNode* img) {
  emit_element(img, "img", img);
}

void Finder::source(const GumboNode* source) {
  emit_element(source, "source", described_by(source));
}

void Finder::anchor(const GumboNode* a) {
  std::string_view href = attribute_or_empty(a, "href");
  bool data = is_data_image(href);
  std::string abs;
  if (data) {
    abs = std::string(trim(href));
  } else {
    // Only links to images are references; other hrefs are not worth counting as invalid.
    std::optional<std::string> r = resolve_image_url(trim(href));
    if (!r) return;
    if (!url::within_length_limit(*r)) {
      counters_.add("html_refs_too_long");
      return;
    }
    abs = std::move(*r);
  }
  std::string tag = data ? "inline" : "a";
  if (!page_seen_.insert({abs, "a"}).second) {
    counters_.add("html_refs_duplicate");
    return;
  }
  HtmlRef ref;
  ref.inline_ = data;
  ref.tag = tag;
  ref.url = std::move(abs);
  ref.caption = captions_.anchor_text(a);
  ref.position = positions_.of(a);
  add(std::move(ref));
}

void Finder::css(std::string_view text, PagePosition position) {
  for (const std::string& raw : css_urls(text)) {
    bool data = is_data_image(raw);
    std::string abs;
    if (data) {
      abs = std::string(trim(raw));
    } else {
      std::optional<std::string> r = resolve_image_url(raw);
      if (!r) continue;  // fonts, stylesheets, ...
      if (!url::within_length_limit(*r)) {
        counters_.add("html_refs_too_long");
        continue;
      }
      abs = std::move(*r);
    }
    // As Arquivo: a CSS URL already found in an element is not a new reference.
    if (element_urls().count(abs) || !page_seen_.insert({abs, "css"}).second) {
      counters_.add("html_refs_duplicate");
      continue;
    }
    HtmlRef ref;
    ref.inline_ = data;
    ref.tag = data ? "inline" : "css";
    ref.url = std::move(abs);
    ref.position = position;
    add(std::move(ref));
  }
}

std::string text_content(const GumboNode* n) {
  std::string out;
  const GumboVector& kids = children(n);
  for (unsigned i = 0; i < kids.length; ++i) {
    auto* c = static_cast<const GumboNode*>(kids.data[i]);
    if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE ||
        c->type == GUMBO_NODE_CDATA)
      out += c->v.text.text;
  }
  return out;
}

// The elements whose captions the page's references take.
std::vector<const GumboNode*> captioned(const Elements& found, const RefOptions& options) {
  size_t examined = std::min(found.images.size(), options.max_images);
  std::vector<const GumboNode*> out(found.images.begin(), found.images.begin() + examined);
  for (const GumboNode* s : found.sources) out.push_back(described_by(s));
  return out;
}

// Arquivo ignores <base href> for <img> and CSS; browsers do not, and neither do we.
std::string base_url(std::string_view page_url, const Elements& found) {
  if (found.base) {
    if (auto b = url::resolve(page_url, trim(attribute_or_empty(found.base, "href")))) return *b;
  }
  return std::string(page_url);
}

PageRefs references_in(std::string base, const Elements& found, const GumboNode* root,
                       const RefOptions& options, Counters& counters) {
  PageRefs page;
  page.base_url = std::move(base);
  page.title = document_title(root);
  page.images_in_page = static_cast<int>(found.images.size());
  counters.add("html_img_elements", page.images_in_page);

  Finder finder(page.base_url, options, counters);
  size_t examined = std::min(found.images.size(), options.max_images);
  for (size_t i = 0; i < examined; ++i) finder.image(found.images[i]);
  if (examined < found.images.size()) {
    counters.add("html_pages_img_cap_exceeded");
    counters.add("html_img_not_parsed", static_cast<int64_t>(found.images.size() - examined));
  }
  for (const GumboNode* s : found.sources) finder.source(s);
  const auto pictures = finder.picture_of_elements();
  finder.drop_shared_captions(pictures);
  finder.mark_repeated_pictures(pictures);
  for (const GumboNode* a : found.anchors) finder.anchor(a);
  for (const GumboNode* s : found.styles) finder.css(text_content(s), PagePosition::page);
  for (const GumboNode* e : found.styled) finder.styled(e);
  if (finder.captions_timed_out() > 0)
    counters.add("html_captions_timed_out", static_cast<int64_t>(finder.captions_timed_out()));
  page.refs = finder.take();
  return page;
}

}  // namespace

PageRefs find_references(std::string_view page_url, std::string_view html,
                         const RefOptions& options, Counters& counters) {
  // An <a href="#top"> on a page whose own URL ends in ".jpg" refers to an image URL, and
  // the page URL is not in the HTML: only the HTML and the URL together prove "none".
  bool url_names_image = url::has_image_extension(page_url);
  if (!url_names_image && !may_reference_images(html)) {
    counters.add("html_img_elements", 0);
    counters.add("html_pages_without_candidates");
    PageRefs page;
    page.base_url = std::string(page_url);
    return page;
  }
  if (options.parse_prefix && !url_names_image) {
    PagePrefix prefix(html);
    if (prefix.parsed()) {
      Elements found = collect(prefix.root());
      std::string base = base_url(page_url, found);
      // A base naming an image makes any link of the rest of the page a reference.
      if (!url::has_image_extension(base) && prefix.decides(captioned(found, options))) {
        counters.add("html_pages_tail_unparsed");
        if (prefix.script_cut_reparsed()) counters.add("html_script_cut_reparsed");
        return references_in(std::move(base), found, prefix.root(), options, counters);
      }
      counters.add("html_prefix_reparsed");
    }
  }
  PageDocument doc(html);
  if (doc.reparsed()) counters.add("html_script_cut_reparsed");
  Elements found = collect(doc.root());
  return references_in(base_url(page_url, found), found, doc.root(), options, counters);
}

}  // namespace strata::extract
