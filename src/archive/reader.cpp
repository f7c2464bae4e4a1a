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
#include "archive/record_start.hpp"
#include "core/timestamp.hpp"

namespace strata::archive {
namespace {

constexpr size_t kScanWindow = 64 << 10;
constexpr size_t kMaxArcLine = 8 << 10;
// Bytes looked at after a block for the next record's start.
constexpr size_t kProbe = 1 << 10;

std::string join(const std::vector<std::string_view>& fields, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (i) out += ' ';
    out += fields[i];
  }
  return out;
}

// What may pad the space between records.
bool is_blank(char c) {
  return c == '\r' || c == '\n' || c == ' ' || c == '\t' || c == '\0';
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
  if (int64_t n = std::exchange(impl_->stream_problems, 0)) counters_.add("problems", n);
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
    while (ws < view.size() && is_blank(view[ws])) ++ws;
    s.consume(ws);
    if (ws == view.size()) {
      if (view.empty()) return false;
      continue;
    }
    view = head_view(kMaxArcLine);
    bool at_end = view.size() < kMaxArcLine;
    if (impl_->dialect == Dialect::unknown) {
      if (view.substr(0, 5) == "WARC/")
        impl_->dialect = Dialect::warc;
      else if (expected_record_start(view, true, at_end) == Boundary::yes)
        impl_->dialect = Dialect::arc;
      else if (!skip_to_first_record()) {
        impl_->usable = false;
        report(s.disk_offset(s.position()), "not_an_archive",
               "no WARC/ or ARC header at the start");
        return false;
      }
      continue;
    }
    if (expected_record_start(view, arc(), at_end) == Boundary::yes) return true;
    uint64_t at = s.position();
    report(s.disk_offset(at), "junk_between_records",
           "no record header where one was expected (wrong Content-Length?)");
    resync(at);
  }
}

// Junk at the start of a file: the first valid WARC head or ARC line in the first 64 KiB
// sets the dialect. False when there is none (not an archive).
bool ArchiveReader::skip_to_first_record() {
  Stream& s = *impl_->stream;
  std::string_view view = s.peek(kScanWindow);
  bool at_end = view.size() < kScanWindow;
  for (Dialect dialect : {Dialect::warc, Dialect::arc}) {
    RecordStart found = first_record_start(view, {}, dialect == Dialect::arc, at_end, true);
    if (found.boundary != Boundary::yes) continue;
    report(s.disk_offset(s.position()), "junk_between_records",
           std::to_string(found.at) + " bytes before the first record");
    s.consume(found.at);
    impl_->dialect = dialect;
    return true;
  }
  return false;
}

bool ArchiveReader::arc() const {
  return impl_->dialect == Dialect::arc;
}

// Scans forward from just after `from` to the next record start: a gzip member starting one,
// or a valid record head at any byte. Always consumes at least one byte, so it cannot loop.
void ArchiveReader::resync(uint64_t from) {
  constexpr size_t kOverlap = 16;  // a "WARC/" or scheme cut by the window end is seen again
  Stream& s = *impl_->stream;
  if (s.position() <= from) s.skip(from + 1 - s.position());
  for (;;) {
    std::string_view view = s.peek(kScanWindow);
    if (view.empty()) return;
    bool at_end = view.size() < kScanWindow;
    uint64_t base = s.position();
    std::vector<uint64_t> members = s.member_starts_between(base - 1, base + view.size());
    for (auto& m : members) m -= base;
    RecordStart found = first_record_start(view, std::move(members), arc(), at_end, true);
    if (found.at == std::string_view::npos) {
      s.consume(at_end ? view.size() : view.size() - kOverlap);
      if (at_end) return;
      continue;
    }
    s.consume(found.at);
    if (found.boundary == Boundary::yes) return;
  }
}

