// The frontier's order and politeness, the URL rules, and revisits in the WARC output.
#include <gtest/gtest.h>

#include "archive/reader.hpp"
#include "crawl/frontier.hpp"
#include "crawl/url_rules.hpp"
#include "crawl/warc_output.hpp"
#include "testing/shared_data.hpp"

namespace {

using namespace strata::crawl;

QueuedUrl link(const std::string& url, Lane lane = Lane::link) {
  return {url, "", 1, lane, 0, 0};
}

TEST(Frontier, EmbedsFirstOneFetchPerHostAndTheDelayKept) {
  UrlStore store(strata::testing::scratch_dir());
  Politeness rules{5, 2, 30, 300, 60, 3600};
  Frontier frontier(store, rules, 8);
  EXPECT_TRUE(frontier.add(link("http://a/1"), "a", "a1"));
  EXPECT_TRUE(frontier.add(link("http://a/i.png", Lane::embed), "a", "ai"));
  EXPECT_FALSE(frontier.add(link("http://a/1"), "a", "a1"));  // seen
  auto first = frontier.next(0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->url.url, "http://a/i.png");
  EXPECT_FALSE(frontier.next(100));  // busy: one fetch per host
  EXPECT_EQ(frontier.waiting_hosts(0), 0u);
  frontier.done(*first, 10, 1);                 // 5 × 1 s clamped to [2, 30]
  EXPECT_EQ(frontier.waiting_hosts(14.9), 1u);  // the progress line's "waiting (politeness)"
  EXPECT_FALSE(frontier.next(14.9));
  EXPECT_EQ(frontier.waiting_hosts(15), 0u);
  auto second = frontier.next(15);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->url.url, "http://a/1");
  frontier.set_crawl_delay("a", 1000);  // honoured up to 300 s
  EXPECT_DOUBLE_EQ(frontier.host_delay("a", 0), 300);
}

TEST(Frontier, BackQueuesAreBoundedAndResumeFromTheStore) {
  auto dir = strata::testing::scratch_dir();
  {
    UrlStore store(dir);
    Frontier frontier(store, Politeness{0, 0, 0, 0, 0, 0}, 1);
    frontier.add(link("http://a/1"), "a", "a1");
    frontier.add(link("http://b/1"), "b", "b1");
    EXPECT_EQ(frontier.back_queues(), 1u);
    auto t = frontier.next(0);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->host, "a");
    frontier.done(*t, 0, 0);  // a's queue empties: b gets it
    EXPECT_EQ(frontier.queued(), 1u);
  }
  UrlStore store(dir);
  Frontier resumed(store, Politeness{0, 0, 0, 0, 0, 0}, 4);
  EXPECT_EQ(resumed.restore([](const QueuedUrl& u) { return politeness_host(u.url); }), 1u);
  auto t = resumed.next(0);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->url.url, "http://b/1");
  EXPECT_FALSE(resumed.add(link("http://a/1"), "a", "a1"));  // seen before the restart
}

TEST(UrlRules, NormalisationTrapsAndScope) {
  EXPECT_EQ(normalize_url("http://Ex.ORG:80/a/", "b;jsessionid=XYZ?x=1&PHPSESSID=2#frag"),
            "http://ex.org/a/b?x=1");
  EXPECT_FALSE(normalize_url("http://ex.org/", "mailto:a@b"));
  EXPECT_EQ(seen_key("http://www.ex.org/a"), seen_key("http://ex.org/a"));
  TrapLimits limits;
  EXPECT_EQ(trap_of("http://e/a/x/x/x/", limits), "repeated_segment");
  EXPECT_EQ(trap_of("http://e/" + std::string(3000, 'a'), limits), "url_length");
  EXPECT_EQ(trap_of("http://e/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17", limits), "path_depth");
  EXPECT_EQ(trap_of("http://e/?a&b&c&d&e&f&g&h&i&j&k&l&m", limits), "query_params");
  EXPECT_EQ(trap_of("http://e/cal/2024/01", limits), "");
  Scope scope;
  scope.domains = {"ex.org"};
  scope.path_prefixes = {"/news/"};
  EXPECT_TRUE(in_scope(scope, "http://www.ex.org/news/1", false));
  EXPECT_FALSE(in_scope(scope, "http://www.ex.org/shop/1", false));
  EXPECT_FALSE(in_scope(scope, "http://notex.org/news/1", false));
  EXPECT_TRUE(in_scope(scope, "http://cdn.other/i.png", true));
  EXPECT_EQ(politeness_host("http://User@Ex.org:8080/x"), "ex.org:8080");
}

TEST(WarcOutput, SameUrlAndPayloadIsARevisitAnotherUrlAWholeCopy) {
  auto dir = strata::testing::scratch_dir();
  UrlStore store(dir / "state");
  WarcOutput out({dir, "T", 1ull << 30, {}}, store);
  FetchResult fetch;
  fetch.url = "http://a/i.png";
  fetch.date = "20240101000000";
  fetch.ok = true;
  fetch.status = 200;
  fetch.request_head = "GET /i.png HTTP/1.1\r\nHost: a\r\n\r\n";
  fetch.response_head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\n";
  fetch.body = "\x89PNG";
  fetch.ip = "127.0.0.1";
  EXPECT_EQ(out.write(fetch, link(fetch.url), {}), CaptureKind::response);
  EXPECT_EQ(out.write(fetch, link(fetch.url), {}), CaptureKind::revisit);
  fetch.url = "http://a/copy.png";
  EXPECT_EQ(out.write(fetch, link(fetch.url), {}), CaptureKind::duplicate);
  strata::ProblemLog problems;
  auto reader = strata::archive::ArchiveReader::open(out.files().at(0), {}, problems.sink());
  int revisits = 0, responses = 0;
  while (reader->next()) {
    reader->finish_record();
    const auto& r = reader->record();
    if (r.type == strata::archive::RecordType::revisit) {
      ++revisits;
      EXPECT_EQ(r.refers_to_target_uri, "http://a/i.png");
    }
    responses += r.type == strata::archive::RecordType::response;
  }
  EXPECT_EQ(problems.total(), 0u);
  EXPECT_EQ(revisits, 1);
  EXPECT_EQ(responses, 2);
}

}  // namespace
