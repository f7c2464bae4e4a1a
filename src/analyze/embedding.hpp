#pragma once
// The image embedding for visual similarity (docs/similarity.md): the NSFW network's last
// global average pooling (MobileNetV2: 1280 values), taken from the classification's own
// forward pass, compressed to a 128-byte code: signed square root (power normalisation),
// a fixed pseudo-random ±1 projection to 128 dimensions (seeded: the same code on every
// machine, in any order), L2 normalisation, int8 (scaled so the largest value is ±127).
// Codes compare by cosine (similar/embedding_index.hpp). Codes of different model variants
// (other pooled sizes) are not comparable.
//
// Failure contract: never throws (beyond std::bad_alloc); bad text gives nullopt.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "similar/embedding_index.hpp"

namespace strata::analyze {

// The code of one image's pooled values (an empty or all-zero input gives all zeros).
similar::EmbeddingCode embedding_code(std::span<const float> pooled);

// 256 lower-case hex digits (analysis records), and back; nullopt for anything else.
std::string embedding_hex(const similar::EmbeddingCode& code);
std::optional<similar::EmbeddingCode> embedding_from_hex(std::string_view hex);

// The raw 128 bytes (the index's value slot), and back; nullopt for another length.
std::string embedding_bytes(const similar::EmbeddingCode& code);
std::optional<similar::EmbeddingCode> embedding_from_bytes(std::string_view bytes);

}  // namespace strata::analyze
