#pragma once
// HTTP fetching over libcurl's multi interface: many transfers on one thread, a shared DNS
// cache, timeouts (connect, no first byte / stalled, whole transfer), a body size cap, and
// CURLOPT_CONNECT_TO host mapping (tests point every host at a loopback server). Bodies are
// kept as sent (transfer-encoding not undone, no Accept-Encoding asked), so the WARC holds
// the server's bytes. Failures come back in FetchResult, never as exceptions; the constructor
// throws std::runtime_error only when libcurl cannot start.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace strata::crawl {

struct FetchOptions {
  std::string user_agent;
  double connect_timeout_s = 10;
  double stall_timeout_s = 20;  // no byte for this long (first byte included): give up
  double total_timeout_s = 120;
  uint64_t max_body_bytes = 32ull << 20;  // kept; the rest is cut (WARC-Truncated: length)
  std::vector<std::string> connect_to;    // "HOST:PORT:CONNECT-HOST:CONNECT-PORT" (curl syntax)
  bool verify_tls = true;
};

struct FetchRequest {
  uint64_t id = 0;
  std::string url;
  int max_redirects = 0;  // followed by curl (robots.txt: 5); 0 = a redirect is the result
};

struct FetchResult {
  uint64_t id = 0;
  std::string url;        // as requested
  std::string final_url;  // after followed redirects
  std::string date;       // 14 digits, when the request started
  bool ok = false;        // a whole HTTP response arrived (any status)
  std::string error;      // curl's message otherwise ("" when ok)
  bool timed_out = false;
  bool truncated = false;  // body cut at max_body_bytes
  long status = 0;
  std::string request_head;   // the last request as sent
  std::string response_head;  // the last response's status line and headers, CRLF CRLF
  std::string body;           // as received (chunked stays chunked)
  std::string ip;             // WARC-IP-Address
  double seconds = 0;         // whole transfer
  std::string header(std::string_view name) const;  // first value, "" when absent
};

class Fetcher {
 public:
  explicit Fetcher(FetchOptions options);
  ~Fetcher();
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;

  void start(FetchRequest request);
  // Runs transfers for up to `max_wait_s` (less when one finishes) and returns those done.
  std::vector<FetchResult> poll(double max_wait_s);
  std::size_t active() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::crawl
