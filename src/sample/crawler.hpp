#pragma once
// How the two crawlers of Arquivo.pt-like archives write WARC records: Heritrix 3 (WARC/1.0,
// sha1 base32 payload digests, WARC-IP-Address, response + request + metadata) and
// Browsertrix-Crawler (warcio.js: WARC/1.1, sha256 hex payload and block digests, page ids,
// response + request). Header names and their order are those of the real files in
// shared/data/archives (tests/sample/crawler_test.cpp compares them).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata::sample {

enum class Crawler { heritrix, browsertrix };

// The values of one record's WARC header; empty fields are not written.
struct WarcFields {
  std::string type;  // warcinfo, response, request, metadata, revisit
  std::string id;    // "<urn:uuid:...>"
  std::string uri;
  int64_t date = 0;      // epoch seconds
  std::string filename;  // warcinfo
  std::string ip;
  std::string concurrent_to;
  std::string page_id;        // Browsertrix
  std::string resource_type;  // Browsertrix: document, image
  std::string refers_to_uri;  // revisits
  int64_t refers_to_date = 0;
  std::string payload_digest;
  std::string block_digest;
  std::string content_type;
};

// The WARC head of a record (version line to the blank line) for a block of `length` bytes.
std::string warc_head(Crawler crawler, const WarcFields& f, size_t length);

// WARC-Payload-Digest / WARC-Block-Digest value of `bytes` in the crawler's form.
std::string warc_digest(Crawler crawler, std::string_view bytes);

// "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 7231 IMF-fixdate), as HTTP Date headers carry it.
std::string http_date(int64_t epoch);

}  // namespace strata::sample
