// Record framing: WARC and ARC headers, block bounds, resynchronisation, payload decoding.
#include "archive/reader.hpp"

#include <strings.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "archive/http.hpp"
#include "archive/reader_impl.hpp"
#include "core/timestamp.hpp"

namespace strata::archive {
namespace {

constexpr size_t kScanWindow = 64 << 10;
constexpr size_t kMaxArcLine = 8 << 10;

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

std::string join(const std::vector<std::string_view>& fields, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (i) out += ' ';
    out += fields[i];
  }
  return out;
}

// "URL IP DATE MIME LEN" (or the 10-field v2 form): the first field has a scheme and the last
// is a length. Used to find records, so it must reject body text.
bool is_arc_date(std::string_view s) {
  return s.size() >= 8 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// Alexa wrote "URL IP DATE  LEN" (empty mime): give it back its fifth field.
std::vector<std::string_view> arc_fields(std::string_view line) {
  auto fields = split_spaces(trim(line));
  if (fields.size() == 4 && is_arc_date(fields[2]))
    fields.insert(fields.begin() + 3, std::string_view());
  return fields;
}

bool plausible_arc_line(std::string_view line) {
  auto fields = arc_fields(line);
  if (fields.size() < 5 || fields.size() > 64) return false;
  std::string_view url = fields[0];
  size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 12) return false;
  for (size_t i = 0; i < colon; ++i)
    if (!std::isalpha(static_cast<unsigned char>(url[i]))) return false;
  std::string_view len = fields.back();
  if (!len.empty() && (std::isdigit(static_cast<unsigned char>(len[0])) || len[0] == '-'))
    return true;
  // A broken length after a real date still marks a record (warcio's bad.arc).
  return is_arc_date(fields[fields.size() - 3]);
}

enum class Boundary { yes, no, need_more };

Boundary boundary_at(std::string_view data, Dialect dialect, bool at_end) {
  if (dialect != Dialect::arc) {
    if (data.size() < 5) return at_end ? Boundary::no : Boundary::need_more;
    return data.substr(0, 5) == "WARC/" ? Boundary::yes : Boundary::no;
  }
  size_t nl = data.find('\n');
  if (nl == std::string_view::npos) {
    if (!at_end && data.size() < kMaxArcLine) return Boundary::need_more;
    nl = data.size();
  }
  return plausible_arc_line(data.substr(0, nl)) ? Boundary::yes : Boundary::no;
}

// The URI without the angle brackets some writers add (wget) and with spaces escaped, into
// `out` (which keeps its storage from the previous record).
void clean_uri(std::string_view uri, std::string& out) {
  uri = trim(uri);
  if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>')
    uri = uri.substr(1, uri.size() - 2);
  out.clear();
  for (size_t at = 0; at < uri.size();) {
    size_t space = std::min(uri.find(' ', at), uri.size());
    out.append(uri, at, space - at);
    if (space < uri.size()) out += "%20";
    at = space + 1;
  }
}

// "records.<type>" for every RecordType, so counting a record builds no string.
std::string_view type_counter(RecordType type) {
  static const std::array<std::string, 9> names = [] {
    std::array<std::string, 9> out;
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = "records." + std::string(to_string(static_cast<RecordType>(i)));
    return out;
  }();
  return names.at(static_cast<size_t>(type));
}

}  // namespace

std::string_view to_string(PayloadStatus status) {
  switch (status) {
    case PayloadStatus::ok:
      return "ok";
    case PayloadStatus::oversized:
      return "oversized";
    case PayloadStatus::truncated:
      return "truncated";
    case PayloadStatus::decode_failed:
      return "decode_failed";
  }
  return "unknown";
}

ArchiveReader::ArchiveReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ArchiveReader::~ArchiveReader() = default;

bool ArchiveReader::usable() const {
  return impl_->usable;
}

uint64_t ArchiveReader::bytes_read() const {
  return impl_->bytes_before + (impl_->stream ? impl_->stream->compressed_position() : 0);
}

const Counters& ArchiveReader::counters() const {
  for (size_t type = 0; type < records_by_type_.size(); ++type) {
    if (int64_t n = std::exchange(records_by_type_[type], 0)) {
      counters_.add("records", n);
      counters_.add(type_counter(static_cast<RecordType>(type)), n);
    }
  }
  return counters_;
}

