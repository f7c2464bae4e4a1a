#include "testing/shared_data.hpp"

#include <unistd.h>

#include <cstdlib>

namespace fs = std::filesystem;

namespace strata::testing {

std::optional<fs::path> shared_dir() {
  if (const char* env = std::getenv("STRATA_SHARED"); env && fs::is_directory(env))
    return fs::path(env);
  fs::path source = STRATA_SOURCE_DIR_FALLBACK;
  if (const char* env = std::getenv("STRATA_SOURCE_DIR")) source = env;
  fs::path candidate = source / ".." / "shared";
  if (fs::is_directory(candidate / "data")) return fs::canonical(candidate);
  return std::nullopt;
}

fs::path shared_data(const std::string& relative) {
  return shared_dir().value_or("/nonexistent") / "data" / relative;
}

fs::path peer_tests(const std::string& relative) {
  return shared_dir().value_or("/nonexistent") / "peer-tests" / relative;
}

namespace {

// The process's scratch root, removed when the test process ends (a test binary runs one
// test per process under ctest, so nothing is shared); STRATA_KEEP_SCRATCH=1 keeps it.
fs::path scratch_root() {
  static const fs::path root = [] {
    fs::path dir = fs::temp_directory_path() / ("strata-test-" + std::to_string(::getpid()));
    std::atexit([] {
      if (std::getenv("STRATA_KEEP_SCRATCH")) return;
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() / ("strata-test-" + std::to_string(::getpid())), ec);
    });
    return dir;
  }();
  return root;
}

}  // namespace

fs::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "scratch";
  for (char& c : name)
    if (c == '/') c = '_';
  fs::path base = scratch_root() / name;
  fs::remove_all(base);
  fs::create_directories(base);
  return base;
}

}  // namespace strata::testing
