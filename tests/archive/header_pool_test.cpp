// Header lines reuse the strings of the previous record's lines: each record must still get
// exactly its own lines, whatever their number.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "archive/header_pool.hpp"

namespace strata::archive {
namespace {

std::vector<Header> fill(HeaderPool& pool, std::vector<Header>& headers, int n, char tag) {
  pool.recycle(headers);
  std::vector<Header> expected;
  for (int i = 0; i < n; ++i) {
    Header line{std::string(20 + i, tag), "value " + std::string(30, tag) + std::to_string(i)};
    pool.add(headers, line.first, line.second);
    expected.push_back(line);
  }
  return expected;
}

TEST(HeaderPool, EachRecordGetsExactlyItsLines) {
  HeaderPool pool;
  std::vector<Header> headers;
  int counts[] = {3, 5, 2, 0, 4, 4, 7, 1};
  char tag = 'a';
  for (int n : counts) {
    std::vector<Header> expected = fill(pool, headers, n, tag++);
    EXPECT_EQ(headers, expected) << n;
  }
}

TEST(HeaderPool, WithoutAPoolLinesAreAppended) {
  std::vector<Header> headers;
  add_header(headers, nullptr, "a", "b");
  EXPECT_EQ(headers, (std::vector<Header>{{"a", "b"}}));
}

}  // namespace
}  // namespace strata::archive
