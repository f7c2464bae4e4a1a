// parse_request_head (server/request_head.hpp) on its own: the strict rules the listener
// applies before any handler runs (HttpStrictness.* checks them over sockets).
#include "server/request_head.hpp"

#include <gtest/gtest.h>

namespace strata::server {
namespace {

TEST(RequestHead, AcceptedHeadGivesTheHandlersRequest) {
  const RequestHead head = parse_request_head(
      "GET /imagesearch?q=lisboa+1998&safeSearch=off&safeSearch=on HTTP/1.1\r\nHost: x\r\n"
      "If-None-Match: \"e1\"\r\n\r\n");
  ASSERT_EQ(head.status, 0) << head.problem;
  EXPECT_TRUE(head.keep_alive);
  const HttpRequest r = to_request(head, "127.0.0.1");
  EXPECT_EQ(r.path, "/imagesearch");
  EXPECT_EQ(r.if_none_match, "\"e1\"");
  ASSERT_EQ(r.query.count("safeSearch"), 2u);
  EXPECT_EQ(r.query.find("q")->second, "lisboa 1998");
}

TEST(RequestHead, EachMalformedHeadHasItsStatusAndReason) {
  const std::pair<const char*, int> cases[] = {
      {"GET / HTTP/1.1\r\n\r\n", 400},                           // no Host
      {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},     // two Hosts
      {"GET / HTTP/1.1\nHost: a\n\n", 400},                      // bare LF
      {"GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n 2\r\n\r\n", 400},  // obs-fold
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400},
      {"GET http://x/ HTTP/1.1\r\nHost: a\r\n\r\n", 400},  // not a path
      {"POST / HTTP/1.1\r\nHost: a\r\n\r\n", 405},
      {"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 411},
      {"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\n\r\n", 413},
      {"garbage\r\n\r\n", 400},
  };
  for (const auto& [text, status] : cases) {
    const RequestHead head = parse_request_head(text);
    EXPECT_EQ(head.status, status) << text;
    EXPECT_FALSE(head.problem.empty()) << text;
  }
  // A NUL byte: the string_view keeps it.
  const std::string nul("GET / HTTP/1.1\r\nHost: a\0b\r\n\r\n", 29);
  EXPECT_EQ(parse_request_head(nul).problem, "NUL byte in the request head");
}

}  // namespace
}  // namespace strata::server
