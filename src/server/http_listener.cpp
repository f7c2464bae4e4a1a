#include "server/http_listener.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/json.hpp"
#include "core/log.hpp"

namespace strata::server::detail {
// The end of a request head: a blank line, also one ended by a bare LF (then refused as
// malformed, rather than waited for until the deadline).
struct HeadEnd {
  template <typename Iterator>
  std::pair<Iterator, bool> operator()(Iterator begin, Iterator end) const {
    for (Iterator i = begin; i != end; ++i) {
      if (*i != '\n') continue;
      Iterator next = std::next(i);
      if (next != end && *next == '\n') return {std::next(next), true};
      if (next != end && *next == '\r' && std::next(next) != end && *std::next(next) == '\n')
        return {std::next(next, 2), true};
    }
    return {begin, false};  // rescanned whole on the next read: heads are small
  }
};

}  // namespace strata::server::detail
template <>
struct boost::asio::is_match_condition<strata::server::detail::HeadEnd> : std::true_type {};

namespace strata::server {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr auto kRefusalTimeout = std::chrono::seconds(1);
constexpr auto kLinger = std::chrono::seconds(1);

HttpResponse error_response(int status, const std::string& message) {
  HttpResponse r;
  r.status = status;
  r.body = Json{{"error", {{"status", status}, {"message", message}}}}.dump();
  if (status == 405) r.headers.emplace_back("Allow", "GET, HEAD");
  return r;
}

}  // namespace

// Member order matters: sessions still queued in `ioc` when it is destroyed release their
// counts, so the counts must outlive it; the workers are joined before (~HttpListener).
struct HttpListener::Impl {
  Handler handler;
  ListenerLimits limits;
  AccessLogger log;
  std::mutex mutex;  // guards the counts
  size_t open = 0;
  size_t uploads = 0;
  size_t streams = 0;
  std::map<std::string, size_t> per_client;
  std::optional<net::thread_pool> workers;
  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  net::steady_timer accept_retry{ioc};
  // Replies handed to the socket whose completion (and access-log line) has not run yet.
  std::atomic<int> replies_being_written{0};
  net::steady_timer stop_wait{ioc};

  // Stops accepting, then stops the loop once every reply being written has completed (or at
  // `deadline`): a client may have read a reply before its completion handler ran, and that
  // handler writes the reply's access-log line. Idle keep-alive connections do not delay it.
  void stop_after_replies(Clock::time_point deadline) {
    beast::error_code ignored;
    acceptor.close(ignored);
    if (replies_being_written == 0 || Clock::now() >= deadline) return ioc.stop();
    stop_wait.expires_after(std::chrono::milliseconds(1));
    stop_wait.async_wait([this, deadline](beast::error_code) { stop_after_replies(deadline); });
  }

