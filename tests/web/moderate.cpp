// strata_web_moderate --index DIR ID SAFE [ID SAFE...]: sets the stored NSFW score of
// documents, so the browser tests have images that safe search hides (until `strata analyze`
// writes scores into the index, there is no other way to make one).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "index/writer.hpp"

int main(int argc, char** argv) {
  if (argc < 5 || std::string(argv[1]) != "--index" || (argc - 3) % 2 != 0) {
    std::fprintf(stderr, "usage: %s --index DIR ID SAFE [ID SAFE...]\n", argv[0]);
    return 2;
  }
  strata::index::IndexWriter w(argv[2]);
  int missing = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    strata::index::Moderation m;
    m.safe = std::atof(argv[i + 1]);
    if (!w.set_moderation(argv[i], m)) {
      std::fprintf(stderr, "no document %s\n", argv[i]);
      ++missing;
    }
  }
  return missing ? 1 : 0;
}
