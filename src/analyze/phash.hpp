#pragma once
// 64-bit DCT perceptual hash (pHash) as defined by netarchivesuite/image-hashes and the phim
// reference it ports: Pillow-compatible Lanczos resize of R, G, B to 32x32 (each 1-D pass
// rounded and clipped to 8 bits), ITU-R 601-2 luma (rounded), orthonormal 2-D DCT-II, the 8x8
// block at [1,1], threshold by its median, bits packed row-major, MSB first.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata::analyze {

// `rgb` holds width*height interleaved 8-bit R, G, B triples, row-major.
uint64_t phash_rgb(const uint8_t* rgb, int width, int height);

int hamming_distance(uint64_t a, uint64_t b);
std::string phash_hex(uint64_t hash);  // 16 lower-case hex digits
std::optional<uint64_t> phash_from_hex(std::string_view hex);

// Distance up to which two pHashes are near-duplicates (image-hashes: "<= 10 of 64").
inline constexpr int kPhashNearDuplicate = 10;

}  // namespace strata::analyze
