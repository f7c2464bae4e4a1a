#include "analyze/embedding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace strata::analyze {
namespace {

using similar::kEmbeddingDims;

// splitmix64: a fixed, portable sequence (the projection must never change: stored codes
// and new ones are compared).
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The ±1 projection for `inputs` values, row-major kEmbeddingDims x inputs, made once per size.
const std::vector<int8_t>& projection(size_t inputs) {
  static std::mutex guard;
  static std::map<size_t, std::vector<int8_t>> made;
  std::lock_guard lock(guard);
  auto [it, fresh] = made.try_emplace(inputs);
  if (fresh) {
    uint64_t state = 0x5354524154410001ull ^ inputs;
    it->second.resize(kEmbeddingDims * inputs);
    for (size_t i = 0; i < it->second.size(); i += 64) {
      const uint64_t bits = splitmix64(state);
      for (size_t b = 0; b < 64 && i + b < it->second.size(); ++b)
        it->second[i + b] = (bits >> b) & 1 ? int8_t{1} : int8_t{-1};
    }
  }
  return it->second;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

similar::EmbeddingCode embedding_code(std::span<const float> pooled) {
  similar::EmbeddingCode code{};
  if (pooled.empty()) return code;
  std::vector<float> rooted(pooled.size());
  for (size_t i = 0; i < pooled.size(); ++i)
    rooted[i] = std::copysign(std::sqrt(std::fabs(pooled[i])), pooled[i]);
  const std::vector<int8_t>& signs = projection(pooled.size());
  std::array<float, kEmbeddingDims> projected{};
  for (size_t d = 0; d < kEmbeddingDims; ++d) {
    const int8_t* row = signs.data() + d * pooled.size();
    float sum = 0;
    for (size_t i = 0; i < pooled.size(); ++i) sum += row[i] * rooted[i];
    projected[d] = sum;
  }
  // L2 normalisation then the int8 scale: only the largest magnitude matters for both.
  float largest = 0;
  for (float v : projected) largest = std::max(largest, std::fabs(v));
  if (!(largest > 0) || !std::isfinite(largest)) return code;
  for (size_t d = 0; d < kEmbeddingDims; ++d)
    code[d] = static_cast<int8_t>(std::lround(projected[d] / largest * 127.0f));
  return code;
}

std::string embedding_hex(const similar::EmbeddingCode& code) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * kEmbeddingDims);
  for (int8_t v : code) {
    const auto byte = static_cast<uint8_t>(v);
    out += kDigits[byte >> 4];
    out += kDigits[byte & 15];
  }
  return out;
}

std::optional<similar::EmbeddingCode> embedding_from_hex(std::string_view hex) {
  if (hex.size() != 2 * kEmbeddingDims) return std::nullopt;
  similar::EmbeddingCode code{};
  for (size_t i = 0; i < kEmbeddingDims; ++i) {
    const int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    code[i] = static_cast<int8_t>(static_cast<uint8_t>(hi * 16 + lo));
  }
  return code;
}

std::string embedding_bytes(const similar::EmbeddingCode& code) {
  return std::string(reinterpret_cast<const char*>(code.data()), code.size());
}

std::optional<similar::EmbeddingCode> embedding_from_bytes(std::string_view bytes) {
  if (bytes.size() != kEmbeddingDims) return std::nullopt;
  similar::EmbeddingCode code{};
  std::memcpy(code.data(), bytes.data(), kEmbeddingDims);
  return code;
}

}  // namespace strata::analyze