void ArchiveReader::report(uint64_t offset, std::string kind, std::string detail) {
  counters_.add("problems");
  if (problems_) problems_(Problem{impl_->file, offset, std::move(kind), std::move(detail)});
}

bool ArchiveReader::next() {
  if (impl_->single && impl_->single_done) {
    finish_record();
    return false;
  }
  for (;;) {
    if (impl_->stream && next_in_stream()) return true;
    if (impl_->single) return false;
    StreamProblem problem = [this](uint64_t offset, const char* kind, const std::string& d) {
      report(offset, kind, d);
    };
    if (!open_next_wacz_entry(*impl_, problem)) return false;
  }
}

bool ArchiveReader::next_in_stream() {
  if (impl_->have_record) finish_record();
  while (find_record_start()) {
    bool ok = impl_->dialect == Dialect::arc ? read_arc_header() : read_warc_header();
    if (ok) {
      impl_->have_record = true;
      impl_->single_done = impl_->single;
      ++records_by_type_[static_cast<size_t>(record_.type)];
      return true;
    }
    if (impl_->single) return false;
  }
  return false;
}

bool ArchiveReader::find_record_start() {
  Stream& s = *impl_->stream;
  for (;;) {
    std::string_view view = s.peek(64);
    size_t ws = 0;
    while (ws < view.size() && (view[ws] == '\r' || view[ws] == '\n' || view[ws] == ' ' ||
                                view[ws] == '\t' || view[ws] == '\0'))
      ++ws;
    s.consume(ws);
    if (ws == view.size()) {
      if (view.empty()) return false;
      continue;
    }
    view = s.peek(kMaxArcLine);
    bool at_end = view.size() < kMaxArcLine;
    if (impl_->dialect == Dialect::unknown) {
      if (view.substr(0, 5) == "WARC/")
        impl_->dialect = Dialect::warc;
      else if (boundary_at(view, Dialect::arc, at_end) == Boundary::yes)
        impl_->dialect = Dialect::arc;
      else {
        impl_->usable = false;
        report(s.disk_offset(s.position()), "not_an_archive",
               "no WARC/ or ARC header at the start");
        return false;
      }
    }
    if (boundary_at(view, impl_->dialect, at_end) == Boundary::yes) return true;
    uint64_t at = s.position();
    report(s.disk_offset(at), "junk_between_records",
           "no record header where one was expected (wrong Content-Length?)");
    resync(at);
  }
}

// Scans forward from just after `from` to the next line (or gzip member) that starts a
// record. Always consumes at least one byte, so it cannot loop.
void ArchiveReader::resync(uint64_t from) {
  Stream& s = *impl_->stream;
  if (s.position() <= from) s.skip(from + 1 - s.position());
  for (;;) {
    std::string_view view = s.peek(kScanWindow);
    if (view.empty()) return;
    bool at_end = view.size() < kScanWindow;
    uint64_t base = s.position();
    std::vector<uint64_t> candidates = s.member_starts_between(base - 1, base + view.size());
    for (auto& c : candidates) c -= base;
    for (const char* p = view.data();
         (p = static_cast<const char*>(std::memchr(p, '\n', view.data() + view.size() - p))); ++p)
      candidates.push_back(static_cast<uint64_t>(p - view.data()) + 1);
    std::sort(candidates.begin(), candidates.end());
    for (uint64_t c : candidates) {
      if (c >= view.size()) break;
      Boundary b = boundary_at(view.substr(c), impl_->dialect, at_end);
      if (b == Boundary::yes || (b == Boundary::need_more && c > 0)) {
        s.consume(c);
        if (b == Boundary::yes) return;
        break;
      }
    }
    if (s.position() == base)
      s.consume(view.size() > 1 ? view.size() - 1 : 1);
    else if (boundary_at(s.peek(kMaxArcLine), impl_->dialect, true) == Boundary::yes)
      return;
  }
}

