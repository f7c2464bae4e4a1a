// The connection layer under hostile or careless clients: strict request heads, deadlines,
// connection limits, keep-alive and pipelining (http_listener.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "index/writer.hpp"
#include "running_server.hpp"
#include "sample_docs.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

using testing::RawConnection;
using testing::RunningServer;

ServerOptions small_index_options() {
  ServerOptions o;
  o.index_dir = strata::testing::scratch_dir() / "index";
  index::IndexWriter w(o.index_dir);
  w.add(testing::doc("aaa", "20200316144708", "Ípsilon"));
  return o;
}

int status_of(int port, const std::string& request) {
  RawConnection c(port);
  EXPECT_TRUE(c.send(request));
  return c.status();
}

class HttpStrictness : public ::testing::Test {
 protected:
  void SetUp() override { server_ = std::make_unique<RunningServer>(small_index_options()); }
  int status(const std::string& head) { return status_of(server_->port(), head); }
  std::unique_ptr<RunningServer> server_;
};

TEST_F(HttpStrictness, WellFormedRequestsAreServed) {
  EXPECT_EQ(status("GET /imagesearch/healthcheck HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"),
            200);
  EXPECT_EQ(status("GET /imagesearch/healthcheck HTTP/1.0\r\n\r\n"), 200);  // Host optional
  EXPECT_EQ(status("\r\nGET /imagesearch/healthcheck HTTP/1.0\r\n\r\n"), 200);
  EXPECT_EQ(status("HEAD /imagesearch/healthcheck HTTP/1.0\r\n\r\n"), 200);
  // A body is read and ignored.
  EXPECT_EQ(status("GET /imagesearch/healthcheck HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n"
                   "Connection: close\r\n\r\nhello"),
            200);
}

TEST_F(HttpStrictness, MalformedHeadsAre400) {
  EXPECT_EQ(status("GET / HTTP/1.1\r\n\r\n"), 400);                        // no Host
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400);  // two
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n"    // conflicting
                   "Content-Length: 2\r\n\r\nab"),
            400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n"  // repeated
                   "Content-Length: 1\r\n\r\na"),
            400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n"
                   "Transfer-Encoding: chunked\r\n\r\na"),
            400);
  EXPECT_EQ(status(std::string("GET / HTTP/1.1\r\nHost: a\r\nX-A: b\0c\r\n\r\n", 37)), 400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nX-A: \x01\r\n\r\n"), 400);     // control byte
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n"), 400);  // obs-fold
  EXPECT_EQ(status("GET / HTTP/1.1\nHost: a\n\n"), 400);                        // bare LF
  EXPECT_EQ(status("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n"), 400);          // not a path
  EXPECT_EQ(status("GET / HTTP/2.0\r\nHost: a\r\n\r\n"), 400);
  EXPECT_EQ(status("\x16\x03\x01 TLS hello\r\n\r\n"), 400);
}

TEST_F(HttpStrictness, OtherRefusals) {
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nX-A: " + std::string(9000, 'a') + "\r\n\r\n"),
            431);
  EXPECT_EQ(status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"), 405);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
            411);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n"), 413);
}

TEST_F(HttpStrictness, KeepAliveAndPipelinedRequestsAnswerInOrder) {
  RawConnection c(server_->port());
  const std::string health = "GET /imagesearch/healthcheck HTTP/1.1\r\nHost: a\r\n\r\n";
  ASSERT_TRUE(
      c.send(health + "GET /nothing HTTP/1.1\r\nHost: a\r\n\r\n" +
             "HEAD /imagesearch/healthcheck HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"));
  std::string all = c.read_all();
  size_t first = all.find("HTTP/1.1 200"), second = all.find("HTTP/1.1 404"),
         third = all.find("HTTP/1.1 200", first + 1);
  ASSERT_NE(first, std::string::npos) << all;
  ASSERT_NE(second, std::string::npos) << all;
  ASSERT_NE(third, std::string::npos) << all;
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  EXPECT_EQ(all.substr(all.size() - 4), "\r\n\r\n") << "HEAD reply has no body";
}

TEST_F(HttpStrictness, PipelinedRequestsBeyondTheHeadBoundAllAnswer) {
  RawConnection c(server_->port());
  std::string burst;
  for (int i = 0; i < 300; ++i)  // ~15 KiB at once, beyond the 8 KiB bound of one head
    burst += "GET /imagesearch/healthcheck HTTP/1.1\r\nHost: a\r\n\r\n";
  ASSERT_TRUE(c.send(burst + "GET /nothing HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"));
  std::string all = c.read_all();
  size_t replies = 0;
  for (size_t at = all.find("HTTP/1.1 200"); at != std::string::npos;
       at = all.find("HTTP/1.1 200", at + 1))
    ++replies;
  EXPECT_EQ(replies, 300u);
  EXPECT_NE(all.find("HTTP/1.1 404"), std::string::npos);
}

// Deadlines and limits, shortened so the test takes a second.
class HttpLimits : public ::testing::Test {
 protected:
  void start(size_t per_client, size_t total) {
    ServerOptions o = small_index_options();
    o.limits.head_timeout = std::chrono::milliseconds(400);
    o.limits.idle_timeout = std::chrono::milliseconds(300);
    o.limits.max_per_client = per_client;
    o.limits.max_connections = total;
    server_ = std::make_unique<RunningServer>(o);
  }
  std::unique_ptr<RunningServer> server_;
};

TEST_F(HttpLimits, SlowHeadIsCutAtTheDeadline) {
  start(64, 1024);
  RawConnection c(server_->port());
  ASSERT_TRUE(c.send("GET / HTTP/1.1\r\n"));
  auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < 8; ++i) {  // a byte every 100 ms: never done within 400 ms
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!c.send("X")) break;
  }
  EXPECT_EQ(c.read_all(), "");  // closed without a reply
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(3));
}

TEST_F(HttpLimits, IdleKeepAliveIsClosed) {
  start(64, 1024);
  RawConnection c(server_->port());
  ASSERT_TRUE(c.send("GET /imagesearch/healthcheck HTTP/1.1\r\nHost: a\r\n\r\n"));
  auto begin = std::chrono::steady_clock::now();
  std::string reply = c.read_all();  // returns when the server closes the idle connection
  EXPECT_EQ(reply.rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(2));
}

TEST_F(HttpLimits, ConnectionsBeyondTheTotalGet503) {
  start(64, 2);
  RawConnection a(server_->port()), b(server_->port());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // accepted and counted
  EXPECT_EQ(status_of(server_->port(), "GET /imagesearch/healthcheck HTTP/1.0\r\n\r\n"), 503);
}

TEST_F(HttpLimits, ConnectionsBeyondThePerClientLimitGet503) {
  start(2, 3);
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 2; ++i) held.push_back(std::make_unique<RawConnection>(server_->port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // accepted and counted
  EXPECT_EQ(status_of(server_->port(), "GET /imagesearch/healthcheck HTTP/1.0\r\n\r\n"), 503);
  held.pop_back();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(status_of(server_->port(), "GET /imagesearch/healthcheck HTTP/1.0\r\n\r\n"), 200);
}

}  // namespace
}  // namespace strata::server
