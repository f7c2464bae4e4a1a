#include "analyze/blocklist.hpp"

#include <gtest/gtest.h>

#include "testing/shared_data.hpp"

namespace strata::analyze {
namespace {

BlockPattern pat(std::string_view line) {
  BlockPattern p;
  EXPECT_TRUE(BlockList::parse(line, p)) << line;
  return p;
}

TEST(BlockList, ParsesKindsAndBareValues) {
  EXPECT_EQ(pat("host:Example.COM").to_string(), "host:example.com");
  EXPECT_EQ(pat("  url:http://x.pt/a/ ").to_string(), "url:http://x.pt/a/");
  EXPECT_EQ(pat("page:https://forum.pt/t/").to_string(), "page:https://forum.pt/t/");
  EXPECT_EQ(pat("bad.example").to_string(), "host:bad.example");
  EXPECT_EQ(pat("http://x.pt/img/").to_string(), "url:http://x.pt/img/");
  BlockPattern p;
  EXPECT_FALSE(BlockList::parse("# comment", p));
  EXPECT_FALSE(BlockList::parse("   ", p));
  EXPECT_FALSE(BlockList::parse("host:", p));
}

TEST(BlockList, MatchesHostsUrlPrefixesAndPagePrefixes) {
  BlockList list;
  list.add(pat("host:blocked.pt"));
  list.add(pat("url:http://img.pt/private/"));
  list.add(pat("page:http://www.forum.pt/adult/"));
  EXPECT_TRUE(list.blocked("http://blocked.pt/a.jpg", "http://other.pt/"));
  EXPECT_TRUE(list.blocked("http://cdn.BLOCKED.pt:8080/a.jpg", ""));  // subdomain, port, case
  EXPECT_TRUE(list.blocked("http://other.pt/a.jpg", "https://blocked.pt/p"));  // page host
  EXPECT_FALSE(list.blocked("http://notblocked.pt/a.jpg", "http://x.pt/"));
  EXPECT_TRUE(list.blocked("http://img.pt/private/1.png", ""));
  EXPECT_TRUE(list.blocked("https://www.img.pt/private/1.png", ""));  // scheme and www. ignored
  EXPECT_FALSE(list.blocked("http://img.pt/public/1.png", ""));
  EXPECT_TRUE(list.blocked("http://x.pt/1.png", "http://forum.pt/adult/thread1"));
  EXPECT_FALSE(list.blocked("http://x.pt/1.png", "http://forum.pt/kids/"));
}

TEST(BlockList, AddRemoveSaveLoadRoundTrip) {
  const auto file = strata::testing::scratch_dir() / "index/blocklist.txt";
  EXPECT_TRUE(BlockList::load(file).patterns().empty());
  BlockList list;
  EXPECT_TRUE(list.add(pat("host:a.pt")));
  EXPECT_FALSE(list.add(pat("host:A.pt")));
  EXPECT_TRUE(list.add(pat("page:http://b.pt/")));
  ASSERT_TRUE(list.save(file));
  BlockList loaded = BlockList::load(file);
  ASSERT_EQ(loaded.patterns().size(), 2u);
  EXPECT_TRUE(loaded.remove(pat("host:a.pt")));
  EXPECT_FALSE(loaded.remove(pat("host:a.pt")));
  ASSERT_TRUE(loaded.save(file));
  EXPECT_EQ(BlockList::load(file).patterns().size(), 1u);
  EXPECT_EQ(url_host("https://user@Host.pt:443/x?y"), "host.pt");
  EXPECT_EQ(url_host("not a url"), "");
}

}  // namespace
}  // namespace strata::analyze
