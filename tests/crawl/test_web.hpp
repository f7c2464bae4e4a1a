#pragma once
// A web of virtual hosts on one loopback server, keyed by the Host header: the crawler reaches
// every host through CURLOPT_CONNECT_TO ("::127.0.0.1:PORT"), nothing else is reachable.
// Every request is logged (host, path, server-side time), so tests check politeness, robots
// and scope from what the server saw.
#include <httplib.h>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace strata::testing {

struct LoggedRequest {
  std::string host, path;
  double at = 0;  // seconds since the server started, when the handler ran
};

struct WebResponse {
  int status = 200;
  std::string content_type = "text/html";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  double delay_s = 0;  // a slow host
};

class TestWeb {
 public:
  // Answers (host, path with query, how many times this host+path was asked before).
  using Handler = std::function<WebResponse(const std::string&, const std::string&, int)>;

  explicit TestWeb(Handler handler)
      : handler_(std::move(handler)), start_(std::chrono::steady_clock::now()) {
    // A worker per connection: the crawler keeps one alive per host, and slow hosts sleep.
    server_.new_task_queue = [] { return new httplib::ThreadPool(64); };
    server_.Get(R"(.*)",
                [this](const httplib::Request& req, httplib::Response& res) { serve(req, res); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 200 && !server_.is_running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ~TestWeb() {
    server_.stop();
    thread_.join();
  }

  int port() const { return port_; }
  std::string connect_to() const { return "::127.0.0.1:" + std::to_string(port_); }
  std::vector<LoggedRequest> log() const {
    std::lock_guard lock(mutex_);
    return log_;
  }

 private:
  void serve(const httplib::Request& req, httplib::Response& res) {
    std::string host = req.get_header_value("Host");
    std::string path = req.target;
    int seen;
    {
      std::lock_guard lock(mutex_);
      log_.push_back(
          {host, path,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()});
      seen = counts_[host + path]++;
    }
    WebResponse r = handler_(host, path, seen);
    if (r.delay_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(r.delay_s));
    res.status = r.status;
    for (const auto& [name, value] : r.headers) res.set_header(name, value);
    res.set_content(r.body, r.content_type);
  }

  Handler handler_;
  std::chrono::steady_clock::time_point start_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<LoggedRequest> log_;
  std::map<std::string, int> counts_;
};

}  // namespace strata::testing
