// strata_web_hostile_warc OUT.warc.gz: writes the hostile captures of
// tests/testing/hostile_archive.hpp, for the browser isolation tests (web/tests).
#include <cstdio>
#include <exception>

#include "testing/hostile_archive.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.warc.gz\n", argv[0]);
    return 2;
  }
  try {
    strata::testing::write_hostile_archive(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
