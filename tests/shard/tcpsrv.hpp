#pragma once
// xapian-tcpsrv (Debian's xapian-tools) serving one index folder on a free loopback port, for
// the length of a test (or of bench/shard's run); stopped, killed or restarted on demand.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xapian.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace strata::shard::testing {

inline const char* kTcpsrv = "/usr/bin/xapian-tcpsrv";

inline bool have_tcpsrv() {
  return ::access(kTcpsrv, X_OK) == 0;
}

// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
inline unsigned free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&at), sizeof at);
  socklen_t size = sizeof at;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&at), &size);
  ::close(fd);
  return ntohs(at.sin_port);
}

class Tcpsrv {
 public:
  explicit Tcpsrv(std::filesystem::path folder) : folder_(std::move(folder)), port_(free_port()) {
    start();
  }
  ~Tcpsrv() { kill(); }
  Tcpsrv(const Tcpsrv&) = delete;
  Tcpsrv& operator=(const Tcpsrv&) = delete;

  unsigned port() const { return port_; }
  pid_t pid() const { return pid_; }  // the server's, its process group's too
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  // Starts the server (again, on the same port) and waits until it answers (at most 10 s).
  bool start() {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);  // its connection processes too: kill() takes the whole shard down
      const std::string port = std::to_string(port_), dir = folder_.string();
      ::execl(kTcpsrv, kTcpsrv, "--quiet", "--interface", "127.0.0.1", "--port", port.c_str(),
              dir.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 200; ++i) {
      try {
        Xapian::Remote::open("127.0.0.1", port_, 1000, 1000).keep_alive();
        return true;
      } catch (const Xapian::Error&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    return false;
  }
  void kill() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  void pause() { ::kill(-pid_, SIGSTOP); }
  void resume() { ::kill(-pid_, SIGCONT); }

 private:
  std::filesystem::path folder_;
  unsigned port_;
  pid_t pid_ = -1;
};

}  // namespace strata::shard::testing
