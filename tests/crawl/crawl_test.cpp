// The crawler against a loopback test web (test_web.hpp): robots.txt variants, slow, 429 and
// 503 hosts, redirects and loops, traps, duplicates, images on other hosts. The server's
// request log is the judge: no politeness violation, no robots-disallowed or out-of-scope
// fetch, every trap cut; the WARCs read back without a problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "archive/reader.hpp"
#include "core/json.hpp"
#include "crawl/crawler.hpp"
#include "extract/extractor.hpp"
#include "sample/canvas.hpp"
#include "sample/encode.hpp"
#include "test_web.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace {

using strata::testing::TestWeb;
using strata::testing::WebResponse;

constexpr double kMinDelay_s = 0.15;

std::string png(uint8_t shade) {
  return strata::sample::encode_png(strata::sample::solid(64, 64, {shade, 40, 90}));
}

WebResponse html(std::string body) {
  return {200,
          "text/html",
          "<html><head><title>t</title></head><body>" + body + "</body></html>",
          {},
          0};
}

WebResponse not_found() {
  return {404, "text/plain", "no", {}, 0};
}

WebResponse site_a(const std::string& path, int) {
  if (path == "/robots.txt")
    return {200,
            "text/plain",
            "User-agent: *\nDisallow: /private/\n\nUser-agent: OtherBot\nDisallow: /\n",
            {},
            0};
  if (path == "/")
    return html(
        "<a href='/page1'>one</a><a href='/private/secret'>no</a><a href='/trap/x/'>trap</a>"
        "<a href='/deep/1'>deep</a><a href='/loop1'>loop</a><a href='/dup1'>d1</a><a "
        "href='/dup2'>d2</a><a href='/near1'>n1</a>"
        "<a href='http://other.test/'>elsewhere</a><a "
        "href='/q?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12&m=13'>q</a>"
        "<img src='/img/a.png' alt='red square'><img src='http://img.test/b.png' alt='offsite'>"
        "<img src='http://img.test/private/c.png'>");
  if (path == "/page1")
    return html(
        "<img src='/img/a.png' alt='again'><img src='/img/copy.png' alt='same bytes'>"
        "<a href='http://slow.test/'>slow</a><a href='http://busy.test/'>busy</a>"
        "<a href='http://down.test/'>down</a>");
  if (path.rfind("/trap/", 0) == 0) return html("<a href='x/'>deeper</a>");
  if (path.rfind("/deep/", 0) == 0)
    return html("<a href='/deep/" + std::to_string(std::stoi(path.substr(6)) + 1) + "'>next</a>");
  if (path == "/loop1") return {302, "text/html", "", {{"Location", "/loop2"}}, 0};
  if (path == "/loop2") return {302, "text/html", "", {{"Location", "/loop1"}}, 0};
  if (path == "/dup1" || path == "/dup2") return html("the same page twice, word for word");
  if (path == "/near1" || path == "/near2") {
    std::string text;
    for (int i = 0; i < 300; ++i) text += "word" + std::to_string(i) + " ";
    return html(text + (path == "/near1" ? "first" : "second") + " <a href='/near2'>n</a>");
  }
  if (path == "/img/a.png" || path == "/img/copy.png") return {200, "image/png", png(200), {}, 0};
  return not_found();
}

WebResponse route(const std::string& host, const std::string& path, int seen) {
  if (host == "a.test") return site_a(path, seen);
  if (host == "img.test") {
    if (path == "/robots.txt")
      return {200, "text/plain", "User-agent: *\nDisallow: /private/\n", {}, 0};
    if (path == "/b.png" || path == "/private/c.png") return {200, "image/png", png(100), {}, 0};
  }
  if (host == "slow.test") {
    if (path == "/") return {200, "text/html", "<a href='/two'>two</a>", {}, 0.3};
    if (path == "/two") return {200, "text/html", "slow two", {}, 0.3};
  }
  if (host == "busy.test") {
    if (path == "/" && seen == 0) return {429, "text/plain", "later", {{"Retry-After", "1"}}, 0};
    if (path == "/") return html("<a href='/again'>again</a>");
    if (path == "/again" && seen == 0)
      return {503, "text/plain", "later", {{"Retry-After", "1"}}, 0};
    if (path == "/again") return html("finally");
  }
  if (host == "down.test" && path == "/robots.txt") return {500, "text/plain", "broken", {}, 0};
  if (host == "down.test") return html("must never be fetched");
  return not_found();
}

