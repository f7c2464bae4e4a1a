#include "replay/rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "replay/script_wrap.hpp"
#include "url/url.hpp"

namespace strata::replay {
namespace {

bool iequals_prefix(std::string_view s, size_t at, std::string_view prefix) {
  if (s.size() - std::min(at, s.size()) < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(s[at + k])) != prefix[k]) return false;
  return true;
}

size_t ifind(std::string_view s, std::string_view needle, size_t from) {
  for (size_t i = from; i + needle.size() <= s.size(); ++i)
    if (iequals_prefix(s, i, needle)) return i;
  return std::string_view::npos;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The character references that occur in URLs: named &amp; &quot; &apos; &lt; &gt;, numeric.
std::string decode_entities(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    std::string name = lower(s.substr(i + 1, semi - i - 1));
    long code = -1;
    if (name == "amp") code = '&';
    if (name == "quot") code = '"';
    if (name == "apos") code = '\'';
    if (name == "lt") code = '<';
    if (name == "gt") code = '>';
    if (name.size() > 1 && name[0] == '#') {
      bool hex = name[1] == 'x';
      std::string digits = name.substr(hex ? 2 : 1);
      bool valid = !digits.empty() && std::all_of(digits.begin(), digits.end(), [&](char c) {
        return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                   : std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
      if (valid) code = std::strtol(digits.c_str(), nullptr, hex ? 16 : 10);
    }
    if (code < 0 || code > 0x7f) {  // not a URL character: kept as written
      out += s[i];
      continue;
    }
    out += static_cast<char>(code);
    i = semi;
  }
  return out;
}

std::string encode_attribute(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

bool web_url(std::string_view u) {
  return iequals_prefix(u, 0, "http://") || iequals_prefix(u, 0, "https://");
}

// ---- CSS ----

std::string_view css_modifier(std::string_view reference) {
  std::string path = lower(reference.substr(0, reference.find_first_of("?#")));
  return path.ends_with(".css") ? "cs_" : "im_";
}

// Appends css[from, to) with every url(...) and @import "..." rewritten.
void append_css(std::string& out, std::string_view css, const RewriteContext& ctx) {
  size_t i = 0;
  while (i < css.size()) {
    size_t u = ifind(css, "url(", i), imp = ifind(css, "@import", i);
    size_t at = std::min(u, imp);
    if (at == std::string_view::npos) break;
    size_t start = at + (at == u ? 4 : 7);
    while (start < css.size() && is_space(css[start])) ++start;
    char quote = start < css.size() && (css[start] == '"' || css[start] == '\'') ? css[start] : 0;
    if (at == imp && !quote) {  // @import url(...): the url( branch takes it
      out.append(css.substr(i, start - i));
      i = start;
      continue;
    }
    size_t value = start + (quote ? 1 : 0);
    size_t end = quote ? css.find(quote, value) : css.find(')', value);
    if (end == std::string_view::npos) break;
    std::string_view ref = css.substr(value, end - value);
    std::string_view mod = at == imp ? "cs_" : css_modifier(trim(ref));
    out.append(css.substr(i, value - i));
    out += rewrite_reference(ctx, mod, quote ? ref : trim(ref));
    i = end;
  }
  out.append(css.substr(std::min(i, css.size())));
}

// ---- HTML ----

struct Attribute {
  std::string name;      // lower-cased
  std::string_view raw;  // as written, name through value
  std::string value;     // entities decoded
  bool has_value = false;
};

struct Tag {
  std::string name;  // lower-cased
  std::string_view raw_name;
  std::vector<Attribute> attributes;
  bool self_closing = false;
  size_t end = 0;  // after '>'
};

const Attribute* find_attribute(const Tag& tag, std::string_view name) {
  for (const auto& a : tag.attributes)
    if (a.name == name) return &a;
  return nullptr;
}

// Parses the start tag at html[lt] == '<'; nullopt when it does not close.
std::optional<Tag> parse_tag(std::string_view html, size_t lt) {
  Tag tag;
  size_t i = lt + 1;
  while (i < html.size() && !is_space(html[i]) && html[i] != '>' && html[i] != '/') ++i;
  tag.raw_name = html.substr(lt + 1, i - lt - 1);
  tag.name = lower(tag.raw_name);
  while (i < html.size()) {
    while (i < html.size() && (is_space(html[i]) || html[i] == '/')) {
      tag.self_closing = html[i] == '/';
      ++i;
    }
    if (i >= html.size()) return std::nullopt;
    if (html[i] == '>') {
      tag.end = i + 1;
      return tag;
    }
    tag.self_closing = false;
    Attribute a;
    size_t start = i;
    while (i < html.size() && !is_space(html[i]) && html[i] != '>' && html[i] != '=' &&
           !(html[i] == '/' && i + 1 < html.size() && html[i + 1] == '>'))
      ++i;
    a.name = lower(html.substr(start, i - start));
    size_t after_name = i;
    while (i < html.size() && is_space(html[i])) ++i;
    if (i < html.size() && html[i] == '=') {
      ++i;
      while (i < html.size() && is_space(html[i])) ++i;
      if (i >= html.size()) return std::nullopt;
      a.has_value = true;
      if (html[i] == '"' || html[i] == '\'') {
        size_t close = html.find(html[i], i + 1);
        if (close == std::string_view::npos) return std::nullopt;
        a.value = decode_entities(html.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        size_t v = i;
        while (i < html.size() && !is_space(html[i]) && html[i] != '>') ++i;
        a.value = decode_entities(html.substr(v, i - v));
      }
    } else {
      i = after_name;
    }
    a.raw = html.substr(start, i - start);
    tag.attributes.push_back(std::move(a));
  }
  return std::nullopt;
}

bool has_token(std::string_view list, std::string_view token) {
  std::string l = lower(list);
  size_t at = l.find(token);
  while (at != std::string::npos) {
    bool starts = at == 0 || is_space(l[at - 1]);
    bool ends = at + token.size() == l.size() || is_space(l[at + token.size()]);
    if (starts && ends) return true;
    at = l.find(token, at + 1);
  }
  return false;
}

// The modifier a URL attribute is served with; nullopt for attributes that hold no URL.
std::optional<std::string_view> url_modifier(const Tag& tag, std::string_view attribute) {
  const std::string& t = tag.name;
  if (attribute == "src") {
    if (t == "script") return "js_";
    if (t == "iframe" || t == "frame") return "if_";
    if (t == "img" || t == "input" || t == "source") return "im_";
    return "id_";
  }
  if (attribute == "href") {
    if (t == "a" || t == "area" || t == "base") return "";
    if (t != "link") return std::nullopt;
    const Attribute* rel = find_attribute(tag, "rel");
    std::string_view r = rel ? std::string_view(rel->value) : std::string_view();
    if (has_token(r, "stylesheet")) return "cs_";
    if (has_token(r, "icon") || has_token(r, "apple-touch-icon")) return "im_";
    return "id_";
  }
  if (attribute == "background" || attribute == "poster" || attribute == "lowsrc") return "im_";
  if (attribute == "action" || attribute == "formaction") return "";
  if (attribute == "data" && t == "object") return "id_";
  return std::nullopt;
}

std::string rewrite_srcset(std::string_view srcset, const RewriteContext& ctx) {
  std::string out;
  size_t i = 0;
  while (i < srcset.size()) {
    size_t start = i;
    while (i < srcset.size() && (is_space(srcset[i]) || srcset[i] == ',')) ++i;
    out.append(srcset.substr(start, i - start));
    size_t u = i;
    while (i < srcset.size() && !is_space(srcset[i])) ++i;
    std::string_view candidate = srcset.substr(u, i - u);
    size_t commas = 0;
    while (commas < candidate.size() && candidate[candidate.size() - 1 - commas] == ',') ++commas;
    out += rewrite_reference(ctx, "im_", candidate.substr(0, candidate.size() - commas));
    out.append(candidate.substr(candidate.size() - commas));
    if (commas) continue;
    size_t d = i;
    int depth = 0;
    while (i < srcset.size() && (depth > 0 || srcset[i] != ',')) {
      depth += srcset[i] == '(' ? 1 : srcset[i] == ')' ? -1 : 0;
      ++i;
    }
    out.append(srcset.substr(d, i - d));
  }
  return out;
}

// "5; url=http://x/" -> "5; url=/wayback/ts/http://x/".
std::string rewrite_refresh(std::string_view content, const RewriteContext& ctx) {
  size_t at = ifind(content, "url=", 0);
  if (at == std::string_view::npos) return std::string(content);
  std::string_view target = trim(content.substr(at + 4));
  if (!target.empty() && (target.front() == '\'' || target.front() == '"')) {
    target.remove_prefix(1);
    if (!target.empty() && (target.back() == '\'' || target.back() == '"')) target.remove_suffix(1);
  }
  return std::string(content.substr(0, at + 4)) + rewrite_reference(ctx, "", target);
}

// The rewritten value of one attribute, or nullopt to keep it as written.
std::optional<std::string> rewrite_attribute(const Tag& tag, const Attribute& a,
                                             const RewriteContext& ctx) {
  if (!a.has_value) return std::nullopt;
  if (a.name == "srcset" || a.name == "imagesrcset") return rewrite_srcset(a.value, ctx);
  if (a.name == "style") {
    std::string css;
    append_css(css, a.value, ctx);
    return css;
  }
  if (a.name == "content" && tag.name == "meta") {
    const Attribute* equiv = find_attribute(tag, "http-equiv");
    if (equiv && lower(equiv->value) == "refresh") return rewrite_refresh(a.value, ctx);
    return std::nullopt;
  }
  auto mod = url_modifier(tag, a.name);
  if (!mod) return std::nullopt;
  return rewrite_reference(ctx, *mod, a.value);
}

void append_tag(std::string& out, const Tag& tag, RewriteContext& ctx) {
  if (tag.name == "base")
    if (const Attribute* href = find_attribute(tag, "href"))
      if (auto resolved = url::resolve(ctx.base_url, trim(href->value));
          resolved && web_url(*resolved))
        ctx.base_url = *resolved;
  out += '<';
  out.append(tag.raw_name);
  for (const auto& a : tag.attributes) {
    out += ' ';
    // Subresource integrity cannot hold for rewritten bytes; pywb renames it the same way.
    if (a.name == "integrity") out += '_';
    auto value = rewrite_attribute(tag, a, ctx);
    if (!value || *value == a.value) {
      out.append(a.raw);
      continue;
    }
    out.append(a.raw.substr(0, a.name.size()));
    out += "=\"" + encode_attribute(*value) + '"';
  }
  out += tag.self_closing ? " />" : ">";
}

bool javascript_type(const Tag& tag) {
  const Attribute* type = find_attribute(tag, "type");
  if (!type) return true;
  std::string t = lower(trim(type->value));
  return t.empty() || t == "module" || t.find("javascript") != std::string::npos ||
         t.find("ecmascript") != std::string::npos;
}

}  // namespace

std::string archive_url(const RewriteContext& ctx, std::string_view modifier,
                        std::string_view absolute_url) {
  std::string out = ctx.prefix + ctx.timestamp;
  out.append(modifier);
  out += '/';
  out.append(absolute_url);
  return out;
}

std::string rewrite_reference(const RewriteContext& ctx, std::string_view modifier,
                              std::string_view reference) {
  std::string_view ref = trim(reference);
  if (ref.empty() || ref.front() == '#' || ref.starts_with(ctx.prefix))
    return std::string(reference);
  auto resolved = url::resolve(ctx.base_url, ref);
  if (!resolved || !web_url(*resolved)) return std::string(reference);
  return archive_url(ctx, modifier, *resolved);
}

std::string rewrite_css(std::string_view css, const RewriteContext& ctx) {
  std::string out;
  out.reserve(css.size() + css.size() / 8);
  append_css(out, css, ctx);
  return out;
}

std::string rewrite_js(std::string_view js, const RewriteContext& ctx) {
  // No modifier: a script names pages to navigate to as often as resources to load.
  const std::string prefix = ctx.prefix + ctx.timestamp + "/";
  std::string escaped_prefix;
  for (char c : prefix) escaped_prefix += c == '/' ? std::string("\\/") : std::string(1, c);
  std::string out;
  out.reserve(js.size());
  for (size_t i = 0; i < js.size(); ++i) {
    out += js[i];
    if (js[i] != '"' && js[i] != '\'' && js[i] != '`') continue;
    size_t at = i + 1;
    if (iequals_prefix(js, at, "http://") || iequals_prefix(js, at, "https://"))
      out += prefix;
    else if (iequals_prefix(js, at, "http:\\/\\/") || iequals_prefix(js, at, "https:\\/\\/"))
      out += escaped_prefix;
  }
  return ctx.wrap_scripts_for_wombat ? wrap_script_for_wombat(out) : out;
}

std::string rewrite_html(std::string_view html, const RewriteContext& context,
                         std::string_view banner, std::string_view head_insert) {
  RewriteContext ctx = context;  // <base href> changes the base from there on
  std::string out;
  out.reserve(html.size() + html.size() / 8 + banner.size() + head_insert.size());
  bool banner_done = banner.empty(), head_done = head_insert.empty();
  size_t i = 0;
  while (i < html.size()) {
    size_t lt = html.find('<', i);
    if (lt == std::string_view::npos || lt + 1 >= html.size()) break;
    out.append(html.substr(i, lt - i));
    char next = html[lt + 1];
    size_t end = std::string_view::npos;  // of markup copied as it is
    if (html.substr(lt, 4) == "<!--") {
      end = html.find("-->", lt + 4);
      end = end == std::string_view::npos ? html.size() : end + 3;
    } else if (next == '!' || next == '?' || next == '/') {
      end = html.find('>', lt);
      end = end == std::string_view::npos ? html.size() : end + 1;
    } else if (!std::isalpha(static_cast<unsigned char>(next))) {
      end = lt + 1;  // a lone '<' in text
    }
    if (end != std::string_view::npos) {
      out.append(html.substr(lt, end - lt));
      i = end;
      continue;
    }
    auto tag = parse_tag(html, lt);
    if (!tag) {
      i = lt;
      break;
    }
    if (!head_done && tag->name != "html" && tag->name != "head") {
      out.append(head_insert);
      head_done = true;
    }
    append_tag(out, *tag, ctx);
    i = tag->end;
    if (tag->name == "head" && !head_done) {
      out.append(head_insert);
      head_done = true;
    }
    if (tag->name == "body" && !banner_done) {
      out.append(banner);
      banner_done = true;
    }
    if ((tag->name == "style" || tag->name == "script") && !tag->self_closing) {
      size_t close = ifind(html, "</" + tag->name, i);
      if (close == std::string_view::npos) close = html.size();
      std::string_view text = html.substr(i, close - i);
      if (tag->name == "style")
        append_css(out, text, ctx);
      else
        out += javascript_type(*tag) ? rewrite_js(text, ctx) : std::string(text);
      i = close;
    }
  }
  out.append(html.substr(std::min(i, html.size())));
  if (!banner_done) out.insert(0, banner);
  if (!head_done) out.insert(0, head_insert);
  return out;
}

}  // namespace strata::replay
