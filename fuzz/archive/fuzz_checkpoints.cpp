// libFuzzer target: the checkpoint index of a whole-file gzip/zstd input (archive/checkpoints)
// must never crash, hang or over-allocate, and decoding resumed at any checkpoint must give
// exactly the bytes a decode from the start gives there.
#include <cstddef>
#include <cstdint>
#include <string>

#include "archive/checkpoints.hpp"

namespace {

using namespace strata::archive;

constexpr size_t kMaxDecoded = 8 << 20;  // compare within the first 8 MiB
constexpr size_t kCompared = 4096;

std::string decode(std::string_view data, const CheckpointIndex& index, const Checkpoint& point,
                   size_t n) {
  std::string error;
  auto input = decoded_input(memory_input(data), index, point, error);
  std::string out;
  if (!input) return out;
  out.resize(n);
  size_t got = 0;
  while (got < n) {
    size_t step = input->read(out.data() + got, n - got);
    if (step == 0) break;
    got += step;
  }
  out.resize(got);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  CheckpointIndex index;
  std::string error;
  auto input = memory_input(bytes);
  if (!build_checkpoints(*input, index, error, 1024)) return 0;
  const size_t whole_size =
      static_cast<size_t>(std::min<uint64_t>(index.decoded_size, kMaxDecoded));
  const std::string whole = decode(bytes, index, index.points.front(), whole_size);
  if (whole.size() != whole_size) __builtin_trap();
  for (const Checkpoint& p : index.points) {
    if (p.decoded >= whole.size()) break;
    if (decode(bytes, index, p, kCompared) != whole.substr(p.decoded, kCompared)) __builtin_trap();
  }
  return 0;
}
