#include "archive/record_start.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <utility>

namespace strata::archive {
namespace {

constexpr size_t kMaxArcLine = 8 << 10;
constexpr size_t kMaxValidHead = 64 << 10;
constexpr size_t kMaxVersionLine = 32;

std::vector<std::string_view> split_spaces(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t pos = 0;
  while (pos < line.size()) {
    size_t sp = line.find(' ', pos);
    if (sp == std::string_view::npos) sp = line.size();
    if (sp > pos) fields.push_back(line.substr(pos, sp - pos));
    pos = sp + 1;
  }
  return fields;
}

bool is_arc_date(std::string_view s) {
  return s.size() >= 8 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Letters before a ':', and not junk glued to a usual scheme ("xhttp:" is a damaged line).
bool has_scheme(std::string_view url) {
  size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 12) return false;
  for (size_t i = 0; i < colon; ++i)
    if (!std::isalpha(static_cast<unsigned char>(url[i]))) return false;
  std::string_view scheme = url.substr(0, colon);
  for (std::string_view usual : {"http", "https", "dns", "filedesc"})
    if (scheme.size() > usual.size() && scheme.ends_with(usual)) return false;
  return true;
}

// "URL IP DATE MIME LEN" (or the 10-field v2 form): the first field has a scheme and the last
// is a length. Used to find records, so it must reject body text.
bool plausible_arc_line(std::string_view line) {
  auto fields = arc_fields(line);
  if (fields.size() < 5 || fields.size() > 64 || !has_scheme(fields[0])) return false;
  std::string_view len = fields.back();
  if (!len.empty() && (is_digit(len[0]) || len[0] == '-')) return true;
  // A broken length after a real date still marks a record (warcio's bad.arc).
  return is_arc_date(fields[fields.size() - 3]);
}

// As plausible_arc_line, with a numeric length and a date where v1 or v2 lines have it.
bool valid_arc_line(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty() || !is_digit(t.back())) return false;  // cheap first: most lines end otherwise
  auto fields = arc_fields(line);
  size_t n = fields.size();
  if (n < 5 || n > 64 || !has_scheme(fields[0])) return false;
  std::string_view length = fields.back();
  if (length.starts_with('-')) length.remove_prefix(1);  // -1: a known writer's "unknown"
  uint64_t value = 0;
  return parse_u64(length, value) &&
         (is_arc_date(fields[n - 3]) || (n >= 10 && is_arc_date(fields[n - 8])));
}

// The line at the start of `data` checked by `check`, once it is whole.
template <typename Check>
Boundary arc_line_at(std::string_view data, bool at_end, Check&& check) {
  size_t nl = data.find('\n');
  if (nl == std::string_view::npos) {
    if (!at_end && data.size() < kMaxArcLine) return Boundary::need_more;
    nl = data.size();
  }
  return check(data.substr(0, nl)) ? Boundary::yes : Boundary::no;
}

bool same_name(std::string_view a, std::string_view b) {  // ASCII case-insensitive
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// "WARC/" digits "." digits, then the line end.
Boundary warc_version_line_at(std::string_view data, bool at_end) {
  size_t nl = data.substr(0, kMaxVersionLine).find('\n');
  if (nl == std::string_view::npos)
    return !at_end && data.size() < kMaxVersionLine ? Boundary::need_more : Boundary::no;
  std::string_view version = trim(data.substr(5, nl - 5));
  size_t dot = version.find('.');
  bool ok =
      dot != std::string_view::npos && dot > 0 && dot + 1 < version.size() &&
      std::all_of(version.begin(), version.end(), [](char c) { return is_digit(c) || c == '.'; });
  return ok ? Boundary::yes : Boundary::no;
}

// Line by line, stopping at the first line that is not a header: scanning payload text that
// holds many "WARC/" costs little.
Boundary valid_warc_head(std::string_view data, bool at_end) {
  if (data.size() < 5) return at_end ? Boundary::no : Boundary::need_more;
  if (data.substr(0, 5) != "WARC/") return Boundary::no;
  if (Boundary b = warc_version_line_at(data, at_end); b != Boundary::yes) return b;
  std::string_view scan = data.substr(0, kMaxValidHead);
  bool type = false, id = false, date = false, length = false;
  for (size_t pos = scan.find('\n') + 1;;) {
    size_t nl = scan.find('\n', pos);
    if (nl == std::string_view::npos)
      return !at_end && data.size() < kMaxValidHead ? Boundary::need_more : Boundary::no;
    std::string_view line = scan.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) break;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      if (line[0] == ' ' || line[0] == '\t') continue;  // a folded value
      return Boundary::no;
    }
    std::string_view name = trim(line.substr(0, colon));
    uint64_t value = 0;
    type |= same_name(name, "WARC-Type");
    id |= same_name(name, "WARC-Record-ID");
    date |= same_name(name, "WARC-Date");
    length |= same_name(name, "Content-Length") && parse_u64(line.substr(colon + 1), value);
  }
  return type && id && date && length ? Boundary::yes : Boundary::no;
}

