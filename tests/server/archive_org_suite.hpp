#pragma once
// A test suite whose tests share one server over the index of the 2008 archive.org crawl
// (real_index.hpp), built once per suite; without ../shared every test skips.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "real_index.hpp"
#include "running_server.hpp"
#include "testing/shared_data.hpp"

namespace strata::server::testing {

class ArchiveOrg2008Suite : public ::testing::Test {
 protected:
  using Configure = std::function<void(ServerOptions&, const fs::path& work)>;
  // Call from the suite's SetUpTestSuite; `configure` adjusts the options before the start.
  static void start_server(const Configure& configure = {}) {
    if (!strata::testing::shared_dir()) return;
    const fs::path work = strata::testing::scratch_dir();
    ServerOptions o;
    o.index_dir = archive_org_2008_index(work);
    index_ = new fs::path(o.index_dir);
    if (configure) configure(o, work);
    server_ = new RunningServer(o);
  }
  static void TearDownTestSuite() {
    delete server_;
    delete index_;
    server_ = nullptr;
    index_ = nullptr;
  }
  void SetUp() override { STRATA_REQUIRE_SHARED(); }

  static inline RunningServer* server_ = nullptr;
  static inline fs::path* index_ = nullptr;
};

}  // namespace strata::server::testing
