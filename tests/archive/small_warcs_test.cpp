// CDX-Writer's 52 real-world broken files: every one reads without crash or hang, and what
// is recovered from each is pinned here (records by type, problems reported).
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "read_helpers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

struct Expected {
  const char* file;
  const char* types;  // "type count, ..." sorted by type name
  size_t problems;
};

// Reviewed against INVENTORY.md; differences are deliberate recoveries (ARC records the
// inventory script could not parse: bad_url_with_colon_*, empty_payload_header_ending_with_lf,
// negative_content_length).
const Expected kSmallWarcs[] = {
    {"10_digit_date.arc.gz", "response 1, warcinfo 1", 0},
    {"14_digit_plus_text_date.arc.gz", "response 1, warcinfo 1", 1},
    {"15_digit_date.arc.gz", "response 1, warcinfo 1", 0},
    {"16_digit_date.arc.gz", "response 1, warcinfo 1", 0},
    {"18_digit_date.arc.gz", "response 1, warcinfo 1", 0},
    {"304-response.warc.gz", "response 1", 0},
    {"304-revisit.warc.gz", "revisit 1", 0},
    {"alexa_charset_in_header.arc.gz", "response 1, warcinfo 1", 1},
    {"alexa_short_header.arc.gz", "response 1, warcinfo 1", 0},
    {"arc_v1_with_v2_header.arc.gz", "response 1, warcinfo 1", 0},
    {"bad_mime_type.arc.gz", "response 1, warcinfo 1", 0},
    {"bad_unicode_host.arc.gz", "response 1, warcinfo 1", 0},
    {"bad_url_with_colon_1.arc.gz", "response 1", 0},
    {"bad_url_with_colon_2.arc.gz", "response 1", 0},
    {"bracket_in_target_uri.warc.gz", "response 1", 0},
    {"bracket_in_target_uri_redirect.arc.gz", "response 1, warcinfo 1", 0},
    {"carriage_return_in_url.arc.gz", "response 1, warcinfo 1", 0},
    {"chardet_failure_url.arc.gz", "response 1, warcinfo 1", 0},
    {"crlf_at_1k_boundary.warc.gz", "response 1", 0},
    {"crlf_at_1k_boundary_2.warc.gz", "response 1", 0},
    {"date_resolution_microsecond.warc.gz", "request 1", 1},
    {"date_resolution_nanosecond.warc.gz", "request 1", 1},
    {"empty-gzips.warc.gz", "request 3, response 1, revisit 2, warcinfo 3", 0},
    {"empty_payload_header_ending_with_lf.arc.gz", "response 1", 0},
    {"empty_record.arc.gz", "response 1, warcinfo 1", 0},
    {"formfeed_in_url.arc.gz", "response 1, warcinfo 1", 0},
    {"ftp-resource-block-digest.warc.gz", "resource 1", 0},
    {"ftp-resource-no-digest.warc.gz", "resource 1", 0},
    {"ftp-resource-payload-digest.warc.gz", "resource 1", 0},
    {"giant_html.warc.gz", "response 1", 0},
    {"hex_instead_of_date.arc.gz", "response 1, warcinfo 1", 1},
    {"ignored_headers.warc.gz", "response 1, warcinfo 1", 0},
    {"invalid_location.warc.gz", "response 1, warcinfo 1", 1},
    {"meta_tag_FI.arc.gz", "response 1, warcinfo 1", 0},
    {"meta_tag_I.arc.gz", "response 1, warcinfo 1", 0},
    {"meta_tag_large.warc.gz", "response 1", 0},
    {"missing_chunk_end.warc.gz", "response 1", 1},
    {"missing_content_type.warc.gz", "response 1", 0},
    {"negative_content_length.arc.gz", "response 3, warcinfo 1", 1},
    {"no_sha1_whitespace_in_contenttype.warc.gz", "response 1", 0},
    {"non_ascii_url.arc.gz", "response 1, warcinfo 1", 0},
    {"password-protected-no-meta.warc.gz", "response 1", 0},
    {"password-protected.warc.gz", "response 1", 0},
    {"revisit_without_sha1.warc.gz", "revisit 1", 0},
    {"self_redirect.warc.gz", "response 1, warcinfo 1", 2},
    {"space_in_target_uri.warc.gz", "response 1", 0},
    {"spaces_in_url.arc.gz", "response 1, warcinfo 1", 0},
    {"transposed_header.arc.gz", "response 1, warcinfo 1", 1},
    {"tweet.warc.gz", "resource 1", 0},
    {"uncompressed.arc", "response 3, warcinfo 1", 0},
    {"uncompressed.warc", "request 1, warcinfo 1", 0},
    {"wget_ia.warc.gz", "response 1, warcinfo 1", 0},
};

std::string type_counts(const test::Summary& s) {
  std::ostringstream out;
  for (const auto& [type, n] : s.by_type) out << (out.tellp() ? ", " : "") << type << ' ' << n;
  return out.str();
}

TEST(SmallWarcs, EachFileRecoversTheExpectedRecords) {
  STRATA_REQUIRE_SHARED();
  auto dir = testing::shared_data("archives/internetarchive__CDX-Writer/tests/small_warcs");
  size_t files = 0;
  for (const auto& e : kSmallWarcs) {
    auto s = test::read_all(dir / e.file);
    EXPECT_EQ(type_counts(s), e.types) << e.file;
    EXPECT_EQ(s.problems.size(), e.problems) << e.file;
    for (const auto& p : s.problems) {
      EXPECT_FALSE(p.kind.empty());
      EXPECT_NE(p.file.find(e.file), std::string::npos);
    }
    ++files;
  }
  EXPECT_EQ(files, 52u);
}

}  // namespace
}  // namespace strata::archive
