#include "sample/crawler.hpp"

#include <climits>
#include <ctime>

#include "core/digest.hpp"
#include "core/timestamp.hpp"

namespace strata::sample {
namespace {

struct HeadBuilder {
  std::string out;
  explicit HeadBuilder(std::string_view version) {
    out.reserve(768);  // a head's fields, without regrowing
    out.append(version);
  }
  std::string finish() { return std::move(out.append("\r\n")); }
  void add(std::string_view name, std::string_view value) {
    if (value.empty()) return;
    out.append(name).append(": ").append(value).append("\r\n");
  }
};

// ISO 8601 time of a record. The records of one fetch (response, request, metadata) share
// its time, so the last one formatted is kept per thread (formatting is snprintf-heavy).
const std::string& iso_date(int64_t epoch) {
  thread_local int64_t last = INT64_MIN;
  thread_local std::string text;
  if (epoch != last) text = timestamp_to_iso8601(timestamp_from_epoch(epoch)), last = epoch;
  return text;
}

// Milliseconds as warcio.js writes them; derived from the time so output stays deterministic.
std::string browsertrix_date(int64_t epoch) {
  const std::string& iso = iso_date(epoch);  // ...:SSZ
  std::string ms = std::to_string(100 + (epoch * 7919) % 900);
  return iso.substr(0, iso.size() - 1) + "." + ms + "Z";
}

std::string revisit_profile(Crawler c) {
  return c == Crawler::heritrix
             ? "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"
             : "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
}

// Heritrix 3 (WARCWriterProcessor): type, URI, date, digests and IP, id, content type.
std::string heritrix_head(const WarcFields& f, size_t length) {
  HeadBuilder h("WARC/1.0\r\n");
  bool revisit = f.type == "revisit";
  h.add("WARC-Type", f.type);
  h.add("WARC-Target-URI", f.uri);
  h.add("WARC-Date", iso_date(f.date));
  h.add("WARC-Filename", f.filename);
  h.add("WARC-Concurrent-To", f.concurrent_to);
  h.add("WARC-Payload-Digest", f.payload_digest);
  h.add("WARC-IP-Address", f.ip);
  if (revisit) {
    h.add("WARC-Profile", revisit_profile(Crawler::heritrix));
    h.add("WARC-Truncated", "length");
    h.add("WARC-Refers-To-Target-URI", f.refers_to_uri);
    h.add("WARC-Refers-To-Date", iso_date(f.refers_to_date));
  }
  h.add("WARC-Record-ID", f.id);
  h.add("Content-Type", f.content_type);
  h.add("Content-Length", std::to_string(length));
  return h.finish();
}

// Browsertrix-Crawler through warcio.js: crawler fields first, then warcio's own.
std::string browsertrix_head(const WarcFields& f, size_t length) {
  HeadBuilder h("WARC/1.1\r\n");
  bool revisit = f.type == "revisit";
  h.add("WARC-Filename", f.filename);
  h.add("WARC-Concurrent-To", f.concurrent_to);
  h.add("WARC-Page-ID", f.page_id);
  h.add("WARC-Resource-Type", f.resource_type);
  if (f.type == "response") h.add("WARC-JSON-Metadata", "{\"ipType\":\"Public\"}");
  if (revisit) {
    h.add("WARC-Refers-To-Target-URI", f.refers_to_uri);
    h.add("WARC-Refers-To-Date", browsertrix_date(f.refers_to_date));
    h.add("WARC-Profile", revisit_profile(Crawler::browsertrix));
  }
  h.add("WARC-Target-URI", f.uri);
  h.add("WARC-Date", browsertrix_date(f.date));
  h.add("WARC-Type", f.type);
  h.add("WARC-Record-ID", f.id);
  h.add("Content-Type", f.content_type);
  h.add("WARC-Payload-Digest", f.payload_digest);
  h.add("WARC-Block-Digest", f.block_digest);
  h.add("Content-Length", std::to_string(length));
  return h.finish();
}

}  // namespace

std::string warc_head(Crawler crawler, const WarcFields& f, size_t length) {
  return crawler == Crawler::heritrix ? heritrix_head(f, length) : browsertrix_head(f, length);
}

std::string warc_digest(Crawler crawler, std::string_view bytes) {
  return crawler == Crawler::heritrix ? sha1_warc_digest(bytes) : "sha256:" + sha256_hex(bytes);
}

std::string http_date(int64_t epoch) {
  std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday],
                tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

}  // namespace strata::sample
