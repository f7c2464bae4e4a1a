#include "core/digest.hpp"

#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace strata {
namespace {

using FetchedMd = std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)>;

FetchedMd fetch(const char* name) {
  FetchedMd md(EVP_MD_fetch(nullptr, name, nullptr), &EVP_MD_free);
  if (!md) throw std::runtime_error(std::string("EVP_MD_fetch failed: ") + name);
  return md;
}

// Fetched once per process: OpenSSL 3 otherwise looks the implementation up (a locked
// table search) on every EVP_DigestInit_ex given a legacy EVP_sha256() and the like.
const EVP_MD* evp_md(DigestAlgorithm algorithm) {
  static const std::array<FetchedMd, 3> kByAlgorithm{fetch("SHA256"), fetch("SHA1"),
                                                     fetch("MD5")};  // enum order
  return kByAlgorithm.at(static_cast<size_t>(algorithm)).get();
}

}  // namespace

struct Hasher::Impl {
  EVP_MD_CTX* ctx = nullptr;
  const EVP_MD* md = nullptr;

  void init() {
    if (EVP_DigestInit_ex(ctx, md, nullptr) != 1)
      throw std::runtime_error("EVP_DigestInit_ex failed");
  }
  ~Impl() { EVP_MD_CTX_free(ctx); }
};

Hasher::Hasher(DigestAlgorithm algorithm) : impl_(std::make_unique<Impl>()) {
  impl_->ctx = EVP_MD_CTX_new();
  if (impl_->ctx == nullptr) throw std::runtime_error("EVP_MD_CTX_new failed");
  impl_->md = evp_md(algorithm);
  impl_->init();
}

Hasher::~Hasher() = default;
Hasher::Hasher(Hasher&&) noexcept = default;
Hasher& Hasher::operator=(Hasher&&) noexcept = default;

void Hasher::update(std::string_view bytes) {
  if (!bytes.empty() && EVP_DigestUpdate(impl_->ctx, bytes.data(), bytes.size()) != 1)
    throw std::runtime_error("EVP_DigestUpdate failed");
}

std::string Hasher::finish() {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(impl_->ctx, out, &size) != 1)
    throw std::runtime_error("EVP_DigestFinal_ex failed");
  impl_->init();
  return std::string(reinterpret_cast<const char*>(out), size);
}

std::string Hasher::to_hex(std::string_view raw) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    hex.push_back(kDigits[c >> 4]);
    hex.push_back(kDigits[c & 15]);
  }
  return hex;
}

std::string Hasher::to_base32(std::string_view raw) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : raw) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 5) {
      out.push_back(kAlphabet[(buffer >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

namespace {
std::string digest_of(DigestAlgorithm algorithm, std::string_view bytes) {
  Hasher hasher(algorithm);
  hasher.update(bytes);
  return hasher.finish();
}
}  // namespace

std::string sha256_hex(std::string_view bytes) {
  return Hasher::to_hex(digest_of(DigestAlgorithm::kSha256, bytes));
}
std::string sha1_base32(std::string_view bytes) {
  return Hasher::to_base32(digest_of(DigestAlgorithm::kSha1, bytes));
}
std::string md5_hex(std::string_view bytes) {
  return Hasher::to_hex(digest_of(DigestAlgorithm::kMd5, bytes));
}

std::string sha1_warc_digest(std::string_view bytes) {
  return "sha1:" + sha1_base32(bytes);
}

}  // namespace strata