strata::crawl::CrawlOptions options_for(const TestWeb& web, const std::filesystem::path& out) {
  strata::crawl::CrawlOptions o;
  o.seeds = {"http://a.test/"};
  o.out_dir = out;
  o.scope.hosts = {"slow.test", "busy.test", "down.test"};
  o.max_depth = 4;
  o.politeness.min_delay_s = kMinDelay_s;
  o.politeness.delay_factor = 1;
  o.politeness.max_delay_s = 1;
  o.politeness.default_retry_after_s = 1;
  o.fetch.connect_to = {web.connect_to()};
  o.fetch.total_timeout_s = 10;
  o.contact_url = "https://example.org/crawler";
  return o;
}

std::map<std::string, std::vector<strata::testing::LoggedRequest>> by_host(
    const std::vector<strata::testing::LoggedRequest>& log) {
  std::map<std::string, std::vector<strata::testing::LoggedRequest>> hosts;
  for (const auto& r : log) hosts[r.host].push_back(r);
  return hosts;
}

std::map<std::string, int> warc_record_types(const std::vector<std::filesystem::path>& warcs,
                                             size_t& problems) {
  std::map<std::string, int> types;
  strata::ProblemLog log;
  for (const auto& path : warcs) {
    auto reader = strata::archive::ArchiveReader::open(path, {}, log.sink());
    while (reader->next()) {
      reader->finish_record();
      ++types[std::string(strata::archive::to_string(reader->record().type))];
    }
  }
  problems = log.total();
  return types;
}

// Every image the extraction stage finds in the crawl's WARCs (captures and revisits) has a
// reference from a crawled page: what `strata index` needs to find the image with its page.
void expect_images_with_their_pages(const std::vector<std::filesystem::path>& warcs) {
  std::set<std::string> images, referenced;
  std::set<std::pair<std::string, std::string>> refs;
  strata::ProblemLog problems;
  strata::Counters counters;
  for (const auto& path : warcs) {
    std::ostringstream out;
    strata::extract::ExtractOptions options;
    options.collection = "crawl";
    ASSERT_TRUE(strata::extract::extract_archive(path, path.string(), options, out, counters,
                                                 problems.sink()));
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
      auto j = strata::Json::parse(line);
      std::string type = j.value("type", "");
      if (type == "image" || type == "revisit") images.insert(j.value("imgSurt", ""));
      if (type == "ref") {
        referenced.insert(j.value("imgSurt", ""));
        refs.insert({j.value("imgUrl", ""), j.value("pageUrl", "")});
      }
    }
  }
  EXPECT_EQ(problems.total(), 0u);
  EXPECT_GE(images.size(), 3u);
  for (const auto& image : images) EXPECT_TRUE(referenced.count(image)) << image;
  EXPECT_TRUE(refs.count({"http://img.test/b.png", "http://a.test/"}));
  EXPECT_TRUE(refs.count({"http://a.test/img/copy.png", "http://a.test/page1"}));
}

// The crawl's WARCs indexed as `strata index` does (extraction, merge, the index): every image
// document has the page that shows it.
void expect_indexed_with_their_pages(const std::vector<std::filesystem::path>& warcs) {
  ASSERT_FALSE(warcs.empty());
  const std::filesystem::path dir = warcs.front().parent_path() / "indexed";
  const auto report = strata::testing::add_archives(dir / "index", warcs, dir / "work");
  EXPECT_GE(report.applied.written, 2u);  // a document per picture: copies share one
  const auto documents = strata::testing::indexed_documents(dir / "index");
  EXPECT_EQ(documents.size(), report.applied.written);
  std::set<std::pair<std::string, std::string>> shown;
  for (const auto& [id, doc] : documents) {
    EXPECT_FALSE(doc.value("pageUrl", "").empty()) << doc.value("imgUrl", "");
    shown.insert({doc.value("imgUrl", ""), doc.value("pageUrl", "")});
  }
  EXPECT_TRUE(shown.count({"http://img.test/b.png", "http://a.test/"}));
}

