#include "archive/digest.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace strata::archive {

Sha1::Sha1() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha1(), nullptr) != 1)
    throw std::runtime_error("cannot initialise SHA-1");
}

Sha1::~Sha1() {
  EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
}

void Sha1::update(std::string_view data) {
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data.data(), data.size());
}

std::string Sha1::warc_digest() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), md, &len);
  return "sha1:" + base32_encode(std::string_view(reinterpret_cast<const char*>(md), len));
}

std::string sha1_warc_digest(std::string_view data) {
  Sha1 sha;
  sha.update(data);
  return sha.warc_digest();
}

std::string base32_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 5) {
      out += kAlphabet[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += kAlphabet[(buffer << (5 - bits)) & 31];
  while (out.size() % 8) out += '=';  // SHA-1 (20 bytes) needs none
  return out;
}

}  // namespace strata::archive
