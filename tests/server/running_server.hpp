#pragma once
// A Server on a free loopback port, run on its own thread for the length of a test, and
// raw-socket requests for what an HTTP client library would not send.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>

#include "server/server.hpp"

namespace strata::server::testing {

class RunningServer {
 public:
  explicit RunningServer(ServerOptions options) {
    options.port = 0;
    server_ = std::make_unique<Server>(std::move(options));
    bound_ = server_->bind();
    EXPECT_TRUE(bound_) << server_->error();
    if (bound_) thread_ = std::thread([this] { server_->run(); });
  }
  ~RunningServer() {
    server_->stop();
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return server_->port(); }
  Server& server() { return *server_; }

 private:
  std::unique_ptr<Server> server_;
  bool bound_ = false;
  std::thread thread_;
};

// A connected TCP socket to 127.0.0.1:port (-1 on failure); closed by the destructor.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<uint16_t>(port));
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  // Drops the connection with a reset (SO_LINGER 0), as a client that gives up does.
  void reset() {
    linger now{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &now, sizeof now);
    ::close(fd_);
    fd_ = -1;
  }
  // Everything until the server closes (or 5 s pass without a byte).
  std::string read_all() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd_, buf, sizeof buf, 0)) > 0;) out.append(buf, n);
    return out;
  }
  // The status code of the first reply read until close, 0 when none came.
  int status() {
    std::string r = read_all();
    return r.size() > 12 && r.rfind("HTTP/1.", 0) == 0 ? std::stoi(r.substr(9, 3)) : 0;
  }

 private:
  int fd_ = -1;
};

}  // namespace strata::server::testing
