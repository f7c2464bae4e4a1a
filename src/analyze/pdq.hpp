#pragma once
// PDQ, Meta's 256-bit perceptual hash (facebook/ThreatExchange pdq/cpp, "hashing.pdf"): float
// luma (ITU-R 601 weights), two passes of Jarosz tent filtering (box filters along rows, then
// columns, window ceil(side / 128)), decimation to 64x64, the 16x16 low-frequency block of
// the 64x64 DCT-II without its DC row and column, each bit = coefficient > median (Torben's
// lower median). The hex form is the reference's: 64 hex digits, bit 255 first.
// Failure contract: pure functions, never throw; a picture smaller than 5 px on a side
// hashes to all zeros with quality 0.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata::analyze {

// Limb 0 holds bits 255..192 (the first 16 hex digits), limb 3 bits 63..0.
using PdqHash = std::array<uint64_t, 4>;

struct PdqResult {
  PdqHash hash{};
  // 0-100 from the 64x64 picture's gradients; the reference deems hashes under 50 too
  // featureless to match on (kPdqMinQuality).
  int quality = 0;
};

// `rgb` holds width*height interleaved 8-bit R, G, B triples, row-major.
PdqResult pdq_rgb(const uint8_t* rgb, int width, int height);

int hamming_distance(const PdqHash& a, const PdqHash& b);
std::string pdq_hex(const PdqHash& hash);  // 64 lower-case hex digits
std::optional<PdqHash> pdq_from_hex(std::string_view hex);

// The reference's match threshold ("<= 31 of 256") and quality floor.
inline constexpr int kPdqNearDuplicate = 31;
inline constexpr int kPdqMinQuality = 50;

}  // namespace strata::analyze
