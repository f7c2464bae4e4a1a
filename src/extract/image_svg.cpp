// SVG: recognise an XML document whose root element is <svg> and read its intrinsic size
// from width/height (unitless, px or absolute CSS units), else from viewBox.
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "extract/image_formats.hpp"

namespace strata::extract::image_detail {
namespace {

constexpr size_t kMaxProlog = 64 * 1024;  // comments/doctype before the root we skip over

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

bool istarts_with(std::string_view text, size_t pos, std::string_view prefix) {
  if (pos > text.size() || text.size() - pos < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[pos + i])) != prefix[i]) return false;
  return true;
}

// Position after the doctype's closing '>', honouring an internal subset [...].
size_t skip_doctype(std::string_view text, size_t pos) {
  bool in_subset = false;
  char quote = 0;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[') {
      in_subset = true;
    } else if (c == ']') {
      in_subset = false;
    } else if (c == '>' && !in_subset) {
      return pos + 1;
    }
  }
  return std::string_view::npos;
}

// Skips one prolog item (<?...?>, <!--...-->, <!DOCTYPE ...>) at pos; npos when none.
size_t skip_prolog_item(std::string_view text, size_t pos) {
  auto after = [&](std::string_view end) {
    size_t found = text.find(end, pos + 2);
    return found == std::string_view::npos ? found : found + end.size();
  };
  if (istarts_with(text, pos, "<?")) return after("?>");
  if (istarts_with(text, pos, "<!--")) return after("-->");
  if (istarts_with(text, pos, "<!doctype")) return skip_doctype(text, pos);
  return std::string_view::npos;
}

bool is_svg_name(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && !is_space(text[end]) && text[end] != '>' && text[end] != '/') ++end;
  if (end == text.size()) return false;
  std::string_view name = text.substr(pos, end - pos);
  size_t colon = name.rfind(':');
  if (colon != std::string_view::npos) name.remove_prefix(colon + 1);
  return name == "svg";
}

struct Length {
  enum Kind { kAbsent, kAbsolute, kPercent, kUnknown } kind = kAbsent;
  double value = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

double unit_factor(std::string_view unit) {
  static const std::array<std::pair<std::string_view, double>, 7> kUnits{{{"", 1},
                                                                          {"px", 1},
                                                                          {"pt", 4.0 / 3},
                                                                          {"pc", 16},
                                                                          {"mm", 96 / 25.4},
                                                                          {"cm", 96 / 2.54},
                                                                          {"in", 96}}};
  for (const auto& [name, factor] : kUnits)
    if (unit == name) return factor;
  return 0;
}

Length parse_length(std::string_view raw, bool present) {
  Length length;
  if (!present) return length;
  std::string_view text = trim(raw);
  double number = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  length.kind = Length::kUnknown;
  if (error != std::errc() || !std::isfinite(number) || number <= 0) return length;
  std::string_view unit = trim(text.substr(static_cast<size_t>(end - text.data())));
  if (unit == "%") {
    length.kind = Length::kPercent;
  } else if (double factor = unit_factor(unit); factor > 0) {
    length.kind = Length::kAbsolute;
    length.value = number * factor;
  }
  return length;
}

struct Attributes {
  std::string width, height, view_box;
  bool has_width = false, has_height = false, has_view_box = false;
};

// Reads name="value" pairs of the start tag beginning at pos ('<svg').
Attributes read_attributes(std::string_view text, size_t pos) {
  Attributes attrs;
  while (pos < text.size() && !is_space(text[pos]) && text[pos] != '>') ++pos;
  while (pos < text.size() && text[pos] != '>') {
    while (pos < text.size() && (is_space(text[pos]) || text[pos] == '/')) ++pos;
    size_t name_start = pos;
    while (pos < text.size() && !is_space(text[pos]) && text[pos] != '=' && text[pos] != '>') ++pos;
    std::string_view name = text.substr(name_start, pos - name_start);
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos >= text.size() || text[pos] != '=') {
      if (name.empty() && pos < text.size() && text[pos] != '>') ++pos;
      continue;
    }
    ++pos;
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos >= text.size()) break;
    char quote = text[pos];
    size_t value_start = pos + 1, value_end;
    if (quote == '"' || quote == '\'') {
      value_end = text.find(quote, value_start);
      if (value_end == std::string_view::npos) break;
      pos = value_end + 1;
    } else {
      value_start = pos;
      while (pos < text.size() && !is_space(text[pos]) && text[pos] != '>') ++pos;
      value_end = pos;
    }
    std::string value(text.substr(value_start, value_end - value_start));
    if (name == "width") attrs.width = value, attrs.has_width = true;
    if (name == "height") attrs.height = value, attrs.has_height = true;
    if (name == "viewBox") attrs.view_box = value, attrs.has_view_box = true;
  }
  return attrs;
}

// viewBox="min-x min-y width height" (spaces and/or commas); width/height > 0.
bool parse_view_box(std::string_view text, double& width, double& height) {
  std::array<double, 4> numbers{};
  size_t pos = 0;
  for (double& number : numbers) {
    while (pos < text.size() && (is_space(text[pos]) || text[pos] == ',')) ++pos;
    auto [end, error] = std::from_chars(text.data() + pos, text.data() + text.size(), number);
    if (error != std::errc() || !std::isfinite(number)) return false;
    pos = static_cast<size_t>(end - text.data());
  }
  width = numbers[2];
  height = numbers[3];
  return width > 0 && height > 0;
}

int to_pixels(double value) {
  return value >= 2147483647.0 ? 0 : static_cast<int>(std::lround(value));
}

void set_size(ImageInfo& info, double width, double height) {
  info.width = to_pixels(width);
  info.height = to_pixels(height);
  info.size_known = info.width > 0 && info.height > 0;
}

}  // namespace

size_t find_svg_root(std::string_view bytes) {
  std::string_view text = bytes.substr(0, kMaxProlog);
  size_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (pos < text.size()) {
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos >= text.size() || text[pos] != '<') return std::string_view::npos;
    size_t next = skip_prolog_item(text, pos);
    if (next != std::string_view::npos) {
      pos = next;
      continue;
    }
    if (istarts_with(text, pos, "<!") || istarts_with(text, pos, "<?")) break;  // unterminated
    return is_svg_name(text, pos + 1) ? pos : std::string_view::npos;
  }
  return std::string_view::npos;
}

std::optional<ImageInfo> read_svg(std::string_view bytes) {
  size_t root = find_svg_root(bytes);
  if (root == std::string_view::npos) return std::nullopt;
  ImageInfo info;
  info.mime = "image/svg+xml";
  Attributes attrs = read_attributes(bytes, root + 1);
  Length width = parse_length(attrs.width, attrs.has_width);
  Length height = parse_length(attrs.height, attrs.has_height);
  if (width.kind == Length::kPercent || height.kind == Length::kPercent) return info;
  if (width.kind == Length::kAbsolute && height.kind == Length::kAbsolute) {
    set_size(info, width.value, height.value);
    return info;
  }
  double box_w = 0, box_h = 0;
  if (!attrs.has_view_box || !parse_view_box(attrs.view_box, box_w, box_h)) return info;
  if (width.kind == Length::kAbsolute)
    set_size(info, width.value, width.value * box_h / box_w);
  else if (height.kind == Length::kAbsolute)
    set_size(info, height.value * box_w / box_h, height.value);
  else
    set_size(info, box_w, box_h);
  return info;
}

}  // namespace strata::extract::image_detail
