// Lifetimes under concurrent load: clients that abort mid-request while workers answer
// searches with and without words, and a server destroyed with requests in flight. Plain
// builds check that it keeps serving and stops cleanly; an AddressSanitizer build of
// test_server catches the old destruction order (a request at shutdown read a freed base
// URL) every run. The MatchAll race is inside Xapian: tests/search/threads_test.cpp.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
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
  for (int i = 0; i < 20; ++i)
    w.add(testing::doc("img" + std::to_string(i), "2020031614470" + std::to_string(i % 10),
                       "Ípsilon " + std::to_string(i)));
  return o;
}

std::string get(const std::string& target, bool close) {
  return "GET " + target + " HTTP/1.1\r\nHost: a\r\n" + (close ? "Connection: close\r\n" : "") +
         "\r\n";
}

// One client's turn: a search (pipelined with a healthcheck), either read to the end or
// dropped with a reset at once, while a worker may still be answering it.
bool client_turn(int port, int turn) {
  RawConnection c(port);
  // Every other search has no words (the search page's first request): all documents.
  const std::string search = turn % 4 < 2 ? "/imagesearch?q=ipsilon&maxItems=50&safeSearch=off"
                                          : "/imagesearch?q=&maxItems=50&type=png";
  if (!c.send(get(search, false) + get("/imagesearch/healthcheck", true))) return false;
  if (turn % 2 == 0) return c.read_all().find("HTTP/1.1 200") != std::string::npos;
  c.reset();
  return true;
}

// Runs `clients` threads of `turns` client turns each; how many turns failed.
int run_clients(int port, int clients, int turns) {
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < clients; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < turns; ++i)
        if (!client_turn(port, t + i)) ++failed;
    });
  for (auto& t : threads) t.join();
  return failed;
}

TEST(ServerConcurrency, ClientsThatAbortMidRequestLeaveTheServerServing) {
  RunningServer server(small_index_options());
  EXPECT_EQ(run_clients(server.port(), 8, 25), 0);
  RawConnection after(server.port());
  ASSERT_TRUE(after.send(get("/imagesearch/healthcheck", true)));
  EXPECT_EQ(after.status(), 200);
}

TEST(ServerConcurrency, ServerIsDestroyedWithRequestsInFlight) {
  const ServerOptions options = small_index_options();
  for (int round = 0; round < 12; ++round) {
    auto server = std::make_unique<RunningServer>(options);
    std::thread load([port = server->port()] { run_clients(port, 8, 10); });
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + 10 * (round % 4)));
    server.reset();  // stops and destroys it while workers may be answering
    load.join();
  }
}

}  // namespace
}  // namespace strata::server
