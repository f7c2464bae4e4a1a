#include "sample/html.hpp"

#include "core/html_escape.hpp"

namespace strata::sample {
namespace {

std::string origin(const std::string& url) {
  size_t p = url.find("://");
  size_t slash = url.find('/', p == std::string::npos ? 0 : p + 3);
  return url.substr(0, slash);
}

std::string attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + html_escape(value) + "\"";
}

const std::string& at(const std::vector<std::string>& v, int crawl) {
  static const std::string empty;
  return v.empty() ? empty : v[static_cast<size_t>(crawl)];
}

std::string inline_icon() {
  static const std::string uri =
      "data:image/png;base64," + base64(encode_png(render(make_concept(7), 16, 16)));
  return uri;
}

struct Renderer {
  const World& w;
  const Page& page;
  int crawl;
  bool old;  // 1990s markup: upper case, unquoted, unclosed cells

  std::string src(int image) const {
    return reference_form(page.url, w.images[static_cast<size_t>(image)].url);
  }
  std::string href(int image) const {
    const std::string& url = w.images[static_cast<size_t>(image)].url;
    if (!page.base_href.empty() && url.rfind(page.base_href, 0) == 0)
      return url.substr(page.base_href.size());
    if (!page.base_href.empty()) return url;
    return reference_form(page.url, url);
  }
  std::string img(const Slot& s, int image) const {
    std::string out = old ? "<IMG SRC=\"" + html_escape(src(image)) + "\" BORDER=0"
                          : "<img" + attr("src", src(image));
    out += attr(old ? "ALT" : "alt", at(s.alt, crawl));
    if (!s.title.empty()) out += attr("title", s.title);
    return out + ">";
  }
  std::string slot(const Slot& s) const;
  std::string head() const;
  std::string body() const;
};

std::string Renderer::slot(const Slot& s) const {
  switch (s.structure) {
    case Structure::logo:
      return "<div class=\"header\"><a href=\"/\">" + img(s, s.image) + "</a><span>" +
             html_escape(s.caption) + "</span></div>";
    case Structure::figure:
      return "<figure>" + img(s, s.image) + "<figcaption>" + html_escape(s.caption) +
             "</figcaption></figure>";
    case Structure::div_p:
      return "<div class=\"photo\">" + img(s, s.image) + "<p>" + html_escape(s.caption) +
             "</p></div>";
    case Structure::table_row:
      return "<TABLE BORDER=0><TR><TD>" + img(s, s.image) + "<TD>" + html_escape(s.caption) +
             "</TR></TABLE>";
    case Structure::blog_flat:
      return "<h2>" + html_escape(s.heading) + "</h2>\n" + img(s, s.image) + "\n<p>" +
             html_escape(s.caption) + "</p>";
    case Structure::thumb:
      return "<a" + attr("href", href(s.full)) + ">" + img(s, s.image) + "</a>";
    case Structure::gallery:
      return "<div class=\"item\"><a" + attr("href", href(s.full)) + ">" + img(s, s.image) +
             "</a><span>" + html_escape(s.caption) + "</span></div>";
    case Structure::picture:
      return "<div class=\"pic\"><picture><source type=\"image/avif\"" + attr("srcset", s.srcset) +
             ">" + img(s, s.image) + "</picture><p>" + html_escape(s.caption) + "</p></div>";
    case Structure::link:
      return "<p><a" + attr("href", href(s.image)) + ">" + html_escape(s.caption) + "</a></p>";
    case Structure::css:
      return "<div class=\"bg" + std::to_string(s.image) + "\"></div>";
    case Structure::spacer:
      return "<TABLE><TR><TD><IMG SRC=\"" + src(s.image) + "\" WIDTH=1 HEIGHT=1></TD></TR></TABLE>";
    case Structure::inline_icon:
      return "<p class=\"icon\"><img src=\"" + inline_icon() + "\" alt=\"\"></p>";
  }
  return "";
}

std::string Renderer::head() const {
  std::string h = old ? "<HTML>\n<HEAD>\n" : "<!DOCTYPE html>\n<html>\n<head>\n";
  switch (page.charset) {
    case Charset::latin1:
    case Charset::utf8_declared_latin1:
      h += "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">\n";
      break;
    case Charset::utf8:
    case Charset::double_utf8:
      h += "<meta charset=\"utf-8\">\n";
      break;
    case Charset::latin1_undeclared:
      break;
  }
  if (!page.base_href.empty()) h += "<base" + attr("href", page.base_href) + ">\n";
  h += (old ? "<TITLE>" : "<title>") + html_escape(at(page.title, crawl)) +
       (old ? "</TITLE>\n" : "</title>\n");
  std::string css;
  for (const Slot& s : page.slots)
    if (s.structure == Structure::css)
      css +=
          ".bg" + std::to_string(s.image) + " { background-image: url('" + src(s.image) + "'); }\n";
  if (!css.empty()) h += "<style>\n" + css + "</style>\n";
  return h + (old ? "</HEAD>\n" : "</head>\n");
}

// Body children: header, h1, one content container, footer (and, on old pages, a trailing
// block of broken markup after the footer). Thumbnails sit directly in the container.
std::string Renderer::body() const {
  std::string header, content;
  bool flat = false;
  for (const Slot& s : page.slots) {
    if (s.structure == Structure::logo)
      header = slot(s);
    else
      content += slot(s) + "\n";
    if (s.structure == Structure::blog_flat || s.structure == Structure::thumb) flat = true;
  }
  std::string cls = flat ? "grid" : "content";
  std::string intro = flat && page.kind == 2 ? "<p class=\"intro\"></p>\n" : "";
  std::string b = old ? "<BODY BGCOLOR=#FFFFFF>\n" : "<body>\n";
  b += header + "\n<h1>" + html_escape(page.h1) + "</h1>\n";
  if (!page.article.empty())
    b += "<div class=\"article\"><p>" + html_escape(page.article) + "</p></div>\n";
  b += "<div class=\"" + cls + "\">\n" + intro + content + "</div>\n<p class=\"footer\">" +
       html_escape(page.footer) + "</p>\n";
  if (old) b += "<CENTER><FONT SIZE=1><B>(c) " + html_escape(page.footer) + "</FONT></B>\n";
  return b + (old ? "</BODY></HTML>\n" : "</body>\n</html>\n");
}

// The text a slot's structure shows (its caption, a blog entry's heading too).
std::string slot_text(const Slot& s) {
  switch (s.structure) {
    case Structure::blog_flat:
      return s.heading + " " + s.caption;
    case Structure::thumb:
    case Structure::css:
    case Structure::spacer:
    case Structure::inline_icon:
      return "";
    default:
      return s.caption;
  }
}

}  // namespace

