#pragma once
// Strict parsing of one HTTP request head, as `strata serve` reads it (http_listener.hpp),
// on Boost.Beast's parser plus checks of our own: 400 for a bare LF, obs-fold, NUL or other
// control bytes, an unsupported version, a missing or repeated Host on HTTP/1.1, a repeated
// Content-Length, Content-Length with Transfer-Encoding or a target that is not a path; 405
// for methods other than GET and HEAD (and POST to kUploadPath); 411 for chunked bodies; 413
// for bodies over kMaxRequestBody (kMaxUploadBody for an upload). Never throws: any bytes give an
// accepted head or a refusal with a reason.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "server/api.hpp"

namespace strata::server {

inline constexpr size_t kMaxRequestHead = 8192;   // longer heads: 431 (the listener's check)
inline constexpr size_t kMaxRequestBody = 65536;  // read and ignored
// The one path that takes a POST: an image uploaded for "more like this" (similar_api.hpp),
// its body kept for the handler.
inline constexpr std::string_view kUploadPath = "/imagesearch/similar";
inline constexpr size_t kMaxUploadBody = 8 << 20;

struct RequestHead {
  int status = 0;         // 0: accepted; else the refusal's status
  std::string problem;    // why it was refused
  std::string method;     // as sent ("-" when unknown)
  std::string target;     // as sent ("-" when unknown)
  unsigned version = 11;  // 10 or 11
  bool keep_alive = false;
  uint64_t content_length = 0;
  bool keeps_body = false;  // an upload: the body goes to the handler
  std::string if_none_match;
  std::string accept_datetime;  // Memento (RFC 7089) TimeGate negotiation
};

// `head`: the bytes of a request head through its blank line (empty lines before the request
// line already removed), at most kMaxRequestHead.
RequestHead parse_request_head(std::string_view head);

// What a handler sees of a request.
struct HttpRequest {
  std::string method;  // GET, HEAD, or POST to kUploadPath
  std::string target;  // as sent: "/wayback/2008.../http://x/a.png?b=1"
  std::string path;    // target before '?', percent-decoded
  Params query;        // decoded query parameters, in request order ('+' is a space)
  std::string if_none_match;
  std::string accept_datetime;
  std::string client;  // the peer's address
  std::string body;    // an upload's bytes (else empty)
};

// The request of an accepted head.
HttpRequest to_request(const RequestHead& head, std::string client);

}  // namespace strata::server
