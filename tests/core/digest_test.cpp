#include "core/digest.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace strata {
namespace {

// Known answers (FIPS 180 / RFC 1321 "abc"), as hex.
struct Known {
  DigestAlgorithm algorithm;
  const char* abc;
};
const Known kKnown[] = {
    {DigestAlgorithm::kSha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {DigestAlgorithm::kSha1, "a9993e364706816aba3e25717850c26c9cd0d89d"},
    {DigestAlgorithm::kMd5, "900150983cd24fb0d6963f7d28e17f72"},
};

TEST(Digest, ReusedHasherGivesTheSameDigestEveryTime) {
  for (const Known& k : kKnown) {
    Hasher hasher(k.algorithm);
    for (int i = 0; i < 3; ++i) {
      hasher.update("a");
      hasher.update("bc");
      EXPECT_EQ(hasher.finish_hex(), k.abc);
    }
  }
}

TEST(Digest, HashersOnSeveralThreadsShareTheDigestImplementation) {
  std::vector<std::string> results(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t)
    threads.emplace_back([&results, t] {
      Hasher hasher(DigestAlgorithm::kSha256);
      for (int i = 0; i < 1000; ++i) {
        hasher.update("abc");
        results[t] = hasher.finish_hex();
      }
    });
  for (auto& th : threads) th.join();
  for (const std::string& r : results) EXPECT_EQ(r, kKnown[0].abc);
}

TEST(Digest, MovedHasherKeepsItsState) {
  Hasher a(DigestAlgorithm::kSha1);
  a.update("ab");
  Hasher b = std::move(a);
  b.update("c");
  EXPECT_EQ(b.finish_hex(), kKnown[1].abc);
  EXPECT_EQ(sha1_warc_digest("abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

}  // namespace
}  // namespace strata
