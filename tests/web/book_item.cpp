// strata_web_book_item PARENT: writes the generated Internet Archive book item of
// books/synthetic.hpp as PARENT/strataTestBook, for the browser test of book images (web/tests).
#include <cstdio>
#include <exception>

#include "books/synthetic.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PARENT\n", argv[0]);
    return 2;
  }
  try {
    strata::books::write_synthetic_item(argv[1], {});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
