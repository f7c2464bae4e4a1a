// webrecorder/warcio's conformance files (peer-tests/webrecorder__warcio, expectations in
// its SOURCE.md) and the 52 broken Internet Archive files of CDX-Writer's small_warcs.
#include <gtest/gtest.h>

#include "read_helpers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

using test::read_all;

std::filesystem::path warcio(const std::string& name) {
  return testing::peer_tests("webrecorder__warcio/test/data/" + name);
}

bool has_problem(const test::Summary& s, const std::string& kind) {
  for (const auto& p : s.problems)
    if (p.kind == kind) return true;
  return false;
}

TEST(Warcio, ExampleWarcPlainAndGzip) {
  STRATA_REQUIRE_SHARED();
  for (const char* name : {"example.warc", "example.warc.gz"}) {
    auto s = read_all(warcio(name));
    EXPECT_EQ(s.types(), "warcinfo,warcinfo,response,request,revisit,request") << name;
    EXPECT_TRUE(s.problems.empty()) << name;
  }
}

TEST(Warcio, ChunkedBodyIsDechunked) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(warcio("example-iana.org-chunked.warc"));
  ASSERT_EQ(s.types(), "warcinfo,response,request");
  EXPECT_TRUE(s.payloads[1].starts_with("<!doctype html>")) << s.payloads[1].substr(0, 40);
  EXPECT_TRUE(s.payloads[1].ends_with("</html>\n"))
      << s.payloads[1].substr(s.payloads[1].size() - 20);
}

TEST(Warcio, ResourceAndTargetUris) {
  STRATA_REQUIRE_SHARED();
  EXPECT_EQ(read_all(warcio("example-resource.warc.gz")).types(), "warcinfo,warcinfo,resource");
  auto wget = read_all(warcio("example-wget-bad-target-uri.warc.gz"));
  bool found = false;
  for (const auto& r : wget.records) found |= r.target_uri == "http://example.com/";
  EXPECT_TRUE(found);
  auto space = read_all(warcio("example-space-in-target-uri.warc.gz"));
  ASSERT_EQ(space.types(), "warcinfo,resource");
  EXPECT_EQ(space.records[1].target_uri, "file:///example%20with%20spaces.png");
}

TEST(Warcio, TruncatedContentLengthRecovers) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(warcio("example-trunc.warc"));
  EXPECT_EQ(s.types(), "warcinfo,warcinfo,response,request");
  EXPECT_EQ(s.problems.size(), 1u);
}

TEST(Warcio, WholeFileGzipIsReadWithoutProblemsAndEveryRecordLocated) {
  STRATA_REQUIRE_SHARED();
  const auto path = warcio("example-bad-non-chunked.warc.gz");
  auto s = read_all(path);
  EXPECT_EQ(s.types(), "warcinfo,warcinfo,response,request,revisit,request");
  EXPECT_TRUE(s.problems.empty());
  for (const auto& r : s.records) {
    auto again = read_record_at(path.string(), r.location(), {}, {});
    ASSERT_TRUE(again) << r.location();
    EXPECT_EQ(again->record().record_id, r.record_id);
    EXPECT_EQ(again->record().location(), r.location());
  }
}

// warcio refuses this file because it is gzipped as a whole; it is a valid WARC for Strata.
TEST(Warcio, WarciosBadFileIsWholeFileGzipReadFully) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(warcio("example-bad.warc.gz.bad"));
  EXPECT_EQ(s.types(), "warcinfo,response,request,revisit,request,response");
  EXPECT_TRUE(s.problems.empty());
}

TEST(Warcio, ArcFiles) {
  STRATA_REQUIRE_SHARED();
  for (const char* name : {"example.arc", "example.arc.gz", "example-space-in-url.arc"}) {
    auto s = read_all(warcio(name));
    EXPECT_EQ(s.types(), "warcinfo,response") << name;
  }
  EXPECT_TRUE(read_all(warcio("example.arc.gz")).problems.empty());
  auto bad = read_all(warcio("bad.arc"));
  EXPECT_EQ(bad.types(), "warcinfo,response,response,response");
  EXPECT_TRUE(has_problem(bad, "bad_content_length"));
}

TEST(Warcio, MisalignedGzipMembersRecoverBothRecords) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(warcio("example-wrong-chunks.warc.gz"));
  ASSERT_EQ(s.types(), "response,request");
  EXPECT_EQ(s.records[0].offset, 0u);
  EXPECT_EQ(s.records[0].target_uri, "http://example.com/");
  EXPECT_EQ(s.records[1].target_uri, "http://example.com/");
}

TEST(Warcio, DigestAndPostSamplesRead) {
  STRATA_REQUIRE_SHARED();
  EXPECT_GE(read_all(warcio("example-digest.warc")).records.size(), 2u);
  EXPECT_GE(read_all(warcio("post-test.warc.gz")).by_type["request"], 1);
}

}  // namespace
}  // namespace strata::archive
