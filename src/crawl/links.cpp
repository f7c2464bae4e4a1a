#include "crawl/links.hpp"

#include <unordered_set>

#include "extract/html_dom.hpp"
#include "extract/html_refs.hpp"
#include "url/url.hpp"

namespace strata::crawl {
namespace {

struct LinkAttribute {
  GumboTag tag;
  const char* attribute;
  const char* context;
};
constexpr LinkAttribute kLinkAttributes[] = {
    {GUMBO_TAG_A, "href", "a/@href"},
    {GUMBO_TAG_AREA, "href", "area/@href"},
    {GUMBO_TAG_FRAME, "src", "frame/@src"},
    {GUMBO_TAG_IFRAME, "src", "iframe/@src"},
};

void collect_links(const GumboNode* node, std::string_view base, std::vector<Outlink>& out) {
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (extract::is_tag(n, GUMBO_TAG_SCRIPT) || extract::is_tag(n, GUMBO_TAG_STYLE)) continue;
    if (!extract::is_element(n) && n->type != GUMBO_NODE_DOCUMENT) continue;
    for (const auto& link : kLinkAttributes) {
      if (!extract::is_tag(n, link.tag)) continue;
      std::string_view value = extract::attribute_or_empty(n, link.attribute);
      if (value.empty()) continue;
      if (auto resolved = url::resolve(base, value))
        out.push_back({*resolved, Lane::link, link.context});
    }
    const GumboVector& kids = extract::children(n);
    for (unsigned i = kids.length; i > 0; --i)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i - 1]));
  }
}

}  // namespace

std::vector<Outlink> page_outlinks(std::string_view page_url, std::string_view html,
                                   Counters& counters) {
  extract::RefOptions options;
  extract::PageRefs refs = extract::find_references(page_url, html, options, counters);
  std::vector<Outlink> out;
  std::unordered_set<std::string> embeds;
  for (const auto& ref : refs.refs) {
    if (ref.inline_ || !embeds.insert(ref.url).second) continue;
    out.push_back({ref.url, Lane::embed, ref.tag + (ref.tag == "css" ? "/url()" : "/@src")});
  }
  extract::HtmlDocument doc(html);
  std::string_view base = refs.base_url.empty() ? page_url : std::string_view(refs.base_url);
  std::vector<Outlink> links;
  collect_links(doc.root(), base, links);
  for (auto& link : links)
    if (!embeds.count(link.url)) out.push_back(std::move(link));
  return out;
}

}  // namespace strata::crawl
