#include "index/hash_values.hpp"

namespace strata::index {
namespace {

void put_word(std::string& out, uint64_t word) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(char((word >> shift) & 0xff));
}

uint64_t word_at(std::string_view bytes, size_t at) {
  uint64_t word = 0;
  for (size_t i = 0; i < 8; ++i) word = word << 8 | static_cast<unsigned char>(bytes[at + i]);
  return word;
}

}  // namespace

std::string phash_value(uint64_t hash) {
  std::string value;
  put_word(value, hash);
  return value;
}

std::optional<uint64_t> phash_from_value(std::string_view value) {
  if (value.size() != 8) return std::nullopt;
  return word_at(value, 0);
}

std::string pdq_value(const analyze::PdqHash& hash) {
  std::string value;
  for (const uint64_t word : hash) put_word(value, word);
  return value;
}

std::optional<analyze::PdqHash> pdq_from_value(std::string_view value) {
  if (value.size() != 32) return std::nullopt;
  analyze::PdqHash hash;
  for (size_t w = 0; w < hash.size(); ++w) hash[w] = word_at(value, 8 * w);
  return hash;
}

}  // namespace strata::index
