#include "extract/extractor.hpp"

#include <map>
#include <optional>

#include "archive/reader.hpp"
#include "core/digest.hpp"
#include "extract/book_page.hpp"
#include "extract/charset.hpp"
#include "extract/data_uri.hpp"
#include "extract/mime_sniff.hpp"
#include "extract/page_extract.hpp"
#include "extract/records.hpp"
#include "extract/ref_stats.hpp"
#include "url/url.hpp"

namespace strata::extract {
namespace {

using archive::Record;
using archive::RecordType;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return s;
}

// Content-Type of the payload without parameters: the HTTP header for HTTP records, the
// WARC/ARC content type otherwise (resource records).
std::string reported_mime(const Record& rec) {
  if (rec.http.present) return rec.http.mime;
  std::string m = lower(rec.content_type);
  size_t semi = m.find(';');
  if (semi != std::string::npos) m.resize(semi);
  while (!m.empty() && m.back() == ' ') m.pop_back();
  return m;
}

bool looks_like_html(std::string_view bytes) {
  size_t i = 0;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < bytes.size() && static_cast<unsigned char>(bytes[i]) <= 0x20) ++i;
  std::string head = lower(std::string(bytes.substr(i, 14)));
  return head.rfind("<!doctype html", 0) == 0 || head.rfind("<html", 0) == 0;
}

bool counts_as_failure(archive::PayloadStatus s) {
  return s == archive::PayloadStatus::oversized || s == archive::PayloadStatus::decode_failed;
}

// JSON lines gathered and written in blocks: libstdc++'s filebuf writes any piece of 1 KiB or
// more straight through (one writev per reference line), and a line needs no string of its own.
class LineWriter {
 public:
  explicit LineWriter(std::ostream& out) : out_(out) {}
  ~LineWriter() { flush(); }
  template <typename Line>
  void write(const Line& line) {
    append_jsonl(line, pending_);
    if (pending_.size() >= kBlock) flush();
  }
  void flush() {
    out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
    pending_.clear();
  }

 private:
  static constexpr size_t kBlock = 64 << 10;
  std::ostream& out_;
  std::string pending_;
};

// The URL keys of one worker thread, kept from file to file: a crawl's files (and crawls of
// the same sites) share their images. Bounded (UrlKeys), and a cache only: no output
// depends on what it holds.
UrlKeys& thread_url_keys() {
  thread_local UrlKeys keys;
  return keys;
}

class RecordExtractor {
 public:
  // `opened` is the path the reader was opened with: a record's Record::file is that path,
  // or inside a WACZ that path + "#" + member.
  RecordExtractor(const std::string& label, size_t opened, const ExtractOptions& options,
                  std::ostream& out, Counters& counters)
      : label_(label), opened_(opened), file_(label), options_(options), out_(out), c_(counters) {}
  // Counted once, not per record (a map look-up each).
  ~RecordExtractor() {
    if (records_read_ > 0) c_.add("records_read", records_read_);
  }

  void record(archive::ArchiveReader& reader);

 private:
  void image(const Record& rec, const std::string& mime, const std::string& payload);
  void revisit(const Record& rec, const std::string& mime);
  void page(const Record& rec, const std::string& payload);
  void book_page(archive::ArchiveReader& reader);
  void book_chapter(archive::ArchiveReader& reader);
  void inline_image(const PageReferenceView& ref, std::string_view uri);
  // Fills mimeDetected/width/height/digest/size and applies the gates; false = drop.
  bool describe(ImageCapture& img, std::string_view bytes, bool is_inline);
  // file_ = the label with the record's WACZ member, if any.
  void locate(const Record& rec);

  const std::string& label_;
  size_t opened_;
  std::string file_;
  const ExtractOptions& options_;
  LineWriter out_;
  Counters& c_;
  UrlKeys& keys_ = thread_url_keys();
  std::string revisit_surt_;
  static constexpr size_t kKeptPayloadBytes = 4 << 20;
  std::string payload_;
  int64_t records_read_ = 0;
  // Book chapters of this archive by URL (kBookChapterType), for the page records that follow.
  std::map<std::string, BookChapter, std::less<>> book_chapters_;
};

bool RecordExtractor::describe(ImageCapture& img, std::string_view bytes, bool is_inline) {
  std::string suffix = is_inline ? "_inline" : "";
  c_.add("images_found" + suffix);
  img.mimeDetected = sniff_image_mime(bytes);
  std::optional<ImageInfo> info = read_image_info(bytes);
  if (img.mimeDetected.empty() || !info) {
    c_.add("images_undecodable" + suffix);
    return false;
  }
  switch (check_size_gates(*info, options_.gates)) {
    case SizeVerdict::kTooSmall:
      c_.add("images_too_small" + suffix);
      return false;
    case SizeVerdict::kTooLarge:
      c_.add("images_too_large" + suffix);
      return false;
    case SizeVerdict::kUnknownSize:
      c_.add("images_unknown_size" + suffix);
      break;
    case SizeVerdict::kOk:
      break;
  }
  if (img.mimeReported.empty() == false &&
      canonical_image_mime(img.mimeReported) != img.mimeDetected)
    c_.add("images_mime_mismatch" + suffix);
  img.width = info->width;
  img.height = info->height;
  img.digest = sha256_hex(bytes);
  img.size = bytes.size();
  c_.add("images_mime_" + img.mimeDetected);
  c_.add("images_written" + suffix);
  return true;
}