namespace {

// Length of the head up to and including the first blank line ("\r\n" or "\n"), or npos.
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

// Record::clear, keeping the header lines' strings for the next record.
void clear_record(ArchiveReader::Impl& im, Record& r) {
  im.warc_headers.recycle(r.headers);
  im.http_headers.recycle(r.http.headers);
  r.clear();
}

// The WARC headers a Record has fields for, and Content-Length.
enum WarcName : size_t {
  kType,
  kTargetUri,
  kDate,
  kRecordId,
  kContentType,
  kIpAddress,
  kBlockDigest,
  kPayloadDigest,
  kRefersTo,
  kRefersToTargetUri,
  kRefersToDate,
  kProfile,
  kTruncated,
  kWarcinfoId,
  kContentLength,
  kWarcNames
};
constexpr std::array<std::string_view, kWarcNames> kWarcNameText{
    "WARC-Type",      "WARC-Target-URI",           "WARC-Date",           "WARC-Record-ID",
    "Content-Type",   "WARC-IP-Address",           "WARC-Block-Digest",   "WARC-Payload-Digest",
    "WARC-Refers-To", "WARC-Refers-To-Target-URI", "WARC-Refers-To-Date", "WARC-Profile",
    "WARC-Truncated", "WARC-Warcinfo-ID",          "Content-Length"};

// The first line's value of each name.
using WarcValues = std::array<std::string_view, kWarcNames>;

bool same_name(std::string_view a, std::string_view b) {  // ASCII case-insensitive
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x + 32 : x) == (y >= 'A' && y <= 'Z' ? y + 32 : y);
         });
}

// The name's WarcName, or kWarcNames. Only the names of its length are compared: exactly
// first (names are nearly always spelt as the standard does), then case-insensitively.
// Comparing each line with every name was ~1.5 % of extracting the sample archive.
size_t warc_name_index(std::string_view name) {
  constexpr size_t kLongest = 25;  // WARC-Refers-To-Target-URI
  static const std::array<std::vector<size_t>, kLongest + 1> names_by_length = [] {
    std::array<std::vector<size_t>, kLongest + 1> out;
    for (size_t i = 0; i < kWarcNames; ++i) out.at(kWarcNameText[i].size()).push_back(i);
    return out;
  }();
  if (name.size() > kLongest) return kWarcNames;
  const std::vector<size_t>& candidates = names_by_length[name.size()];
  for (size_t i : candidates)
    if (name == kWarcNameText[i]) return i;
  for (size_t i : candidates)
    if (same_name(name, kWarcNameText[i])) return i;
  return kWarcNames;
}

// The header lines of `head` (after its first line), given to `line(name, value)` with
// folded lines joined into the value they continue: `fold(more)` is called for each
// continuation, whose value goes with the previous line. Stops at the blank line.
template <typename Line, typename Fold>
void for_each_header_line(std::string_view head, Line&& line, Fold&& fold) {
  size_t pos = head.find('\n') + 1;
  bool any = false;
  while (pos < head.size()) {
    size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) nl = head.size();
    std::string_view text = head.substr(pos, nl - pos);
    pos = nl + 1;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty()) break;
    if ((text[0] == ' ' || text[0] == '\t') && any) {
      fold(trim(text));
      continue;
    }
    size_t colon = text.find(':');
    if (colon == std::string_view::npos) continue;
    any = true;
    line(trim(text.substr(0, colon)), trim(text.substr(colon + 1)));
  }
}

// Every header line into r.headers (strings from `pool`), and the values a Record names
// taken from there (folded values are whole only in r.headers).
WarcValues parse_warc_lines(std::string_view head, Record& r, HeaderPool& pool) {
  std::array<size_t, kWarcNames> first;
  first.fill(SIZE_MAX);
  for_each_header_line(
      head,
      [&](std::string_view name, std::string_view value) {
        size_t i = warc_name_index(name);
        if (i < kWarcNames && first[i] == SIZE_MAX) first[i] = r.headers.size();
        pool.add(r.headers, name, value);
      },
      [&r](std::string_view more) {
        r.headers.back().second += " ";
        r.headers.back().second += more;
      });
  WarcValues values{};
  for (size_t i = 0; i < kWarcNames; ++i)
    if (first[i] != SIZE_MAX) values[i] = r.headers[first[i]].second;
  return values;
}