void add_every(std::string_view data, std::string_view needle, size_t shift, size_t offset,
               std::vector<std::pair<size_t, bool>>& out) {
  const char* end = data.data() + data.size();
  for (const char* p = data.data();
       (p = static_cast<const char*>(
            memmem(p, static_cast<size_t>(end - p), needle.data(), needle.size())));
       ++p)
    out.emplace_back(offset + static_cast<size_t>(p - data.data()) + shift, true);
}

// Offsets in `data` where a record may start at any byte: "WARC/", or for ARC the start of
// each line that ends like a header line (with a length) and every URL scheme an ARC line may
// start with on it, as junk may precede the line on its line. Other lines are never split, so
// minified HTML with many URLs costs one pass.
void any_byte_candidates(std::string_view data, bool arc,
                         std::vector<std::pair<size_t, bool>>& out) {
  if (!arc) return add_every(data, "WARC/", 0, 0, out);
  for (size_t start = 0; start < data.size();) {
    size_t nl = data.find('\n', start);
    if (nl == std::string_view::npos) {  // the last line, maybe cut: looked at again when whole
      out.emplace_back(start, true);
      return;
    }
    std::string_view line = data.substr(start, nl - start);
    std::string_view t = trim(line);
    if (line.size() <= kMaxArcLine && !t.empty() && is_digit(t.back())) {
      out.emplace_back(start, true);
      for (std::string_view scheme : {"http", "dns:", "ftp:", "filedesc:"})
        add_every(line.substr(1), scheme, 1, start, out);
    }
    start = nl + 1;
  }
}

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool parse_u64(std::string_view s, uint64_t& out) {
  s = trim(s);
  if (s.empty() || s.size() > 19) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Alexa wrote "URL IP DATE  LEN" (empty mime): give it back its fifth field.
std::vector<std::string_view> arc_fields(std::string_view line) {
  auto fields = split_spaces(trim(line));
  if (fields.size() == 4 && is_arc_date(fields[2]))
    fields.insert(fields.begin() + 3, std::string_view());
  return fields;
}

// One pass over the lines: a block after the head is never scanned.
size_t find_head_end(std::string_view data) {
  const char* begin = data.data();
  const char* end = begin + data.size();
  const char* line = begin;
  while (const char* nl = static_cast<const char*>(std::memchr(line, '\n', end - line))) {
    if (line != begin && (nl == line || (nl == line + 1 && *line == '\r')))
      return static_cast<size_t>(nl + 1 - begin);
    line = nl + 1;
  }
  return std::string_view::npos;
}

Boundary expected_record_start(std::string_view data, bool arc, bool at_end) {
  if (arc) return arc_line_at(data, at_end, plausible_arc_line);
  if (data.size() < 5) return at_end ? Boundary::no : Boundary::need_more;
  return data.substr(0, 5) == "WARC/" ? Boundary::yes : Boundary::no;
}

Boundary valid_record_start(std::string_view data, bool arc, bool at_end) {
  return arc ? arc_line_at(data, at_end, valid_arc_line) : valid_warc_head(data, at_end);
}

RecordStart first_record_start(std::string_view data, std::vector<uint64_t> member_starts, bool arc,
                               bool at_end, bool any_byte) {
  std::vector<std::pair<size_t, bool>> candidates;  // (offset, must be valid)
  for (uint64_t m : member_starts) candidates.emplace_back(static_cast<size_t>(m), false);
  if (any_byte) any_byte_candidates(data, arc, candidates);
  std::sort(candidates.begin(), candidates.end());
  for (auto [at, strict] : candidates) {
    if (at >= data.size()) break;
    std::string_view rest = data.substr(at);
    Boundary b =
        strict ? valid_record_start(rest, arc, at_end) : expected_record_start(rest, arc, at_end);
    if (b == Boundary::yes || (b == Boundary::need_more && at > 0)) return {at, b};
  }
  return {std::string_view::npos, Boundary::no};
}

}  // namespace strata::archive
