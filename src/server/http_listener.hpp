#pragma once
// The connection layer of `strata serve` (Boost.Beast + Asio). An async accept loop on a few
// I/O threads, so an idle or slow client costs a socket, never a thread; deadlines per
// connection (request head 10 s in all, body 10 s, idle keep-alive 5 s, reply 30 s); a listen
// backlog of SOMAXCONN; at most `max_connections` connections in all and `max_per_client` per
// client address (beyond: 503 and close). Request heads are parsed strictly: 400 for a
// missing or repeated Host on HTTP/1.1, a repeated Content-Length, Content-Length with
// Transfer-Encoding, NUL or other control bytes, obs-fold, bare LF or a target that is not a
// path; 431 beyond 8 KiB; 405 for methods other than GET and HEAD, except a POST to
// kUploadPath, whose body (up to kMaxUploadBody) goes to the handler; other request bodies
// (up to 64 KiB) are read and ignored. A handler may stream its reply in pieces (exports:
// HttpResponse::stream), each piece under the write deadline. Handlers run on a worker pool: a
// client that reads its reply slowly holds a socket, not a worker. Each connection handles one
// request at a time, in order, so pipelining works and no client can queue more than one request
// per connection.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "server/request_head.hpp"

namespace strata::server {

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json; charset=UTF-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // added to the defaults
  // A body produced in pieces (an export): when set, `body` is ignored and the reply is sent
  // chunked (to HTTP/1.0 clients: until the connection closes). Called on a worker, once per
  // piece, appending it to `piece`; false after the last. Each piece is written (within the
  // write deadline) before the next is asked for, so a slow client holds a socket and one
  // piece, never a worker. Throwing ends the reply without its last chunk: the client sees
  // an incomplete transfer, never a truncated body passed off as whole.
  std::function<bool(std::string& piece)> stream;
};

// One line of the access log (access_log.hpp), reported when a reply was sent or refused.
struct AccessEntry {
  std::string client, method, target;
  int status = 0;
  size_t bytes = 0;  // body bytes sent
  double ms = 0;     // from the complete request head to the reply written
};

struct ListenerLimits {
  size_t max_connections = 1024;
  size_t max_per_client = 64;
  // Uploads (POST kUploadPath) read or handled at once, each up to kMaxUploadBody and one
  // decoded image: beyond, 503 and close.
  size_t max_uploads = 8;
  // Streamed replies (exports) being sent at once: beyond, 503.
  size_t max_streams = 4;
  unsigned io_threads = 2;
  unsigned workers = 0;  // 0: twice the hardware threads, at least 8
  std::chrono::milliseconds head_timeout{10000};
  std::chrono::milliseconds body_timeout{10000};
  std::chrono::milliseconds idle_timeout{5000};
  std::chrono::milliseconds write_timeout{30000};
};

// A bind that failed, with a message fit for the operator ("127.0.0.1:8080 is in use").
struct ListenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Handler = std::function<HttpResponse(const HttpRequest&)>;
using AccessLogger = std::function<void(const AccessEntry&)>;

class HttpListener {
 public:
  // `handler` may throw: the client gets a 500 and the message is logged.
  HttpListener(Handler handler, ListenerLimits limits, AccessLogger log = nullptr);
  // Stops, then waits for the handlers running or queued on the workers: whatever `handler`
  // and `log` use must outlive the listener.
  ~HttpListener();
  // Binds and listens (port 0: any free port); throws ListenError. No SO_REUSEPORT: a
  // second server on a port in use fails here.
  void bind(const std::string& host, int port);
  int port() const;
  // Serves until stop() (callable from any thread, also before run()).
  void run();
  void stop();

  struct Impl;  // shared with the connections (http_listener.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::server