TEST(Crawl, PoliteScopedTrapFreeAndReadable) {
  TestWeb web(route);
  auto out = strata::testing::scratch_dir();
  strata::ProblemLog problems;
  auto report = strata::crawl::run_crawl(options_for(web, out), problems);
  auto log = web.log();
  std::set<std::string> fetched;
  for (const auto& r : log) fetched.insert(r.host + r.path);

  // Politeness: per host, requests one at a time and at least the minimum delay apart.
  for (const auto& [host, requests] : by_host(log))
    for (size_t i = 1; i < requests.size(); ++i)
      EXPECT_GE(requests[i].at - requests[i - 1].at, kMinDelay_s - 0.01)
          << host << " " << requests[i - 1].path << " then " << requests[i].path;
  // Robots: nothing disallowed, nothing from a host whose robots.txt failed with 5xx.
  for (const auto& r : log) {
    EXPECT_EQ(r.path.find("/private/"), std::string::npos) << r.host << r.path;
    if (r.host == "down.test") {
      EXPECT_EQ(r.path, "/robots.txt");
    }
    EXPECT_NE(r.host, "other.test");  // out of scope
  }
  EXPECT_TRUE(fetched.count("img.test/b.png"));  // an image on another host, with its page
  EXPECT_TRUE(fetched.count("a.test/img/copy.png"));
  EXPECT_TRUE(fetched.count("slow.test/two"));
  EXPECT_TRUE(fetched.count("busy.test/again"));
  // Traps cut: repeated segments, depth, query explosion; each URL fetched once.
  size_t trap = 0, deep = 0;
  for (const auto& r : log) {
    trap += r.path.rfind("/trap/", 0) == 0;
    deep += r.path.rfind("/deep/", 0) == 0;
  }
  EXPECT_LE(trap, 3u);
  EXPECT_EQ(deep, 4u);  // /deep/1 at depth 1 .. /deep/4 at the maximum depth
  EXPECT_FALSE(fetched.count("a.test/q?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12&m=13"));
  std::map<std::string, int> per_url;
  for (const auto& r : log) ++per_url[r.host + r.path];
  for (const auto& [u, n] : per_url) {
    if (u != "busy.test/" && u != "busy.test/again") {
      EXPECT_EQ(n, 1) << u;
    }
  }
  EXPECT_EQ(per_url["busy.test/"], 2);  // 429, then after Retry-After
  EXPECT_GE(report.counters.get("trap_repeated_segment"), 1);
  EXPECT_GE(report.counters.get("trap_query_params"), 1);
  EXPECT_GE(report.counters.get("beyond_depth"), 1);
  EXPECT_GE(report.counters.get("out_of_scope"), 1);
  EXPECT_EQ(report.counters.get("robots_unreachable"), 1);
  EXPECT_EQ(report.queued_left, 0u);

  // Duplicate content at other URLs (/dup2, copy.png, /trap/x/x/) is written whole, counted.
  EXPECT_EQ(report.counters.get("duplicate_payloads"), 3);
  EXPECT_EQ(report.counters.get("revisits"), 0);
  // Near duplicates (the same text but one word, and the exact copies) are reported.
  std::set<std::pair<std::string, std::string>> near(report.near_duplicates.begin(),
                                                     report.near_duplicates.end());
  EXPECT_TRUE(near.count({"http://a.test/near2", "http://a.test/near1"}));
  EXPECT_TRUE(near.count({"http://a.test/dup2", "http://a.test/dup1"}));
  size_t warc_problems = 0;
  auto types = warc_record_types(report.warcs, warc_problems);
  EXPECT_EQ(warc_problems, 0u);
  EXPECT_EQ(types["warcinfo"], 1);
  EXPECT_EQ(types["revisit"], 0);
  EXPECT_EQ(types["request"], types["response"] + types["revisit"]);
  EXPECT_EQ(types["metadata"], types["request"]);
  expect_images_with_their_pages(report.warcs);
  expect_indexed_with_their_pages(report.warcs);
}