namespace {

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

// Up to `want` bytes from the current position, but not past a broken gzip member: a head
// that ran on into the next member would hide the record starting there.
std::string_view ArchiveReader::head_view(size_t want) {
  Stream& s = *impl_->stream;
  std::string_view view = s.peek(want);
  uint64_t brk = s.next_break(s.position());
  return brk - s.position() < view.size() ? view.substr(0, brk - s.position()) : view;
}

bool ArchiveReader::read_warc_header() {
  Stream& s = *impl_->stream;
  uint64_t start = s.position();
  std::string_view view = head_view(kScanWindow);
  size_t end = find_head_end(view);
  if (end == std::string_view::npos && view.size() >= kScanWindow) {
    view = head_view(options_.max_header_bytes);
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
  std::string_view view = head_view(kMaxArcLine);
  size_t nl = view.find('\n');
  if (nl == std::string_view::npos) nl = view.size();
  auto fields = arc_fields(view.substr(0, nl));
  if (fields.size() < 5) {  // the line was cut by a broken gzip member
    report(s.disk_offset(start), "bad_record_header", "ARC header line cut short");
    resync(start);
    return false;
  }
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
  bound_block(start);
  parse_http();
  // Plain files know where a record ends without decoding ahead.
  if (s.codec() == Codec::plain || record_.content_length <= options_.prebuffer_bytes)
    settle_length();
}

// Bounds how far a declared length carries the reader: where the block ends, the next record
// must start (after its separator) or the input end. A block ends at a broken gzip member; it
// is cut at a gzip member starting a record inside it, and, when the next record is not where
// the length says, at the first valid record start inside it (within prebuffer_bytes).
void ArchiveReader::bound_block(uint64_t start) {
  Impl& im = *impl_;
  Stream& s = *im.stream;
  size_t window =
      static_cast<size_t>(std::min<uint64_t>(record_.content_length, options_.prebuffer_bytes));
  if (s.codec() != Codec::plain) {
    std::string_view view = s.peek(window + kProbe);
    uint64_t brk = s.next_break(im.block_start);
    if (brk < im.block_end) {
      im.block_end = brk;
      return;
    }
    if (s.member_starts_at(start)) {
      std::vector<uint64_t> members = s.member_starts_between(
          im.block_start - 1, im.block_start + std::min(window, view.size()));
      for (auto& m : members) m -= im.block_start;
      RecordStart found = first_record_start(view, std::move(members), arc(), true, false);
      if (found.boundary == Boundary::yes)
        return cut_block(found.at, "a gzip member starting a record");
    }
  }
  if (next_record_follows()) return;
  std::string_view view = s.peek(window + kProbe);
  RecordStart found = first_record_start(view, {}, arc(), view.size() < window + kProbe, true);
  if (found.boundary == Boundary::yes && found.at < std::min<uint64_t>(window, view.size()))
    cut_block(found.at, "a valid record head");
}

// True when, after the declared block and its separator, a record starts or the input ends
// (or when that cannot be seen cheaply: a compressed block longer than prebuffer_bytes, a long
// plain block in a deflated WACZ entry).
bool ArchiveReader::next_record_follows() {
  Impl& im = *impl_;
  Stream& s = *im.stream;
  uint64_t len = im.block_end - im.block_start;
  std::string_view after;
  std::optional<std::string> probe;
  bool at_end = false;
  // Plain blocks past the look-ahead are checked with a small read aside, not read through.
  if (s.codec() == Codec::plain && len > options_.prebuffer_bytes) {
    if (s.input_size() && im.block_end > s.input_size()) return false;
    if (!(probe = s.read_at(im.block_end, kProbe))) return true;
    after = *probe;
    at_end = after.size() < kProbe;
  } else if (len <= options_.prebuffer_bytes) {
    std::string_view view = s.peek(static_cast<size_t>(len) + kProbe);
    if (view.size() < len) return false;  // the input ends inside the block
    after = view.substr(static_cast<size_t>(len));
    at_end = after.size() < kProbe;
  } else {
    return true;
  }
  size_t blank = 0;
  while (blank < after.size() && is_blank(after[blank])) ++blank;
  if (blank == after.size()) return true;
  return expected_record_start(after.substr(blank), arc(), at_end) != Boundary::no;
}

// Ends the block `at` bytes in, before the separator (CR/LF, at most 4) that precedes there.
void ArchiveReader::cut_block(uint64_t at, std::string_view why) {
  Impl& im = *impl_;
  std::string_view view = im.stream->peek(static_cast<size_t>(at));
  uint64_t end = at;
  while (end > 0 && at - end < 4 && (view[end - 1] == '\r' || view[end - 1] == '\n')) --end;
  im.block_end = im.block_start + end;
  report(record_.offset, "content_length_mismatch",
         "Content-Length " + std::to_string(record_.content_length) +
             " runs past the next record, " + std::to_string(at) + " bytes into the block (" +
             std::string(why) + ")");
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
