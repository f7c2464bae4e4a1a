#include "merge/order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fixtures.hpp"

namespace strata::merge {
namespace {

using testing::ref;

// Timestamps with ties, of other sizes than 14, longer than 16 bytes, or holding a zero byte:
// every case where the integer keys alone cannot decide.
std::vector<PageReference> awkward_references() {
  const std::string times[] = {"20100101000000",
                               "20100101000001",
                               "2010",
                               "",
                               "20100101000000000099",
                               "20100101000000000011",
                               std::string("2010\0", 5),
                               "20100101000000\0\0",
                               "20090101000000"};
  const std::string pages[] = {"http://a.pt/", "http://bb.pt/", "http://a.pt/x", "http://c.pt/"};
  std::vector<PageReference> out;
  int n = 0;
  for (const auto& time : times)
    for (const auto& page : pages)
      for (int alt = 0; alt < 2; ++alt, ++n) {
        auto r =
            ref("(pt,a,)/i.jpg", "http://a.pt/i.jpg", page, time, "alt " + std::to_string(alt));
        r.collection = n % 3 ? "C1" : "C2";
        out.push_back(r);
      }
  std::reverse(out.begin(), out.end());
  std::rotate(out.begin(), out.begin() + 7, out.end());
  return out;
}

TEST(Order, SortReferencesGivesReferenceBeforeOrder) {
  auto refs = awkward_references();
  auto expected = refs;
  std::sort(expected.begin(), expected.end(), reference_before);
  sort_references(refs);
  ASSERT_EQ(refs.size(), expected.size());
  for (size_t i = 0; i < refs.size(); ++i) {
    EXPECT_EQ(refs[i].pageTimestamp, expected[i].pageTimestamp) << i;
    EXPECT_EQ(refs[i].pageUrl, expected[i].pageUrl) << i;
    EXPECT_EQ(refs[i].imgAlt, expected[i].imgAlt) << i;
    EXPECT_EQ(refs[i].collection, expected[i].collection) << i;
  }
}

TEST(Order, SortReferencesOnEncodedReferences) {
  auto refs = awkward_references();
  std::vector<EncodedReference> encoded;
  for (const auto& r : refs) encoded.emplace_back(Record(r));
  std::sort(refs.begin(), refs.end(), reference_before);
  sort_references(encoded);
  for (size_t i = 0; i < refs.size(); ++i) {
    EXPECT_EQ(encoded[i].pageTimestamp, refs[i].pageTimestamp) << i;
    EXPECT_EQ(encoded[i].pageUrl, refs[i].pageUrl) << i;
    EXPECT_EQ(encoded[i].imgAlt, refs[i].imgAlt) << i;
  }
}

// Sorted exactly when std::is_sorted says so under reference_before, for every pair of
// neighbours of the awkward cases.
TEST(Order, ReferencesSortedAgreesWithReferenceBefore) {
  auto refs = awkward_references();
  std::sort(refs.begin(), refs.end(), reference_before);
  EXPECT_TRUE(references_sorted(refs));
  for (size_t i = 1; i < refs.size(); ++i) {
    std::vector<PageReference> pair = {refs[i], refs[i - 1]};
    EXPECT_EQ(references_sorted(pair), !reference_before(refs[i - 1], refs[i])) << i;
  }
  std::vector<EncodedReference> encoded;
  for (const auto& r : refs) encoded.emplace_back(Record(r));
  EXPECT_TRUE(references_sorted(encoded));
  std::swap(encoded.front(), encoded.back());
  EXPECT_FALSE(references_sorted(encoded));
}

}  // namespace
}  // namespace strata::merge
