#pragma once
// Payload digests through OpenSSL EVP: SHA-256 (the image id), SHA-1 in the base32 form
// WARC-Payload-Digest uses, and MD5 (Arquivo's URL hashes). Hasher digests streamed payloads.
#include <memory>
#include <string>
#include <string_view>

namespace strata {

enum class DigestAlgorithm { kSha256, kSha1, kMd5 };

// Incremental hasher; feed bytes with update(), then read once with finish().
class Hasher {
 public:
  explicit Hasher(DigestAlgorithm algorithm);
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  Hasher(Hasher&&) noexcept;
  Hasher& operator=(Hasher&&) noexcept;

  void update(std::string_view bytes);
  // The raw digest bytes; the hasher is reset and may be reused afterwards.
  std::string finish();
  std::string finish_hex() { return to_hex(finish()); }
  std::string finish_base32() { return to_base32(finish()); }

  static std::string to_hex(std::string_view raw);     // lower-case
  static std::string to_base32(std::string_view raw);  // RFC 4648, upper-case, padded

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string sha256_hex(std::string_view bytes);
std::string sha1_base32(std::string_view bytes);  // "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
std::string md5_hex(std::string_view bytes);
// The form of WARC-Payload-Digest / WARC-Block-Digest: "sha1:" + base32 SHA-1.
std::string sha1_warc_digest(std::string_view bytes);

}  // namespace strata
