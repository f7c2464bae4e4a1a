#include "books/compat.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace strata::books {
namespace {

constexpr std::string_view kPictureTag = "<block blockType=\"Picture\"";
constexpr std::string_view kMarker = "KALEVIMAGE";

// Perl's \s on a byte string.
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (is_space(s[i])) {
      out += ' ';
      while (i < s.size() && is_space(s[i])) ++i;
    } else {
      out += s[i++];
    }
  }
  return out;
}

std::string trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

void erase_all(std::string& s, std::string_view what) {
  for (size_t at; (at = s.find(what)) != std::string::npos;) s.erase(at, what.size());
}

// s/<[^>]+>//g
std::string strip_tags(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] != '>') {
      const auto close = s.find('>', i + 1);
      if (close != std::string_view::npos) {
        i = close + 1;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// The attributes after `<block blockType="Picture"` up to the first '>' (regex ([^>]+)):
// nullopt when the tag is absent or nothing stands before the '>'.
// With `closed`, a '>' must follow them (the text pass's regex ends in '>').
std::optional<std::pair<size_t, size_t>> picture_attrs(std::string_view line, bool closed) {
  for (size_t at = line.find(kPictureTag); at != std::string_view::npos;
       at = line.find(kPictureTag, at + 1)) {
    const size_t from = at + kPictureTag.size();
    size_t to = from;
    while (to < line.size() && line[to] != '>') ++to;
    if (to > from && (!closed || to < line.size())) return std::make_pair(from, to);
  }
  return std::nullopt;
}

// /l="(\d+)" t="(\d+)" r="(\d+)" b="(\d+)"/ on the attributes; zeros when it does not match.
Box box_of(std::string_view attrs) {
  static constexpr std::string_view kNames[] = {"l=\"", " t=\"", " r=\"", " b=\""};
  for (size_t at = attrs.find("l=\""); at != std::string_view::npos;
       at = attrs.find("l=\"", at + 1)) {
    int values[4];
    size_t p = at;
    bool ok = true;
    for (int k = 0; k < 4 && ok; ++k) {
      ok = attrs.substr(p, kNames[k].size()) == kNames[k];
      p += kNames[k].size();
      const size_t digits = p;
      while (ok && p < attrs.size() && is_digit(attrs[p])) ++p;
      ok = ok && p > digits && p < attrs.size() && attrs[p] == '"';
      if (ok) values[k] = std::atoi(std::string(attrs.substr(digits, p - digits)).c_str());
      ++p;
    }
    if (ok) return {values[0], values[1], values[2], values[3]};
  }
  return {};
}

// Perl's substr($s, offset, length) with a negative offset counting from the end.
std::string_view perl_substr(std::string_view s, long long offset, long long length) {
  const long long size = static_cast<long long>(s.size());
  long long start = offset < 0 ? size + offset : offset;
  long long end = start + length;
  if (start > size) return {};
  start = std::max(0LL, start);
  end = std::clamp(end, start, size);
  return s.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
}

std::string four_digits(int n) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d", n);
  return text;
}

}  // namespace

CompatScandata compat_scandata(std::string_view xml) {
  CompatScandata out;
  if (xml.size() <= 1000) return out;
  out.read = true;
  constexpr std::string_view kOpen = "<page leafNum=\"";
  for (size_t at = xml.find(kOpen); at != std::string_view::npos; at = xml.find(kOpen, at + 1)) {
    size_t p = at + kOpen.size();
    const size_t digits = p;
    while (p < xml.size() && is_digit(xml[p])) ++p;
    if (p == digits || xml.substr(p, 2) != "\">") continue;
    const auto close = xml.find("</page>", p + 2);
    if (close == std::string_view::npos) break;
    const std::string_view id = xml.substr(digits, p - digits);
    const std::string_view block = xml.substr(p + 2, close - p - 2);
    const int leaf = std::atoi(std::string(id).c_str());
    if (out.min_leaf.empty()) out.min_leaf = std::string(id);
    out.max_leaf = std::max(out.max_leaf, leaf);
    if (block.find("<addToAccessFormats>false</addToAccessFormats>") != std::string_view::npos)
      out.dropped[leaf] = true;
    if (block.find("<pageType>Cover</pageType>") != std::string_view::npos) out.covers[leaf] = true;
    at = close;
  }
  return out;
}

CompatBook::CompatBook(std::string identifier, std::string image_prefix, CompatScandata scandata)
    : identifier_(std::move(identifier)),
      image_prefix_(std::move(image_prefix)),
      scandata_(std::move(scandata)) {
  page_ = (scandata_.min_leaf.empty() ? 0 : std::atoi(scandata_.min_leaf.c_str())) - 1;
}