  // Counts a new connection; false when a limit is reached.
  bool admit(const std::string& client) {
    std::lock_guard lock(mutex);
    if (open >= limits.max_connections || per_client[client] >= limits.max_per_client) {
      if (per_client[client] == 0) per_client.erase(client);
      return false;
    }
    ++open, ++per_client[client];
    return true;
  }
  // Counts an upload whose body is being read or handled; false when max_uploads are.
  bool admit_upload() {
    std::lock_guard lock(mutex);
    if (uploads >= limits.max_uploads) return false;
    ++uploads;
    return true;
  }
  void release_upload() {
    std::lock_guard lock(mutex);
    --uploads;
  }
  bool admit_stream() {
    std::lock_guard lock(mutex);
    if (streams >= limits.max_streams) return false;
    ++streams;
    return true;
  }
  void release_stream() {
    std::lock_guard lock(mutex);
    --streams;
  }
  void release(const std::string& client) {
    std::lock_guard lock(mutex);
    --open;
    if (--per_client[client] == 0) per_client.erase(client);
  }
  // The handler's reply; a 500 (logged) when it throws.
  HttpResponse answer(const HttpRequest& req) {
    try {
      return handler(req);
    } catch (const std::exception& e) {
      log::error("server.exception", {{"message", e.what()}, {"target", req.target}});
    } catch (...) {
      log::error("server.exception", {{"message", "unknown"}, {"target", req.target}});
    }
    return error_response(500, "internal error");
  }
  void accept();
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, HttpListener::Impl* owner, std::string client, bool admitted)
      : stream_(std::move(socket)),
        owner_(owner),
        client_(std::move(client)),
        admitted_(admitted) {}
  ~Session() {
    release_upload();
    release_stream();
    if (admitted_) owner_->release(client_);
  }

  void start() {
    if (!admitted_) {
      keep_alive_ = false;
      return reply(error_response(503, "too many connections"), false);
    }
    read_head();
  }

 private:
  const ListenerLimits& limits() const { return owner_->limits; }

  // Keep-alive: the next request must begin within the idle timeout.
  void wait_next() {
    if (!buf_.empty()) return read_head();
    stream_.expires_after(limits().idle_timeout);
    stream_.async_read_some(net::buffer(chunk_),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              if (ec) return self->close();
                              self->buf_.append(self->chunk_.data(), n);
                              self->read_head();
                            });
  }

  void read_head() {
    // Empty lines before a request line are allowed (RFC 9112 2.2).
    while (buf_.rfind("\r\n", 0) == 0) buf_.erase(0, 2);
    stream_.expires_after(limits().head_timeout);
    net::async_read_until(
        // Pipelined bytes may already exceed the bound: a smaller one would throw.
        stream_, net::dynamic_buffer(buf_, std::max(kMaxRequestHead, buf_.size())),
        detail::HeadEnd(),
        [self = shared_from_this()](beast::error_code ec, size_t n) { self->on_head(ec, n); });
  }

  void on_head(beast::error_code ec, size_t n) {
    if (ec == net::error::not_found) return refuse(431, "request head over 8 KiB");
    if (ec) return close();  // timeout, reset or EOF: nothing to answer
    received_ = Clock::now();
    std::string head = buf_.substr(0, n);
    buf_.erase(0, n);
    while (head.rfind("\r\n", 0) == 0) head.erase(0, 2);  // arrived with the request
    head_ = parse_request_head(head);
    if (head_.status) return refuse(head_.status, head_.problem);
    keep_alive_ = head_.keep_alive;
    if (head_.keeps_body) {
      if (!owner_->admit_upload()) return refuse(503, "too many uploads at once");
      holds_upload_ = true;
    }
    read_body(head_.content_length);
  }

  // Reads the request body within the body deadline: an upload's is kept for the handler,
  // any other is dropped.
  void read_body(uint64_t length) {
    const size_t have = std::min<uint64_t>(length, buf_.size());
    body_.assign(head_.keeps_body ? buf_.substr(0, have) : std::string());
    buf_.erase(0, have);
    if (have == length) return dispatch();
    const size_t kept = body_.size();
    body_.resize(kept + (length - have));
    stream_.expires_after(limits().body_timeout);
    net::async_read(stream_, net::buffer(body_.data() + kept, length - have),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return self->close();
                      if (!self->head_.keeps_body) self->body_.clear();
                      self->dispatch();
                    });
  }

  void release_upload() {
    if (holds_upload_) owner_->release_upload();
    holds_upload_ = false;
  }

  // Runs the handler on the worker pool; the reply is written back on this connection's strand.
  // The worker hands its reference on to the strand rather than dropping it after the post, so
  // a session is always destroyed on its strand, like every other access to it.
  void dispatch() {
    auto strand = stream_.get_executor();
    HttpRequest request = to_request(head_, client_);
    request.body = std::move(body_);
    body_.clear();
    net::post(*owner_->workers,
              [self = shared_from_this(), strand, req = std::move(request)]() mutable {
                HttpResponse res = self->owner_->answer(req);
                req.body = {};  // an upload's bytes are never kept
                net::post(strand, [self = std::move(self), res = std::move(res)]() mutable {
                  self->release_upload();
                  self->reply(std::move(res), self->head_.method == "HEAD");
                });
              });
  }

  void refuse(int status, const std::string& why) {
    if (head_.method.empty()) head_.method = "-";
    if (head_.target.empty()) head_.target = "-";
    if (received_ == Clock::time_point()) received_ = Clock::now();
    keep_alive_ = false;
    reply(error_response(status, why), false);
  }

  template <typename Response>
  void set_head(Response& res, const HttpResponse& r) {
    res.version(head_.version == 10 ? 10 : 11);
    res.result(static_cast<unsigned>(r.status));
    res.set(http::field::content_type, r.content_type);
    res.set(http::field::access_control_allow_origin, "*");
    res.set(http::field::access_control_allow_methods, "GET, HEAD");
    res.set("X-Content-Type-Options", "nosniff");
    for (auto& [name, value] : r.headers) res.set(name, value);
  }

  void reply(HttpResponse r, bool head_only) {
    if (r.stream && !head_only) {
      if (owner_->admit_stream()) return reply_streamed(std::move(r));
      keep_alive_ = false;
      return reply(error_response(503, "too many exports at once"), false);
    }
    auto& res = response_;
    res = {};
    set_head(res, r);
    res.keep_alive(keep_alive_);
    sent_ = r.body.size();
    res.body() = std::move(r.body);
    res.prepare_payload();
    if (head_only || r.status == 304) {
      res.body().clear();
      sent_ = 0;
      if (r.status == 304) res.erase(http::field::content_length);
    }
    status_ = r.status;
    stream_.expires_after(admitted_ ? limits().write_timeout : kRefusalTimeout);
    ++owner_->replies_being_written;
    http::async_write(stream_, res, [self = shared_from_this()](beast::error_code ec, size_t) {
      self->on_written(ec);
    });
  }

  // The head, then each piece the handler produces (on a worker) as one chunk, then the last
  // chunk; HTTP/1.0 clients get the pieces as they are and the connection closes.
  void reply_streamed(HttpResponse r) {
    holds_stream_ = true;
    producer_ = std::move(r.stream);
    chunked_ = head_.version != 10;
    if (!chunked_) keep_alive_ = false;
    stream_head_ = {};
    set_head(stream_head_, r);
    stream_head_.keep_alive(keep_alive_);
    stream_head_.chunked(chunked_);
    status_ = r.status;
    sent_ = 0;
    serializer_.emplace(stream_head_);
    stream_.expires_after(limits().write_timeout);
    ++owner_->replies_being_written;
    http::async_write_header(stream_, *serializer_,
                             [self = shared_from_this()](beast::error_code ec, size_t) {
                               if (ec) return self->end_stream(ec);
                               self->produce();
                             });
  }

  void produce() {
    auto strand = stream_.get_executor();
    net::post(*owner_->workers, [self = shared_from_this(), strand]() mutable {
      std::string piece;
      bool more = false;
      beast::error_code failed;
      try {
        more = self->producer_(piece);
      } catch (const std::exception& e) {
        log::error("server.stream_failed", {{"message", e.what()}, {"target", self->head_.target}});
        failed = net::error::operation_aborted;
      }
      net::post(strand, [self = std::move(self), piece = std::move(piece), more, failed]() mutable {
        if (failed) return self->end_stream(failed);
        self->send_piece(std::move(piece), more);
      });
    });
  }

  void send_piece(std::string piece, bool more) {
    piece_ = std::move(piece);
    sent_ += piece_.size();
    auto then = [self = shared_from_this(), more](beast::error_code ec, size_t) {
      if (ec) return self->end_stream(ec);
      if (more) return self->produce();
      self->last_chunk();
    };
    stream_.expires_after(limits().write_timeout);
    if (piece_.empty()) return more ? produce() : last_chunk();  // an empty chunk ends a body
    if (chunked_) return net::async_write(stream_, http::make_chunk(net::buffer(piece_)), then);
    net::async_write(stream_, net::buffer(piece_), then);
  }

  void last_chunk() {
    if (!chunked_) return end_stream({});
    net::async_write(
        stream_, http::make_chunk_last(),
        [self = shared_from_this()](beast::error_code ec, size_t) { self->end_stream(ec); });
  }

  void end_stream(beast::error_code ec) {
    producer_ = nullptr;  // frees the export (its database, its buffers) now
    piece_ = {};
    serializer_.reset();
    release_stream();
    on_written(ec);
  }

  void release_stream() {
    if (holds_stream_) owner_->release_stream();
    holds_stream_ = false;
  }

  void on_written(beast::error_code ec) {
    if (owner_->log && admitted_) {
      double ms = std::chrono::duration<double, std::milli>(Clock::now() - received_).count();
      owner_->log({client_, head_.method, head_.target, status_, sent_, ms});
    }
    --owner_->replies_being_written;
    if (ec || !keep_alive_) return close();
    head_ = {};
    received_ = {};
    wait_next();
  }

  // A lingering close: unread request bytes would make the kernel reset the connection and
  // could destroy the reply (a 400 or 503) before the client read it, so they are drained
  // for up to a second first.
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLinger);
    drain();
  }
  void drain() {
    stream_.async_read_some(net::buffer(chunk_),
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (ec) return self->stream_.close();
                              self->drain();
                            });
  }

  beast::tcp_stream stream_;
  HttpListener::Impl* owner_;
  std::string client_;
  bool admitted_;
  std::string buf_;  // bytes read and not yet parsed (pipelined requests)
  std::array<char, 4096> chunk_{};
  std::string body_;
  RequestHead head_;  // of the request being answered
  http::response<http::string_body> response_;
  // A streamed reply: its head, serializer, producer and the piece being written.
  http::response<http::empty_body> stream_head_;
  std::optional<http::response_serializer<http::empty_body>> serializer_;
  std::function<bool(std::string&)> producer_;
  std::string piece_;
  bool chunked_ = true;
  bool holds_stream_ = false;  // counted in owner_->streams
  bool keep_alive_ = false;
  bool holds_upload_ = false;  // counted in owner_->uploads
  int status_ = 0;
  size_t sent_ = 0;
  Clock::time_point received_{};
};

}  // namespace

