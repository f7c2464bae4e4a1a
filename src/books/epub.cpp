#include "books/epub.hpp"

#include <expat.h>
#include <zip.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>

#include "extract/caption.hpp"
#include "extract/html_dom.hpp"

namespace strata::books {
namespace {

using ZipPtr = std::unique_ptr<zip_t, decltype(&zip_discard)>;

ZipPtr open_zip(const std::filesystem::path& path) {
  int code = 0;
  ZipPtr zip(zip_open(path.c_str(), ZIP_RDONLY, &code), &zip_discard);
  if (!zip) throw EpubError("not a ZIP file: " + path.string());
  return zip;
}

std::string member(zip_t* zip, const std::string& name) {
  zip_stat_t st;
  if (zip_stat(zip, name.c_str(), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw EpubError("no member " + name);
  std::unique_ptr<zip_file_t, decltype(&zip_fclose)> file(zip_fopen(zip, name.c_str(), 0),
                                                          &zip_fclose);
  std::string data(st.size, '\0');
  if (!file ||
      zip_fread(file.get(), data.data(), data.size()) != static_cast<zip_int64_t>(data.size()))
    throw EpubError("cannot read member " + name);
  return data;
}

// "a/b/../c%20d.png" against the folder "OEBPS/": "OEBPS/a/c d.png" (no query or fragment).
std::string resolve(const std::string& base_dir, std::string href) {
  href = href.substr(0, href.find_first_of("#?"));
  std::string decoded;
  for (size_t i = 0; i < href.size(); ++i) {
    if (href[i] == '%' && i + 2 < href.size() &&
        std::isxdigit(static_cast<unsigned char>(href[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(href[i + 2]))) {
      decoded += static_cast<char>(std::stoi(href.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      decoded += href[i];
    }
  }
  std::vector<std::string> parts;
  const std::string path = decoded.starts_with('/') ? decoded.substr(1) : base_dir + decoded;
  for (size_t from = 0; from <= path.size();) {
    const size_t slash = std::min(path.find('/', from), path.size());
    const std::string part = path.substr(from, slash - from);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    from = slash + 1;
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// Elements by local name with their attributes and text, from a small XML file (container,
// OPF); expat reads UTF-8 and UTF-16 with a BOM.
std::string local_name_of(const XML_Char* name) {
  const std::string s(name);
  const auto cut = s.rfind('\x01');
  return cut == std::string::npos ? s : s.substr(cut + 1);
}

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attrs;  // local names
  std::string text;
};

std::vector<XmlElement> xml_elements(const std::string& xml, const std::string& what) {
  struct State {
    std::vector<XmlElement> elements;
    std::vector<size_t> open;
  } state;
  // A byte-order mark wins over the declaration (book2.epub's UTF-16 OPF declares UTF-8).
  const bool utf16 = xml.starts_with("\xFF\xFE") || xml.starts_with("\xFE\xFF");
  std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(
      XML_ParserCreateNS(utf16 ? "UTF-16" : nullptr, '\x01'), &XML_ParserFree);
  XML_SetUserData(parser.get(), &state);
  XML_SetElementHandler(
      parser.get(),
      [](void* s, const XML_Char* n, const XML_Char** atts) {
        auto& st = *static_cast<State*>(s);
        XmlElement e{local_name_of(n), {}, {}};
        for (int i = 0; atts[i]; i += 2) e.attrs[local_name_of(atts[i])] = atts[i + 1];
        st.open.push_back(st.elements.size());
        st.elements.push_back(std::move(e));
      },
      [](void* s, const XML_Char*) { static_cast<State*>(s)->open.pop_back(); });
  XML_SetCharacterDataHandler(parser.get(), [](void* s, const XML_Char* d, int len) {
    auto& st = *static_cast<State*>(s);
    if (!st.open.empty() && st.elements[st.open.back()].text.size() < 65536)
      st.elements[st.open.back()].text.append(d, static_cast<size_t>(len));
  });
  if (xml.size() > (1u << 30) ||
      XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE) != XML_STATUS_OK)
    throw EpubError(what + ": " + XML_ErrorString(XML_GetErrorCode(parser.get())));
  return std::move(state.elements);
}

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// Text of an element, whitespace collapsed.
std::string collapsed_text(const GumboNode* n) {
  std::string out;
  std::vector<const GumboNode*> stack{n};
  while (!stack.empty() && out.size() < 1024) {
    const GumboNode* c = stack.back();
    stack.pop_back();
    if (c->type == GUMBO_NODE_TEXT || c->type == GUMBO_NODE_WHITESPACE ||
        c->type == GUMBO_NODE_CDATA) {
      for (const char* t = c->v.text.text; *t; ++t) {
        const bool space = std::isspace(static_cast<unsigned char>(*t));
        if (!space)
          out += *t;
        else if (!out.empty() && out.back() != ' ')
          out += ' ';
      }
      continue;
    }
    if (!extract::is_element(c)) continue;
    const GumboVector& kids = extract::children(c);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  return trimmed(out);
}

// Every <img> and SVG <image> of a spine document, with its caption, for the images map;
// returns the document's heading (the first h1-h3, else its <title>).
std::string scan_document(const std::string& html, const std::string& path,
                          std::map<std::string, EpubImage*>& by_path) {
  extract::HtmlDocument doc(html);
  extract::CaptionExtractor captions;
  std::string heading, title;
  std::vector<const GumboNode*> stack{doc.root()};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_DOCUMENT && !extract::is_element(n)) continue;
    const std::string tag = n->type == GUMBO_NODE_DOCUMENT ? "" : extract::tag_name(n);
    if (heading.empty() && (tag == "h1" || tag == "h2" || tag == "h3"))
      heading = collapsed_text(n);
    else if (title.empty() && tag == "title")
      title = collapsed_text(n);
    const char* src = tag == "img"     ? extract::attribute(n, "src")
                      : tag == "image" ? extract::attribute(n, "href")
                                       : nullptr;
    if (src) {
      const auto it = by_path.find(resolve(folder_of(path), src));
      if (it != by_path.end()) {
        if (tag == "img") ++it->second->img_uses;
        if (it->second->uses++ == 0) {
          it->second->document = path;
          it->second->alt = trimmed(std::string(extract::attribute_or_empty(n, "alt")));
          it->second->caption = captions.caption(n).value_or("");
        }
      }
    }
    const GumboVector& kids = extract::children(n);
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  return heading.empty() ? title : heading;
}

}  // namespace

EpubBook read_epub(const std::filesystem::path& epub) {
  ZipPtr zip = open_zip(epub);
  std::string opf_path;
  for (const auto& e : xml_elements(member(zip.get(), "META-INF/container.xml"), "container.xml"))
    if (e.name == "rootfile" && e.attrs.count("full-path")) {
      opf_path = e.attrs.at("full-path");
      break;
    }
  if (opf_path.empty()) throw EpubError("container.xml names no rootfile");
  const std::string base = folder_of(opf_path);
  EpubBook book;
  std::map<std::string, std::string> id_to_path;
  std::string cover_meta_id, unique_id;
  std::vector<std::pair<std::string, std::string>> identifiers;  // id attribute, text
  std::vector<std::string> spine_ids;
  for (const auto& e : xml_elements(member(zip.get(), opf_path), opf_path)) {
    const auto attr = [&](const char* k) {
      return e.attrs.count(k) ? e.attrs.at(k) : std::string();
    };
    if (e.name == "package")
      unique_id = attr("unique-identifier");
    else if (e.name == "identifier" && !trimmed(e.text).empty())
      identifiers.emplace_back(attr("id"), trimmed(e.text));
    else if (e.name == "title" && book.title.empty())
      book.title = trimmed(e.text);
    else if (e.name == "creator" && !trimmed(e.text).empty())
      book.creators.push_back(trimmed(e.text));
    else if (e.name == "subject" && !trimmed(e.text).empty())
      book.subjects.push_back(trimmed(e.text));
    else if (e.name == "meta" && attr("property") == "dcterms:modified" && book.modified.empty())
      book.modified = trimmed(e.text);
    else if (e.name == "language" && book.language.empty())
      book.language = trimmed(e.text);
    else if (e.name == "date" && book.date.empty())
      book.date = trimmed(e.text);
    else if (e.name == "meta" && attr("name") == "cover")
      cover_meta_id = attr("content");
    else if (e.name == "itemref")
      spine_ids.push_back(attr("idref"));
    else if (e.name == "item") {
      const std::string path = resolve(base, attr("href"));
      id_to_path[attr("id")] = path;
      book.items.push_back({path, attr("media-type"), 0, {}});
      if (attr("media-type").starts_with("image/")) {
        EpubImage image{path, attr("media-type"), {}, {}, {}, 0, 0, false};
        image.cover = (" " + attr("properties") + " ").find(" cover-image ") != std::string::npos;
        book.images.push_back(std::move(image));
      }
    }
  }
  for (const auto& [id, text] : identifiers)
    if (book.identifier.empty() || (!unique_id.empty() && id == unique_id)) book.identifier = text;
  std::map<std::string, EpubImage*> by_path;
  bool has_cover = false;
  for (auto& image : book.images) {
    by_path[image.path] = &image;
    has_cover |= image.cover;
  }
  // EPUB 2's cover meta, when no EPUB 3 cover-image and the id names a real image item.
  if (!has_cover && id_to_path.count(cover_meta_id) && by_path.count(id_to_path[cover_meta_id]))
    by_path[id_to_path[cover_meta_id]]->cover = true;
  std::map<std::string, EpubItem*> item_by_path;
  for (auto& item : book.items) item_by_path.emplace(item.path, &item);
  int spine_index = 0;
  for (const auto& id : spine_ids) {
    const auto it = id_to_path.find(id);
    if (it == id_to_path.end()) continue;
    EpubItem* item = item_by_path.at(it->second);
    if (item->spine_index == 0) item->spine_index = ++spine_index;
    try {
      const std::string heading = scan_document(member(zip.get(), it->second), it->second, by_path);
      if (item->heading.empty()) item->heading = heading;
    } catch (const EpubError&) {
      ++book.missing_documents;
    }
  }
  return book;
}

std::string read_epub_member(const std::filesystem::path& epub, const std::string& name) {
  ZipPtr zip = open_zip(epub);
  return member(zip.get(), name);
}

}  // namespace strata::books
