#include "extract/html_prescan.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace strata::extract {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
}

// s[pos...] starts with `word` (lower-case), ignoring ASCII case.
bool has_at(std::string_view s, size_t pos, std::string_view word) {
  if (pos > s.size() || s.size() - pos < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (lower(s[pos + i]) != word[i]) return false;
  return true;
}

// s[...end) ends with `word` (lower-case), ignoring ASCII case.
bool has_before(std::string_view s, size_t end, std::string_view word) {
  return end >= word.size() && has_at(s, end - word.size(), word);
}

// Tags gumbo turns into image elements or picture sources (<image> becomes <img>).
bool image_tag_at(std::string_view s, size_t lt) {
  return has_at(s, lt + 1, "im") || has_at(s, lt + 1, "source");
}

// has_image_extension's list; ".tif" also covers ".tiff" and ".jp" both JPEG spellings.
// URL parsing drops tabs and newlines ("x.j<TAB>pg" is "x.jpg"), so they are skipped, and a
// numeric character reference may spell a letter or a tab (as &Tab; and &NewLine; spell
// those): one met while the letters so far begin an extension counts as the rest of it.
bool image_extension_at(std::string_view s, size_t dot) {
  static constexpr std::array<std::string_view, 9> kExtensions = {
      "jp", "png", "tif", "gif", "svg", "webp", "bmp", "ico", "avif"};
  auto begins_one = [](std::string_view letters) {
    return std::any_of(kExtensions.begin(), kExtensions.end(),
                       [&](std::string_view ext) { return ext.starts_with(letters); });
  };
  std::array<char, 4> letters{};
  size_t n = 0;
  for (size_t pos = dot + 1; pos < s.size(); ++pos) {
    if (s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r') continue;
    if (s.compare(pos, 2, "&#") == 0 || s.compare(pos, 4, "&Tab") == 0 ||
        s.compare(pos, 8, "&NewLine") == 0)
      return true;  // the letters so far begin an extension (checked below)
    letters[n++] = lower(s[pos]);
    std::string_view so_far(letters.data(), n);
    for (std::string_view ext : kExtensions)
      if (so_far == ext) return true;
    if (!begins_one(so_far) || n == letters.size()) return false;
  }
  return false;
}

// "&#46;", "&#x2E;", "&period;" and the like: gumbo decodes them inside attribute values.
bool risky_reference_at(std::string_view s, size_t amp) {
  if (s.compare(amp, 7, "&period") == 0 || s.compare(amp, 5, "&lpar") == 0 ||
      s.compare(amp, 6, "&colon") == 0)
    return true;
  if (!has_at(s, amp, "&#")) return false;
  size_t pos = amp + 2;
  bool hex = pos < s.size() && lower(s[pos]) == 'x';
  if (hex) ++pos;
  while (pos < s.size() && s[pos] == '0') ++pos;
  for (std::string_view code : hex ? std::array<std::string_view, 3>{"2e", "28", "3a"}
                                   : std::array<std::string_view, 3>{"46", "40", "58"})
    if (has_at(s, pos, code)) return true;
  return false;
}

bool needs_dom_at(std::string_view s, size_t pos) {
  switch (s[pos]) {
    case '<':
      return image_tag_at(s, pos);
    case '.':
      return image_extension_at(s, pos);
    case '(':
      return has_before(s, pos, "url");
    case ':':
      return has_before(s, pos, "data") && has_at(s, pos + 1, "image");
    case '&':
      return risky_reference_at(s, pos);
    default:
      return false;
  }
}

// Tags whose first occurrence in the page decides its title, base or body: a page is only
// parsed in part when none of them comes after the part.
bool prefix_tag_at(std::string_view s, size_t lt) {
  return has_at(s, lt + 1, "title") || has_at(s, lt + 1, "base") || has_at(s, lt + 1, "frameset");
}

// The bytes needs_dom_at can answer true for.
const std::array<bool, 256>& trigger_bytes() {
  static const std::array<bool, 256> trigger = [] {
    std::array<bool, 256> out{};
    for (char c : std::string_view("<.(:&")) out[static_cast<unsigned char>(c)] = true;
    return out;
  }();
  return trigger;
}

}  // namespace

bool may_reference_images(std::string_view html) {
  const std::array<bool, 256>& trigger = trigger_bytes();
  for (size_t pos = 0; pos < html.size(); ++pos)
    if (trigger[static_cast<unsigned char>(html[pos])] && needs_dom_at(html, pos)) return true;
  return false;
}

size_t last_prefix_trigger(std::string_view html) {
  const std::array<bool, 256>& trigger = trigger_bytes();
  for (size_t pos = html.size(); pos-- > 0;) {
    if (!trigger[static_cast<unsigned char>(html[pos])]) continue;
    if (needs_dom_at(html, pos) || (html[pos] == '<' && prefix_tag_at(html, pos))) return pos;
  }
  return std::string_view::npos;
}

}  // namespace strata::extract
