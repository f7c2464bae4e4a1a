#pragma once
// Random access into whole-file compressed archives (one gzip member or zstd frame holding
// many records), where a record's location is its offset in the decoded stream.
//
// gzip: one pass decodes the file and keeps a checkpoint every `spacing` decoded bytes at a
// deflate block boundary: the compressed bit position and the 32 KiB of output before it
// (the approach of zlib's examples/zran.c and indexed_gzip). Reading resumes there with
// inflatePrime/inflateSetDictionary. Member starts need no window.
// zstd: a checkpoint at frame starts only (the decoder's state inside a frame cannot be
// saved with the public API): a file of several frames resumes at the frame holding the
// offset, a single-frame file decodes from its start (cost proportional to the offset).
//
// Indexes are built on demand and kept in memory (a bounded cache keyed by the file's
// location, size and modification time): no file format to trust, nothing to go stale.
// Failures are returned as an error text; nothing throws.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "archive/input.hpp"
#include "archive/stream.hpp"

namespace strata::archive {

struct Checkpoint {
  uint64_t decoded = 0;     // offset in the decoded stream
  uint64_t compressed = 0;  // file offset of the member/frame start, or of the next whole byte
  int bits = 0;             // gzip inside a member: bits of the byte before `compressed` to use
  std::string window;       // gzip inside a member: the output before `decoded` (<= 32 KiB)
};

struct CheckpointIndex {
  Codec codec = Codec::plain;
  std::vector<Checkpoint> points;  // ascending by decoded offset; points[0].decoded == 0
  std::string zstd_dictionary;     // content of the 0x184D2A5D frame, if any
  // Decoded bytes up to the end or the first damage (zstd: the end of the last whole frame);
  // decoded inputs end here.
  uint64_t decoded_size = 0;
  size_t memory() const;           // bytes held (for the cache bound)
  // The last checkpoint at or before `decoded`.
  const Checkpoint& before(uint64_t decoded) const;
};

// The codec the magic bytes at the input's position announce (reads up to 4 bytes).
Codec sniff_codec(Input& input);

inline constexpr uint64_t kCheckpointSpacing = 1 << 20;

// Decodes `input` (positioned at its start) once. False, with `error`, when it is neither
// gzip nor zstd; damage ends the index there (decoded_size says how far it reaches).
bool build_checkpoints(Input& input, CheckpointIndex& index, std::string& error,
                       uint64_t spacing = kCheckpointSpacing);

// The decoded bytes of `file` (the raw, seekable input the index was built from) from
// `point` on; seek() moves forward only (by decoding). nullptr with `error` on failure.
std::unique_ptr<Input> decoded_input(std::unique_ptr<Input> file, const CheckpointIndex& index,
                                     const Checkpoint& point, std::string& error);

// The index of the input `open` returns, from the process-wide cache under `cache_key`
// (location + size + mtime), built when absent; nullptr with `error` on failure.
std::shared_ptr<const CheckpointIndex> cached_checkpoints(
    const std::string& cache_key, const std::function<std::unique_ptr<Input>()>& open,
    std::string& error);

}  // namespace strata::archive