std::string main_text(const Page& page) {
  std::string header, content;
  for (const Slot& s : page.slots)
    (s.structure == Structure::logo ? header : content) += slot_text(s) + " ";
  std::string text = header + page.h1 + " " + page.article + " " + content + page.footer;
  if (page.kind == 0) text += " (c) " + page.footer;  // the 1990s pages' trailing block
  return text;
}

std::string reference_form(const std::string& page_url, const std::string& image_url) {
  std::string po = origin(page_url), io = origin(image_url);
  if (po != io) {
    size_t p = image_url.find("://");
    // Protocol-relative for other hosts on modern pages.
    if (page_url.rfind("https://", 0) == 0 && image_url.rfind("https://", 0) == 0)
      return image_url.substr(p + 1);
    return image_url;
  }
  std::string path = image_url.substr(io.size());
  std::string dir = page_url.substr(po.size());
  dir = dir.substr(0, dir.rfind('/') + 1);
  if (dir.size() > 1 && path.rfind(dir, 0) == 0 && path.find('?') == std::string::npos)
    return path.substr(dir.size());  // same folder: "thumbs/x.jpg"
  return path;
}

RenderedPage render_page(const World& w, const Page& page, int crawl) {
  Renderer r{w, page, crawl, page.kind == 0};
  std::string html = r.head() + r.body();
  RenderedPage out;
  out.content_type = "text/html";
  switch (page.charset) {
    case Charset::utf8:
      out.body = html;
      out.content_type += "; charset=UTF-8";
      break;
    case Charset::latin1:
      out.body = utf8_to_latin1(html);
      break;
    case Charset::latin1_undeclared:
      out.body = utf8_to_latin1(html);
      break;
    case Charset::utf8_declared_latin1:
      out.body = html;
      break;
    case Charset::double_utf8:
      out.body = latin1_to_utf8(html);
      break;
  }
  return out;
}

std::string utf8_to_latin1(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if ((c & 0xe0) == 0xc0 && i + 1 < text.size()) {
      unsigned cp = ((c & 0x1fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3fu);
      out += cp < 0x100 ? static_cast<char>(cp) : '?';
      ++i;
    } else {
      out += '?';
      while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xc0) == 0x80) ++i;
    }
  }
  return out;
}

std::string latin1_to_utf8(const std::string& bytes) {
  std::string out;
  for (char ch : bytes) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out += ch;
    } else {
      out += static_cast<char>(0xc0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return out;
}

std::string base64(const std::string& bytes) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                 static_cast<unsigned char>(bytes[i + 2]);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += t[v >> 18];
    out += t[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? t[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace strata::sample
