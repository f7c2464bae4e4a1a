#include "merge/shared_digests.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace strata::merge {
namespace {

const std::string kOne(64, '1'), kTwo(64, '2'), kThree(64, '3');

TEST(SharedDigests, ADigestUnderTwoSurtsIsSharedEvenAcrossWorkers) {
  std::vector<DigestSightings> workers(2, DigestSightings(100));
  workers[0].note(kOne, "(pt,a,)/x.jpg");
  workers[0].note(kOne, "(pt,a,)/x.jpg");  // captured again under the same SURT
  workers[0].note(kTwo, "(pt,a,)/x.jpg");  // a SURT may hold several digests
  workers[1].note(kOne, "(pt,a,)/x.jpg");
  workers[0].note(kThree, "(pt,b,)/y.jpg");
  workers[1].note(kThree, "(pt,c,)/y.jpg");
  SharedDigests shared(workers);
  EXPECT_FALSE(shared.shared(kOne));
  EXPECT_FALSE(shared.shared(kTwo));
  EXPECT_TRUE(shared.shared(kThree));
}

TEST(SharedDigests, EveryDigestSharedByDefaultOrWhenAWorkerGaveUp) {
  EXPECT_TRUE(SharedDigests().shared(kOne));
  std::vector<DigestSightings> workers(2, DigestSightings(4));
  workers[0].note(kOne, "(pt,a,)/x.jpg");
  for (int i = 0; i < 4; ++i) workers[1].note(kTwo, "(pt,b,)/" + std::to_string(i));
  EXPECT_FALSE(workers[0].gave_up());
  EXPECT_TRUE(workers[1].gave_up());
  SharedDigests shared(workers);
  EXPECT_TRUE(shared.shared(kOne));
}

TEST(SharedDigests, RepeatedPairsAreDroppedBeforeGivingUp) {
  std::vector<DigestSightings> workers(1, DigestSightings(4));
  for (int i = 0; i < 100; ++i) workers[0].note(kOne, "(pt,a,)/x.jpg");
  EXPECT_FALSE(workers[0].gave_up());
  EXPECT_FALSE(SharedDigests(workers).shared(kOne));
}

}  // namespace
}  // namespace strata::merge
