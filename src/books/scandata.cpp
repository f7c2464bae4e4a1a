#include "books/scandata.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "books/whole_xml.hpp"

namespace strata::books {
namespace {

std::string lower_trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

struct Parser {
  Scandata data;
  std::vector<std::string> path;  // element names from the root
  std::string text;
  bool in_page = false;

  void start(const XML_Char* name, const XML_Char** atts) {
    path.emplace_back(name);
    text.clear();
    if (path.back() != "page") return;
    for (int i = 0; atts[i]; i += 2)
      if (std::string_view(atts[i]) == "leafNum") {
        in_page = true;
        data.leaves.emplace_back().leaf = std::atoi(atts[i + 1]);
      }
  }

  void end() {
    const std::string& name = path.back();
    if (name == "page") {
      in_page = false;
    } else if (in_page && path.size() >= 2 && path[path.size() - 2] == "page") {
      Leaf& leaf = data.leaves.back();
      if (name == "pageType") leaf.type = page_type_of(text);
      if (name == "addToAccessFormats") leaf.access = lower_trimmed(text) != "false";
      if (name == "pageNumber") leaf.printed_page = lower_trimmed(text);
    } else if (name == "bookId") {
      data.book_id = text;
    } else if (name == "leafCount") {
      data.declared_leaves = std::atoi(text.c_str());
    }
    path.pop_back();
    text.clear();
  }
};

}  // namespace

PageType page_type_of(std::string_view name) {
  const std::string n = lower_trimmed(name);
  if (n == "normal") return PageType::normal;
  if (n == "cover" || n == "cover page") return PageType::cover;
  if (n == "title" || n == "title page") return PageType::title;
  if (n == "color card") return PageType::color_card;
  if (n == "white card") return PageType::white_card;
  if (n == "foldout") return PageType::foldout;
  if (n == "delete") return PageType::delete_;
  return PageType::other;
}

const char* name_of(PageType type) {
  switch (type) {
    case PageType::normal:
      return "Normal";
    case PageType::cover:
      return "Cover";
    case PageType::title:
      return "Title";
    case PageType::color_card:
      return "Color Card";
    case PageType::white_card:
      return "White Card";
    case PageType::foldout:
      return "Foldout";
    case PageType::delete_:
      return "Delete";
    case PageType::other:
      break;
  }
  return "other";
}

Scandata parse_scandata(std::string_view xml) {
  Parser state;
  auto failure = parse_whole_xml(
      xml, &state,
      [](void* s, const XML_Char* n, const XML_Char** a) { static_cast<Parser*>(s)->start(n, a); },
      [](void* s, const XML_Char*) { static_cast<Parser*>(s)->end(); },
      [](void* s, const XML_Char* d, int len) {
        auto& text = static_cast<Parser*>(s)->text;
        if (text.size() < 4096) text.append(d, static_cast<size_t>(len));
      });
  if (failure) throw ScandataError(failure->message, failure->offset);
  if (state.data.leaves.empty()) throw ScandataError("no <page leafNum> in scandata", 0);
  int shown = 0;
  for (Leaf& leaf : state.data.leaves)
    if (leaf.access) leaf.viewer_index = shown++;
  return std::move(state.data);
}

}  // namespace strata::books
