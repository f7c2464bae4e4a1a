#pragma once
// Decoded bytes of a whole-file compressed input from one checkpoint on (the checkpoint
// tests' oracle reads): up to `n` bytes through archive::decoded_input over `packed`.
#include <gtest/gtest.h>

#include <string>

#include "archive/checkpoints.hpp"

namespace strata::archive {

inline std::string decode_from(const std::string& packed, const CheckpointIndex& index,
                               const Checkpoint& point, size_t n) {
  std::string error;
  auto input = decoded_input(memory_input(packed), index, point, error);
  std::string out(n, '\0');
  size_t got = 0;
  while (input && got < n) {
    size_t step = input->read(out.data() + got, n - got);
    if (step == 0) break;
    got += step;
  }
  out.resize(got);
  return out;
}

}  // namespace strata::archive
