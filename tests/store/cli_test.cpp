// The commands on a missing, empty or damaged index print one clear line and exit 1 (before:
// an uncaught Xapian::DatabaseNotFoundError, abort, exit 134).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "testing/shared_data.hpp"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string stderr_text;
};

Outcome run(const std::string& args, const fs::path& dir) {
  const fs::path err = dir / "stderr.txt";
  const std::string command =
      std::string(STRATA_BINARY) + " " + args + " >/dev/null 2>" + err.string();
  const int status = std::system(command.c_str());
  std::ifstream in(err);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
          std::string(std::istreambuf_iterator<char>(in), {})};
}

TEST(CommandLine, MissingEmptyOrDamagedIndexIsOneLineAndExit1) {
  const fs::path dir = strata::testing::scratch_dir();
  fs::create_directories(dir / "empty");
  fs::create_directories(dir / "damaged");
  std::ofstream(dir / "damaged" / "iamglass") << "x";
  for (const char* folder : {"missing", "empty", "damaged"}) {
    const std::string index = (dir / folder).string();
    for (const std::string& command :
         {"serve --port 0 --index " + index, "collection list --index " + index,
          "collection remove --index " + index + " c"}) {
      const Outcome outcome = run(command, dir);
      EXPECT_EQ(outcome.exit_code, 1) << command << ": " << outcome.stderr_text;
      EXPECT_EQ(std::count(outcome.stderr_text.begin(), outcome.stderr_text.end(), '\n'), 1)
          << command << ": " << outcome.stderr_text;
    }
  }
}

}  // namespace
