#pragma once
// Near-duplicate image groups (docs/near-duplicates.md). A pure function of the SET of input
// images: the result does not depend on their order. Images are visited by (largest area,
// oldest first capture, digest); each joins the first group leader whose pHash is within the
// radius, else becomes a leader itself. No chains: every member is within the radius of its
// leader, so a group's diameter is at most twice the radius. Where both images have a PDQ hash,
// it must agree too (within kPdqMemberRadius): pHash alone joins a few pictures of one shape
// and different content (docs/near-duplicates.md, "PDQ beside pHash").
//
// Failure contract: never throws for any input (beyond std::bad_alloc); images whose hash is
// degenerate (flat, nearly flat) or that are too small to hash reliably are gated: they stay
// alone and are counted, so blank pictures never form one giant group. Memory is linear in the
// number of images: besides the caller's input and the result, 12 bytes per group leader and
// search table (5 tables at the default radius) and 4 bytes per image.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace strata::similar {

struct Image {
  std::string digest;         // the image's content digest (tie-breaker of the visiting order)
  uint64_t phash = 0;         // 64-bit pHash (analyze/phash.hpp)
  int width = 0, height = 0;  // decoded size; 0 = unknown (then not gated by size)
  int64_t first_capture = 0;  // seconds since the epoch of its oldest capture; 0 = unknown
  // 256-bit PDQ (analyze/pdq.hpp), when computed.
  std::optional<std::array<uint64_t, 4>> pdq = std::nullopt;
};

// Largest pHash distance at which two images are near-duplicates; chosen from the measured
// distributions in docs/near-duplicates.md.
inline constexpr int kNearDuplicateRadius = 8;

// Largest PDQ distance between a group's leader and a member, where both have one: the
// sample's near-duplicates (resizes, re-encodings) lie within 63, the pictures pHash alone
// joins wrongly from 64 (docs/near-duplicates.md).
inline constexpr int kPdqMemberRadius = 64;

// True unless both images have a PDQ hash and those lie further apart than kPdqMemberRadius.
bool pdq_agrees(const Image& a, const Image& b);

enum class Gate {
  ok,
  degenerate_hash,  // too few or too many bits set: a flat or nearly flat picture
  too_small,        // narrower or lower than kMinSide pixels
};
inline constexpr int kMinSide = 32;
inline constexpr int kMinBitsSet = 12;  // and at most 64 - kMinBitsSet

// `width` and `height` 0: unknown (then not gated by size).
Gate gate(uint64_t phash, int width = 0, int height = 0);
inline Gate gate(const Image& image) {
  return gate(image.phash, image.width, image.height);
}

// The visiting order: largest area first, then oldest capture (unknown last), then digest.
bool visits_before(const Image& a, const Image& b);

struct Grouping {
  // Per input image, the input index of its group's leader (itself for leaders and gated images).
  std::vector<uint32_t> leader;
  std::vector<uint32_t> size;            // per input image, the size of its group (1 = alone)
  size_t groups = 0;                     // groups of two or more images
  size_t grouped = 0;                    // images in such groups
  size_t degenerate = 0, too_small = 0;  // gated images
};

// At most 2^32 - 1 images; `radius` is clamped to [0, 63]. The search runs on `threads`
// threads; the result does not depend on their number.
Grouping group_near_duplicates(std::span<const Image> images, int radius = kNearDuplicateRadius,
                               unsigned threads = 1);

}  // namespace strata::similar
