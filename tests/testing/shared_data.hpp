#pragma once
// Locates the real-world data in ../shared (or $STRATA_SHARED) and makes scratch folders.
// Tests that need ../shared call STRATA_REQUIRE_SHARED() and are skipped, with a message,
// on a checkout without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

namespace strata::testing {

// The shared/ folder, or nullopt when absent.
std::optional<std::filesystem::path> shared_dir();

// shared/data/<relative>; only meaningful after STRATA_REQUIRE_SHARED().
std::filesystem::path shared_data(const std::string& relative);

// shared/peer-tests/<relative>.
std::filesystem::path peer_tests(const std::string& relative);

// A fresh, empty folder in the temp folder, unique per test; removed when the test process
// ends, unless STRATA_KEEP_SCRATCH is set.
std::filesystem::path scratch_dir();

}  // namespace strata::testing

#define STRATA_REQUIRE_SHARED()                                                        \
  do {                                                                                 \
    if (!::strata::testing::shared_dir())                                              \
      GTEST_SKIP() << "../shared (real archives and conformance data) not found; set " \
                      "STRATA_SHARED to run this test";                                \
  } while (0)