void HttpListener::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [self = this](beast::error_code ec, tcp::socket s) {
    if (!self->acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors (EMFILE) and the like: try again shortly, never spin.
      log::warn("server.accept_failed", {{"message", ec.message()}});
      self->accept_retry.expires_after(std::chrono::milliseconds(50));
      self->accept_retry.async_wait([self](beast::error_code) { self->accept(); });
      return;
    }
    s.set_option(tcp::no_delay(true), ec);  // else ~40 ms per keep-alive reply (Nagle)
    std::string client = s.remote_endpoint(ec).address().to_string();
    bool admitted = !ec && self->admit(client);
    std::make_shared<Session>(std::move(s), self, std::move(client), admitted)->start();
    self->accept();
  });
}

HttpListener::HttpListener(Handler handler, ListenerLimits limits, AccessLogger log)
    : impl_(std::make_unique<Impl>()) {
  impl_->handler = std::move(handler);
  impl_->limits = limits;
  impl_->log = std::move(log);
  unsigned workers =
      limits.workers ? limits.workers : std::max(8u, 2 * std::thread::hardware_concurrency());
  impl_->workers.emplace(workers);
}

HttpListener::~HttpListener() {
  stop();
  impl_->workers->join();
}

void HttpListener::bind(const std::string& host, int port) {
  if (port < 0 || port > 65535)
    throw ListenError("invalid port " + std::to_string(port) + " (0 to 65535)");
  beast::error_code ec;
  auto address = net::ip::make_address(host, ec);
  if (ec) throw ListenError("invalid address '" + host + "': use an IP address");
  const tcp::endpoint at(address, static_cast<unsigned short>(port));
  const std::string where = host + ":" + std::to_string(port);
  auto& a = impl_->acceptor;
  if (a.open(at.protocol(), ec) || a.set_option(tcp::acceptor::reuse_address(true), ec) ||
      a.bind(at, ec) || a.listen(net::socket_base::max_listen_connections, ec)) {
    beast::error_code ignored;
    a.close(ignored);
    if (ec == net::error::address_in_use) throw ListenError(where + " is in use");
    throw ListenError("cannot listen on " + where + ": " + ec.message());
  }
}

int HttpListener::port() const {
  beast::error_code ec;
  auto at = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : at.port();
}

void HttpListener::run() {
  impl_->accept();
  std::vector<std::thread> extra;
  for (unsigned i = 1; i < std::max(1u, impl_->limits.io_threads); ++i)
    extra.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : extra) t.join();
}

void HttpListener::stop() {
  net::post(impl_->ioc, [impl = impl_.get()] { impl->stop_after_replies(Clock::now() + kLinger); });
}

}  // namespace strata::server
