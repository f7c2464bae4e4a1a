#pragma once
// The tiny sample (seed 7) shared by the tests of this folder: generated once per run.
#include <filesystem>

#include "sample/sample.hpp"
#include "testing/shared_data.hpp"

namespace strata::sample {

struct Tiny {
  std::filesystem::path dir;
  Summary summary;
};

inline const Tiny& tiny() {
  static const Tiny t = [] {
    Tiny x;
    x.dir = testing::scratch_dir();
    Options o;
    apply_scale("tiny", o);
    o.seed = 7;
    x.summary = generate(o, x.dir.string(), 2);
    return x;
  }();
  return t;
}

}  // namespace strata::sample