void RecordExtractor::locate(const Record& rec) {
  if (rec.file.size() <= opened_) {
    if (file_.size() != label_.size()) file_ = label_;
    return;
  }
  file_.assign(label_).append(rec.file, opened_, std::string::npos);
}

void RecordExtractor::image(const Record& rec, const std::string& mime,
                            const std::string& payload) {
  ImageCapture img;
  img.imgUrl = rec.target_uri;
  img.imgSurt = keys_.surt(rec.target_uri);
  img.timestamp = rec.date;
  img.collection = options_.collection;
  img.file = file_;
  img.offset = rec.location();
  img.length = rec.length;
  img.recordType = rec.type == RecordType::resource ? "resource" : "response";
  img.status = rec.http.status;
  img.mimeReported = mime;
  img.warcDigest = rec.payload_digest;
  if (describe(img, payload, false)) out_.write(img);
}

void RecordExtractor::revisit(const Record& rec, const std::string& mime) {
  ImageRevisitView r;
  r.imgUrl = rec.target_uri;
  r.imgSurt = keys_.surt(rec.target_uri);
  r.timestamp = rec.date;
  r.collection = options_.collection;
  r.file = file_;
  r.offset = rec.location();
  r.length = rec.length;
  r.warcDigest = rec.payload_digest;
  r.refersToUrl = rec.refers_to_target_uri;
  // Usually the record's own URL: its SURT is at hand. Another URL's look-up may empty the
  // memo the first SURT lives in, so that one is kept first.
  if (r.refersToUrl == r.imgUrl) {
    r.refersToSurt = r.imgSurt;
  } else if (!r.refersToUrl.empty()) {
    revisit_surt_ = r.imgSurt;
    r.imgSurt = revisit_surt_;
    r.refersToSurt = keys_.surt(rec.refers_to_target_uri);
  }
  r.refersToDate = rec.refers_to_date;
  r.mimeReported = mime;
  c_.add("revisits_written");
  out_.write(r);
}

void RecordExtractor::inline_image(const PageReferenceView& ref, std::string_view uri) {
  std::optional<DataUri> data = parse_data_uri(uri);
  if (!data) {
    c_.add("images_undecodable_inline");
    return;
  }
  ImageCapture img;
  img.imgUrl = ref.imgUrl;
  img.imgSurt = ref.imgSurt;
  img.timestamp = ref.pageTimestamp;
  img.collection = ref.collection;
  img.file = ref.file;
  img.offset = ref.offset;
  img.length = ref.length;
  img.recordType = "inline";
  img.mimeReported = data->mime;
  img.inline_ = true;
  if (describe(img, data->bytes, true)) out_.write(img);
}

void RecordExtractor::page(const Record& rec, const std::string& payload) {
  std::string charset = rec.http.present ? rec.http.charset : std::string();
  DecodedText text = decode_html(payload, charset);
  if (text.repaired_mojibake)
    c_.add(text.mojibake_rounds > 1 ? "pages_mojibake_repaired_double" : "pages_mojibake_repaired");
  c_.add("pages_encoding_" + text.source);
  // Still mis-encoded after the repair (U+FFFD from undecodable bytes, or mojibake left).
  if (looks_mis_encoded(text.utf8)) c_.add("pages_text_mis_encoded");
  PageInput in{rec.target_uri, rec.date, options_.collection, file_, rec.location(),
               rec.length,     text.utf8};
  RefStats stats(c_);
  const auto chapter = book_chapters_.find(rec.target_uri);
  const BookChapter* book = chapter == book_chapters_.end() ? nullptr : &chapter->second;
  if (book) c_.add("book_chapter_pages");
  visit_page_references(in, c_, keys_, options_.refs,
                        [this, &stats, book](const PageReferenceView& ref, std::string_view uri) {
                          if (book) {  // a book's chapter: its title and facts are the book's
                            PageReferenceView in_book = ref;
                            in_book.pageTitle = book->page_title;
                            in_book.book = book->book;
                            out_.write(in_book);
                          } else {
                            out_.write(ref);
                          }
                          stats.count(ref);
                          if (ref.inline_) inline_image(ref, uri);
                        });
}

void RecordExtractor::book_chapter(archive::ArchiveReader& reader) {
  std::string& payload = payload_;
  archive::PayloadStatus status = reader.read_payload(payload, options_.max_payload);
  reader.finish_record();
  std::optional<BookChapter> chapter;
  if (!counts_as_failure(status)) chapter = extract::book_chapter(payload);
  if (!chapter) {
    c_.add("book_chapters_malformed");
    return;
  }
  c_.add("book_chapters");
  book_chapters_[reader.record().target_uri] = std::move(*chapter);
}