void CompatBook::feed(std::string_view bytes) {
  for (size_t nl; (nl = bytes.find('\n')) != std::string_view::npos;) {
    pending_.append(bytes.substr(0, nl + 1));
    line(std::move(pending_));
    pending_.clear();
    bytes.remove_prefix(nl + 1);
  }
  pending_.append(bytes);
}

void CompatBook::finish() {
  if (!pending_.empty()) line(std::move(pending_));
  pending_.clear();
  buffer_ = collapse_spaces(buffer_);
  emit();
}

void CompatBook::line(std::string text) {
  if (text.find("<page") != std::string::npos) {
    ++page_;
    if (page_ == 0) buffer_.clear();
    if (!scandata_.dropped.count(page_)) ++viewer_;
  }
  const bool dropped = scandata_.dropped.count(page_) > 0;
  if (text.find(kPictureTag) != std::string::npos && !dropped) {  // the count pass
    const auto counted = picture_attrs(text, false);
    const Box box = counted ? box_of(std::string_view(text).substr(
                                  counted->first, counted->second - counted->first))
                            : Box{};
    if (box.width() > 300 && box.height() > 300 && page_ > 4 && page_ < scandata_.max_leaf - 4) {
      ++good_images_;
      pages_with_images_[page_] = true;
    }
  }
  if (const auto attrs =
          picture_attrs(text, true)) {  // the text pass: the first Picture tag becomes a marker
    const std::string marker = std::string(kMarker) + "{" + std::to_string(page_) + "}{" +
                               std::to_string(viewer_) + "}{" +
                               text.substr(attrs->first, attrs->second - attrs->first) + "}";
    text.replace(attrs->first - kPictureTag.size(),
                 attrs->second + 1 - (attrs->first - kPictureTag.size()), marker);
  }
  erase_all(text, "&quot;");
  erase_all(text, "&apos;");
  text = strip_tags(text);
  if (!dropped) buffer_ += collapse_spaces(text);
}

void CompatBook::emit() {
  const std::string_view buf = buffer_;
  const std::string url =
      "https://archive.org/stream/" + identifier_ + "/" + image_prefix_ + "#page/n";
  int image_id = 0;
  for (size_t at = buf.find(kMarker); at != std::string_view::npos;) {
    // KALEVIMAGE{page}{viewer}{attrs}, each group one or more characters other than '}'.
    std::string_view groups[3];
    size_t p = at + kMarker.size();
    bool ok = true;
    for (auto& group : groups) {
      ok = ok && p < buf.size() && buf[p] == '{';
      const size_t from = ++p;
      while (ok && p < buf.size() && buf[p] != '}') ++p;
      ok = ok && p < buf.size() && p > from;
      if (ok) group = buf.substr(from, p - from);
      ++p;
    }
    if (!ok) {
      at = buf.find(kMarker, at + 1);
      continue;
    }
    const size_t end = p;
    const int leaf = std::atoi(std::string(groups[0]).c_str());
    const int viewer = std::atoi(std::string(groups[1]).c_str());
    const Box box = box_of(groups[2]);
    if (box.width() > 200 && box.height() > 200 && leaf > 4 && leaf < scandata_.max_leaf - 4 &&
        !scandata_.covers.count(leaf)) {
      std::string pre(perl_substr(buf, static_cast<long long>(at) - 1000, 1000));
      if (const auto brace = pre.rfind('}'); brace != std::string::npos) pre.erase(0, brace + 1);
      std::string post(perl_substr(buf, static_cast<long long>(end), 1000));
      if (const auto next = post.find(kMarker); next != std::string::npos) post.resize(next);
      CompatImage image{
          leaf,
          viewer,
          image_id,
          box,
          identifier_ + ".img." + std::to_string(image_id) + "." + four_digits(viewer) + ".jpg",
          {}};
      image.row = identifier_ + "\t" + std::to_string(viewer) + "\t" + std::to_string(image_id) +
                  "\t" + std::to_string(box.width()) + "\t" + std::to_string(box.height()) + "\t" +
                  image.file + "\t" + url + std::to_string(viewer) + "/mode/1up\t" + trim(pre) +
                  "\t" + trim(post) + "\n";
      images_.push_back(std::move(image));
      ++image_id;
    }
    at = buf.find(kMarker, end);
  }
}

std::string CompatBook::tsv() const {
  std::string out = kCompatHeader;
  for (const auto& image : images_) out += image.row;
  return out;
}

}  // namespace strata::books
