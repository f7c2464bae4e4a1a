#include "crawl/warc_output.hpp"

#include <chrono>
#include <cstdio>

#include "core/timestamp.hpp"
#include "crawl/url_rules.hpp"

namespace strata::crawl {
namespace {

std::string now_14() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return timestamp_from_epoch(std::chrono::duration_cast<std::chrono::seconds>(now).count());
}

// Files of an earlier run of this crawl keep their names: the serial goes on from them.
unsigned existing_files(const std::filesystem::path& dir, const std::string& prefix) {
  unsigned count = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(prefix + "-", 0) == 0 && name.ends_with(".warc.gz")) ++count;
  }
  return count;
}

// Heritrix's hop letters: L link, E embed, R redirect.
std::string metadata_block(const FetchResult& fetch, const QueuedUrl& url,
                           const std::vector<Outlink>& outlinks) {
  std::string block;
  if (!url.via.empty()) block += "via: " + url.via + "\r\n";
  block += "hopsFromSeed: " + std::string(url.depth, 'L') + std::string(url.redirects, 'R') +
           (url.lane == Lane::embed ? "E" : "") + "\r\n";
  block += "fetchTimeMs: " + std::to_string(static_cast<long long>(fetch.seconds * 1000)) + "\r\n";
  for (const auto& link : outlinks)
    block +=
        "outlink: " + link.url + (link.lane == Lane::embed ? " E " : " L ") + link.context + "\r\n";
  return block;
}

bool is_success(long status) {
  return status >= 200 && status < 300;
}

}  // namespace

WarcOutput::WarcOutput(WarcOutputOptions options, UrlStore& store)
    : options_(std::move(options)), store_(store) {
  std::filesystem::create_directories(options_.dir);
  serial_ = existing_files(options_.dir, options_.prefix);
}

archive::WarcWriter& WarcOutput::writer() {
  if (writer_ && writer_->bytes_written() < options_.max_file_bytes) return *writer_;
  if (writer_) writer_->flush();
  char serial[16];
  std::snprintf(serial, sizeof serial, "%05u", serial_++);
  std::string name = options_.prefix + "-" + now_14() + "-" + serial + ".warc.gz";
  files_.push_back(options_.dir / name);
  writer_ = std::make_unique<archive::WarcWriter>(files_.back());
  std::vector<archive::Header> fields{
      {"software", "Strata crawl"},
      {"format", "WARC File Format 1.1"},
      {"conformsTo",
       "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"}};
  fields.insert(fields.end(), options_.warcinfo.begin(), options_.warcinfo.end());
  writer_->write_warcinfo(fields, name);
  return *writer_;
}

CaptureKind WarcOutput::write(const FetchResult& fetch, const QueuedUrl& url,
                              const std::vector<Outlink>& outlinks) {
  archive::WarcWriter& out = writer();
  std::string block = fetch.response_head + fetch.body;
  std::string digest = archive::http_payload_digest(block);
  // Revisits only of the same URL: the index resolves a revisit under its original's URL, so
  // a copy at another URL is written whole to stay findable with the page that shows it.
  bool dedupable = is_success(fetch.status) && !fetch.body.empty() && !fetch.truncated;
  std::string url_digest = digest + ' ' + seen_key(fetch.url);
  auto original = dedupable ? store_.capture_of(url_digest) : std::nullopt;
  bool seen_elsewhere = dedupable && !original && store_.capture_of(digest);
  archive::WarcRecordSpec response;
  response.target_uri = fetch.url;
  response.date = fetch.date;
  if (!fetch.ip.empty()) response.extra_headers.push_back({"WARC-IP-Address", fetch.ip});
  if (fetch.truncated) response.extra_headers.push_back({"WARC-Truncated", "length"});
  if (original) {
    response.type = archive::RecordType::revisit;
    response.block = fetch.response_head;
    response.refers_to = original->record_id;
    response.refers_to_target_uri = original->uri;
    response.refers_to_date = original->date;
    response.payload_digest = digest;
  } else {
    response.type = archive::RecordType::response;
    response.block = std::move(block);
  }
  archive::WrittenRecord written = out.write(response);
  if (dedupable && !original) {
    CaptureRef capture{written.record_id, fetch.url, fetch.date};
    store_.remember_capture(url_digest, capture);
    if (!seen_elsewhere) store_.remember_capture(digest, capture);
  }

  archive::WarcRecordSpec request;
  request.type = archive::RecordType::request;
  request.target_uri = fetch.url;
  request.date = fetch.date;
  request.block = fetch.request_head;
  request.extra_headers.push_back({"WARC-Concurrent-To", written.record_id});
  out.write(request);

  archive::WarcRecordSpec metadata;
  metadata.type = archive::RecordType::metadata;
  metadata.target_uri = fetch.url;
  metadata.date = fetch.date;
  metadata.content_type = "application/warc-fields";
  metadata.block = metadata_block(fetch, url, outlinks);
  metadata.extra_headers.push_back({"WARC-Concurrent-To", written.record_id});
  out.write(metadata);
  out.flush();
  if (original) return CaptureKind::revisit;
  return seen_elsewhere ? CaptureKind::duplicate : CaptureKind::response;
}

}  // namespace strata::crawl