// The values a Record names as views of `head`, without keeping the lines (one copy per
// line and a second pass over them were ~3 % of reading the sample's small records); nullopt
// when a line is folded, whose joined value only the lines can hold.
std::optional<WarcValues> parse_warc_values(std::string_view head) {
  WarcValues values{};
  bool folded = false;
  for_each_header_line(
      head,
      [&values](std::string_view name, std::string_view value) {
        size_t i = warc_name_index(name);
        if (i < kWarcNames && values[i].data() == nullptr) values[i] = value;
      },
      [&folded](std::string_view) { folded = true; });
  if (folded) return std::nullopt;
  return values;
}

// 14 digits, converted once per run of records with the same date text: a capture's
// request, response and metadata records carry the same WARC-Date.
const std::string& date14(std::string_view iso, DateMemo& memo) {
  iso = trim(iso);
  if (!memo.known || iso != memo.iso) {
    auto ts = timestamp_from_iso8601(iso);
    memo.iso = iso;
    memo.date = ts ? *ts : std::string();
    memo.known = true;
  }
  return memo.date;
}

void fill_warc_record(const WarcValues& v, Record& r, ArchiveReader::Impl& im) {
  r.type_name = v[kType];
  r.type = record_type_from_string(r.type_name);
  clean_uri(v[kTargetUri], r.target_uri);
  r.date_raw = v[kDate];
  r.date = date14(r.date_raw, im.dates);
  r.record_id = v[kRecordId];
  r.content_type = v[kContentType];
  r.ip_address = v[kIpAddress];
  r.block_digest = v[kBlockDigest];
  r.payload_digest = v[kPayloadDigest];
  r.refers_to = v[kRefersTo];
  clean_uri(v[kRefersToTargetUri], r.refers_to_target_uri);
  r.refers_to_date = date14(v[kRefersToDate], im.refers_to_dates);
  r.profile = v[kProfile];
  r.truncated = v[kTruncated];
  r.warcinfo_id = v[kWarcinfoId];
}

}  // namespace

bool ArchiveReader::read_warc_header() {
  Stream& s = *impl_->stream;
  uint64_t start = s.position();
  std::string_view view = s.peek(kScanWindow);
  size_t end = find_head_end(view);
  if (end == std::string_view::npos && view.size() >= kScanWindow) {
    view = s.peek(options_.max_header_bytes);
    end = find_head_end(view);
  }
  if (end == std::string_view::npos) {
    report(s.disk_offset(start), "bad_record_header", "no end of WARC header");
    resync(start);
    return false;
  }
  clear_record(*impl_, record_);
  record_.format = Format::warc;
  std::string_view head = view.substr(0, end);
  record_.version = trim(head.substr(0, head.find('\n')));
  std::optional<WarcValues> values;
  if (!options_.keep_warc_headers) values = parse_warc_values(head);
  if (!values) values = parse_warc_lines(head, record_, impl_->warc_headers);
  fill_warc_record(*values, record_, *impl_);
  std::string_view length = (*values)[kContentLength];
  if (!parse_u64(length, record_.content_length)) {
    report(s.disk_offset(start), "bad_content_length",
           "Content-Length missing or invalid: '" + std::string(length) + "'");
    resync(start);
    return false;
  }
  s.consume(end);
  after_header(start);
  return true;
}

bool ArchiveReader::read_arc_header() {
  Stream& s = *impl_->stream;
  uint64_t start = s.position();
  std::string_view view = s.peek(kMaxArcLine);
  size_t nl = view.find('\n');
  if (nl == std::string_view::npos) nl = view.size();
  auto fields = arc_fields(view.substr(0, nl));
  clear_record(*impl_, record_);
  record_.format = Format::arc;
  size_t n = fields.size();
  // v2 lines have 10 fields: URL IP DATE MIME STATUS CHECKSUM LOCATION OFFSET FILENAME LENGTH.
  bool v2 = n >= 10 && impl_->arc_version == 2;
  size_t url_fields = v2 ? n - 9 : n - 4;
  record_.target_uri = join(fields, url_fields);
  record_.ip_address = fields[url_fields];
  record_.date_raw = fields[url_fields + 1];
  record_.content_type = fields[url_fields + 2];
  record_.version = impl_->arc_version == 2 ? "ARC/2" : "ARC/1";
  auto ts = timestamp_from_digits(record_.date_raw);
  if (ts)
    record_.date = *ts;
  else
    report(s.disk_offset(start), "bad_date", "unparsable ARC date '" + record_.date_raw + "'");
  if (!parse_u64(fields.back(), record_.content_length)) {
    report(s.disk_offset(start), "bad_content_length",
           "ARC length '" + std::string(fields.back()) + "' taken as 0");
    record_.content_length = 0;
  }
  std::string_view url = record_.target_uri;
  if (url.starts_with("filedesc:")) {
    record_.type = RecordType::warcinfo;
    record_.type_name = "filedesc";
  } else {
    bool http =
        strncasecmp(url.data(), "http:", 5) == 0 || strncasecmp(url.data(), "https:", 6) == 0;
    record_.type = http ? RecordType::response : RecordType::resource;
    record_.type_name = "arc-record";
  }
  s.consume(std::min(nl + 1, view.size()));
  after_header(start);
  if (record_.type == RecordType::warcinfo && impl_->block_start == s.position()) {
    std::string_view body = s.peek(64);  // "1 0 Alexa Internet": major version first
    if (!body.empty() && (body[0] == '1' || body[0] == '2') && block_left() > 0) {
      impl_->arc_version = body[0] - '0';
      record_.version = impl_->arc_version == 2 ? "ARC/2" : "ARC/1";
    }
  }
  return true;
}

