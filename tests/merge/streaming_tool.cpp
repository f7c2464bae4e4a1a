// merge_streaming_tool map|reduce|map2|reduce2 [compact|legacy|full]: the streaming stages
// of `strata merge --streaming` without the rest of the strata binary (used by the tests).
#include <iostream>
#include <string>

#include "merge/streaming.hpp"

int main(int argc, char** argv) {
  using namespace strata::merge;
  Stage stage;
  Mode mode = Mode::compact;
  if (argc < 2 || !parse_stage(argv[1], stage) || (argc > 2 && !parse_mode(argv[2], mode))) {
    std::cerr << "usage: merge_streaming_tool map|reduce|map2|reduce2 [compact|legacy|full]\n";
    return 2;
  }
  std::ios::sync_with_stdio(false);
  write_hadoop_counters(run_streaming(stage, mode, std::cin, std::cout), std::cerr);
  return 0;
}