TEST(Crawl, StopsAndResumesWithoutRefetching) {
  TestWeb web(route);
  auto out = strata::testing::scratch_dir();
  auto options = options_for(web, out);
  // A stop request (what SIGINT sets) once the server has answered six requests.
  options.stop_requested = [&web] { return web.log().size() >= 6; };
  strata::ProblemLog problems;
  auto first = strata::crawl::run_crawl(options, problems);
  EXPECT_TRUE(first.stopped);
  EXPECT_GT(first.queued_left, 0u);
  options.stop_requested = nullptr;
  options.max_fetches = 4;  // a limit also ends a run with URLs left
  auto second = strata::crawl::run_crawl(options, problems);
  EXPECT_GT(second.queued_left, 0u);
  options.max_fetches = 0;
  auto third = strata::crawl::run_crawl(options, problems);
  EXPECT_EQ(third.queued_left, 0u);
  EXPECT_GT(third.counters.get("resumed_urls"), 0);
  std::map<std::string, int> per_url;
  for (const auto& r : web.log()) ++per_url[r.host + r.path];
  for (const auto& [u, n] : per_url) {
    if (u.find("robots.txt") == std::string::npos && u != "busy.test/" && u != "busy.test/again") {
      EXPECT_EQ(n, 1) << u;
    }
  }
  EXPECT_TRUE(per_url.count("img.test/b.png"));
  ASSERT_EQ(third.warcs.size(), 1u);
  EXPECT_NE(first.warcs.at(0), third.warcs.at(0));  // a new file per run, the old ones kept
}

}  // namespace

// Robustness: a body over the size cap is cut and marked, a host slower than the timeout
// fails after its attempts, a bad gzip body and non-HTML content are written as received;
// the crawl ends with nothing left and its WARC reads back without a problem.
TEST(Crawl, CapsTimeoutsAndBadBodiesNeverStopTheCrawl) {
  TestWeb web([](const std::string&, const std::string& path, int) -> WebResponse {
    if (path == "/robots.txt") return {404, "text/plain", "", {}, 0};
    if (path == "/")
      return {200,
              "text/html",
              "<a href='/big'>big</a><a href='/slow'>slow</a><a href='/bad-gzip'>gz</a>"
              "<a href='/data.bin'>bin</a>",
              {},
              0};
    if (path == "/big") return {200, "text/html", std::string(300'000, 'x'), {}, 0};
    if (path == "/slow") return {200, "text/html", "late", {}, 4};
    if (path == "/bad-gzip")
      return {200, "text/html", "this is not gzip", {{"Content-Encoding", "gzip"}}, 0};
    if (path == "/data.bin") return {200, "application/octet-stream", "\x01\x02\x03", {}, 0};
    return {404, "text/plain", "", {}, 0};
  });
  auto out = strata::testing::scratch_dir();
  strata::crawl::CrawlOptions o;
  o.seeds = {"http://a.test/"};
  o.out_dir = out;
  o.politeness.min_delay_s = 0;
  o.politeness.delay_factor = 0;
  o.politeness.max_delay_s = 0;
  o.politeness.default_retry_after_s = 0;
  o.max_attempts = 2;
  o.fetch.connect_to = {web.connect_to()};
  o.fetch.total_timeout_s = 2;
  o.fetch.max_body_bytes = 100'000;
  strata::ProblemLog problems;
  auto report = strata::crawl::run_crawl(o, problems);
  EXPECT_EQ(report.queued_left, 0u);
  EXPECT_EQ(report.counters.get("truncated"), 1);
  EXPECT_EQ(report.counters.get("failed_timeout"), 1);
  EXPECT_EQ(report.counters.get("retries_network"), 1);
  EXPECT_GE(report.counters.get("responses"), 4);  // /, /big, /bad-gzip, /data.bin
  uint64_t warc_problems = 0;
  auto types = warc_record_types(report.warcs, warc_problems);
  EXPECT_EQ(warc_problems, 0u);
  EXPECT_EQ(types["response"], report.counters.get("responses") + 1);  // + robots.txt's
}