uint64_t ArchiveReader::block_left() const {
  uint64_t pos = impl_->stream->position();
  return pos < impl_->block_end ? impl_->block_end - pos : 0;
}

void ArchiveReader::after_header(uint64_t start) {
  Impl& im = *impl_;
  Stream& s = *im.stream;
  s.forget_before(start);
  im.record_start = start;
  im.block_start = s.position();
  im.block_end = im.block_start + record_.content_length;
  im.http_head_len = 0;
  im.block_touched = im.length_settled = im.truncation_reported = false;
  record_.file = im.file;
  record_.offset = s.disk_offset(start);
  if (!s.member_starts_at(start)) {
    record_.decoded_offset = start;  // whole-file compression: located in the decoded stream
    counters_.add("records_in_shared_members");
  }
  // Plain files know where a record ends without decoding ahead.
  bool buffered = s.codec() == Codec::plain || record_.content_length <= options_.prebuffer_bytes;
  if (buffered && s.codec() != Codec::plain) {
    std::string_view view = s.peek(static_cast<size_t>(record_.content_length) + 5);
    uint64_t brk = s.next_break(im.block_start);
    if (brk < im.block_end) im.block_end = brk;
    // A record that starts a member but runs into a member starting with a new record has
    // a wrong Content-Length: end it there rather than swallow the next record.
    if (s.codec() != Codec::plain && s.member_starts_at(start)) {
      for (uint64_t m : s.member_starts_between(im.block_start, im.block_end)) {
        if (boundary_at(view.substr(m - im.block_start), im.dialect, true) == Boundary::yes) {
          report(record_.offset, "content_length_mismatch",
                 "block runs into the next record's gzip member");
          im.block_end = m;
          break;
        }
      }
    }
  }
  parse_http();
  if (buffered) settle_length();
}

void ArchiveReader::parse_http() {
  Impl& im = *impl_;
  RecordType t = record_.type;
  bool wanted = t == RecordType::response || t == RecordType::revisit ||
                (t == RecordType::request && options_.parse_http_requests);
  if (!options_.parse_http || !wanted) return;
  uint64_t len = im.block_end - im.block_start;
  std::string_view view =
      im.stream->peek(static_cast<size_t>(std::min<uint64_t>(len, kScanWindow)));
  bool whole = view.size() >= len;
  view = view.substr(0, static_cast<size_t>(std::min<uint64_t>(view.size(), len)));
  im.http_head_len = parse_http_head(view, whole, record_.http, &im.http_headers);
}

