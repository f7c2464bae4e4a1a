#pragma once
// Checks shared by the cover tests.
#include <gtest/gtest.h>

#include <vector>

#include "cover/cover.hpp"

namespace strata::cover::testing {

// A valid cover: every item is kept (its own keeper) or covered by its keeper, which is kept.
inline void expect_valid(const Expr& e, const std::vector<Item>& items, const CoverResult& r) {
  for (size_t a = 0; a < items.size(); ++a) {
    const uint32_t k = r.keeper[a];
    ASSERT_EQ(r.keeper[k], k);
    if (k != a) {
      ASSERT_TRUE(covers(e, items[a], items[k])) << a << " by " << k;
    }
  }
}

}  // namespace strata::cover::testing