void RecordExtractor::book_page(archive::ArchiveReader& reader) {
  std::string& payload = payload_;
  archive::PayloadStatus status = reader.read_payload(payload, options_.max_payload);
  reader.finish_record();
  const Record& rec = reader.record();
  std::optional<PageReference> ref;
  if (!counts_as_failure(status))
    ref = book_page_reference({rec.target_uri, rec.date, options_.collection, file_, rec.location(),
                               rec.length, payload});
  if (!ref) {
    c_.add("book_pages_malformed");
    return;
  }
  c_.add("book_pages");
  out_.write(*ref);
}

void RecordExtractor::record(archive::ArchiveReader& reader) {
  const Record& rec = reader.record();
  ++records_read_;
  locate(rec);
  if (rec.type == RecordType::revisit) {
    std::string mime = reported_mime(rec);
    if (mime.find("image") != std::string::npos || url::has_image_extension(rec.target_uri))
      revisit(rec, mime);
    return;
  }
  if (rec.type == RecordType::metadata) {
    const std::string mime = reported_mime(rec);
    if (mime == kBookPageType) book_page(reader);
    if (mime == kBookChapterType) book_chapter(reader);
    return;
  }
  if (rec.type != RecordType::response && rec.type != RecordType::resource) return;
  // ARC files carry dns:/filedesc: records as resources; only web URLs can be images/pages.
  std::string mime = reported_mime(rec);
  // The payload keeps its storage from record to record, but not a rare large one's.
  if (payload_.capacity() > kKeptPayloadBytes) payload_ = std::string();
  std::string& payload = payload_;
  archive::PayloadStatus status = reader.read_payload(payload, options_.max_payload);
  reader.finish_record();
  if (counts_as_failure(status)) {
    c_.add(status == archive::PayloadStatus::oversized ? "records_payload_oversized"
                                                       : "records_failed");
    if (status == archive::PayloadStatus::oversized) return;
  }
  const Record& done = reader.record();  // length is final now
  bool image_mime = mime.find("image") != std::string::npos;
  bool html_mime = mime.find("html") != std::string::npos;
  if (image_mime || (!html_mime && !sniff_image_mime(payload).empty())) {
    image(done, mime, payload);
  } else if (html_mime || ((mime.empty() || mime == "text/plain" || mime == "unknown" ||
                            mime == "application/octet-stream") &&
                           looks_like_html(payload))) {
    page(done, payload);
  }
}

}  // namespace

bool extract_archive(const std::filesystem::path& path, const std::string& file_label,
                     const ExtractOptions& options, std::ostream& out, Counters& counters,
                     const ProblemSink& problems, const ProgressFn& progress) {
  archive::ReaderOptions ropts;
  ropts.payload_cap = options.max_payload;
  ropts.parse_http_requests = false;  // a third of a crawl's records, never looked at here
  ropts.keep_warc_headers = false;    // only the fields a Record names are used
  auto reader = archive::ArchiveReader::open(path, ropts, problems);
  counters.add("archives");
  if (!reader->usable()) {
    counters.add("archives_failed");
    return false;
  }
  RecordExtractor extractor(file_label, path.string().size(), options, out, counters);
  uint64_t reported = 0;
  while (reader->next()) {
    try {
      extractor.record(*reader);
    } catch (const std::exception& e) {
      counters.add("records_failed");
      if (problems) problems({file_label, reader->record().offset, "extract_failed", e.what()});
    }
    if (progress) {
      uint64_t now = reader->bytes_read();
      progress(now - reported);
      reported = now;
    }
  }
  counters.merge(reader->counters());
  return true;
}

Json description_stats(const Counters& c) {
  auto ratio = [&c](const char* name, const char* of) {
    int64_t total = c.get(of);
    return total == 0 ? 0.0 : static_cast<double>(c.get(name)) / static_cast<double>(total);
  };
  auto share = [&ratio](const char* name) { return ratio(name, "stats_refs"); };
  return Json{
      {"references", c.get("stats_refs")},
      {"withAlt", share("stats_with_alt")},
      {"withTitle", share("stats_with_title")},
      {"withAltOrTitle", share("stats_with_alt_or_title")},
      {"withCaption", share("stats_with_caption")},
      {"withAny", share("stats_with_any")},
      {"pages", c.get("pages")},
      {"pagesMisEncoded", ratio("pages_text_mis_encoded", "pages")},
      {"refsMisEncoded", share("refs_text_mis_encoded")},
      {"captionsMisEncoded", ratio("refs_caption_mis_encoded", "stats_with_caption")},
      {"captionsArquivoMojibake", ratio("refs_caption_arquivo_mojibake", "stats_with_caption")}};
}

}  // namespace strata::extract