// Record::length from where the record (with its separator) ends on disk.
void ArchiveReader::settle_length() {
  Impl& im = *impl_;
  Stream& s = *im.stream;
  im.length_settled = true;
  if (s.codec() == Codec::plain) {  // as pywb/CDX-Writer count it: without the separator
    record_.length = im.block_end - im.record_start;
    return;
  }
  uint64_t end = std::max(im.block_end, s.position());
  if (s.position() <= im.block_end) {
    std::string_view view = s.peek(static_cast<size_t>(im.block_end - s.position()) + 5);
    size_t i = static_cast<size_t>(im.block_end - s.position());
    size_t sep = 0;
    while (i + sep < view.size() && sep < 4 && (view[i + sep] == '\r' || view[i + sep] == '\n'))
      ++sep;
    end = std::min<uint64_t>(im.block_end, s.position() + view.size()) + sep;
  }
  if (record_.decoded_offset) {  // in the decoded stream, as for plain files
    record_.length = im.block_end - im.record_start;
    return;
  }
  uint64_t disk_end = s.disk_end(end > im.record_start ? end - 1 : end);
  record_.length = disk_end > record_.offset ? disk_end - record_.offset : 0;
}

void ArchiveReader::finish_record() {
  Impl& im = *impl_;
  if (!im.have_record) return;
  Stream& s = *im.stream;
  uint64_t left = block_left();
  if (left > 0 && s.skip(left) < left && !im.truncation_reported) {
    im.truncation_reported = true;
    report(record_.offset, "truncated_record", "file ends inside the record block");
  }
  if (!im.length_settled) settle_length();
  std::string_view view = s.peek(4);
  size_t sep = 0;
  while (sep < view.size() && (view[sep] == '\r' || view[sep] == '\n')) ++sep;
  s.consume(sep);
  im.have_record = false;
}

PayloadStatus ArchiveReader::read_block(std::string& out, size_t cap) {
  out.clear();
  Impl& im = *impl_;
  if (!im.have_record || im.block_touched) return PayloadStatus::ok;
  im.block_touched = true;
  uint64_t left = block_left();
  if (left > cap) {
    im.stream->skip(left);
    return PayloadStatus::oversized;
  }
  // Straight into `out`, whose storage a caller may keep from record to record.
  out.resize(static_cast<size_t>(left));
  size_t filled = 0;
  while (size_t got = read_block_some(out.data() + filled, out.size() - filled)) filled += got;
  out.resize(filled);
  if (out.size() < left) {
    if (!im.truncation_reported)
      report(record_.offset, "truncated_record", "file ends inside the record block");
    im.truncation_reported = true;
    return PayloadStatus::truncated;
  }
  return PayloadStatus::ok;
}

size_t ArchiveReader::read_block_some(char* out, size_t n) {
  if (!impl_->have_record) return 0;
  impl_->block_touched = true;
  size_t want = static_cast<size_t>(std::min<uint64_t>(n, block_left()));
  if (want == 0) return 0;
  std::string_view view = impl_->stream->peek(want);
  size_t take = std::min(want, view.size());
  std::memcpy(out, view.data(), take);
  impl_->stream->consume(take);
  return take;
}

PayloadStatus ArchiveReader::read_payload(std::string& out, size_t cap) {
  out.clear();
  Impl& im = *impl_;
  if (!im.have_record || im.block_touched) return PayloadStatus::ok;
  uint64_t head = std::min<uint64_t>(im.http_head_len, block_left());
  im.stream->skip(head);
  PayloadStatus status = read_block(out, cap);  // the raw block, then undone in place
  if (status == PayloadStatus::oversized || !record_.http.present) return status;
  const HttpHead& http = record_.http;
  bool declared = strcasestr(std::string(http.header("Transfer-Encoding")).c_str(), "chunked");
  if (!out.empty() && (declared || looks_chunked(std::string_view(out).substr(0, 4096)))) {
    std::string plain;
    DechunkResult r = dechunk(out, plain);
    if (r != DechunkResult::invalid) out.swap(plain);
    if (r == DechunkResult::truncated) counters_.add("payload.chunked_truncated");
    if (r == DechunkResult::invalid) counters_.add("payload.chunked_declared_not_chunked");
  }
  std::string_view coding = http.header("Content-Encoding");
  if (!coding.empty() && !out.empty()) {
    std::string decoded;
    DecodeResult r = decode_content(coding, out, decoded, cap);
    if (r == DecodeResult::oversized) {
      out.clear();
      return PayloadStatus::oversized;
    }
    if (r == DecodeResult::failed) {
      report(record_.offset, "content_decoding_failed",
             "Content-Encoding '" + std::string(coding) + "' could not be undone; raw bytes kept");
      return PayloadStatus::decode_failed;
    }
    out.swap(decoded);
  }
  return status;
}

}  // namespace strata::archive
