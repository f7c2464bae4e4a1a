#pragma once
// SHA-1 digests in the form WARC files use ("sha1:" + RFC 4648 base32).
#include <string>
#include <string_view>

namespace strata::archive {

// Incremental SHA-1 so large blocks can be hashed while streaming.
class Sha1 {
 public:
  Sha1();
  ~Sha1();
  Sha1(const Sha1&) = delete;
  Sha1& operator=(const Sha1&) = delete;
  void update(std::string_view data);
  // "sha1:<32 base32 chars>"; the object must not be updated afterwards.
  std::string warc_digest();

 private:
  void* ctx_;  // EVP_MD_CTX, kept opaque so callers need no OpenSSL headers
};

std::string sha1_warc_digest(std::string_view data);
std::string base32_encode(std::string_view bytes);

}  // namespace strata::archive
