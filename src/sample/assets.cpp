#include "sample/assets.hpp"

#include <openssl/evp.h>
#include <zlib.h>

namespace strata::sample {
namespace {

constexpr uint64_t kPoolSize = 1024;

void put32(std::string& s, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s.push_back(static_cast<char>((v >> shift) & 0xff));
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out.push_back(hex[md[i] >> 4]);
    out.push_back(hex[md[i] & 15]);
  }
  return out;
}

std::string add_marker(const std::string& bytes, ImageFormat format, const std::string& text) {
  if (format == ImageFormat::jpeg && bytes.size() > 2) {
    std::string seg = "\xff\xfe";
    seg.push_back(static_cast<char>(((text.size() + 2) >> 8) & 0xff));
    seg.push_back(static_cast<char>((text.size() + 2) & 0xff));
    return bytes.substr(0, 2) + seg + text + bytes.substr(2);
  }
  if (format == ImageFormat::png && bytes.size() > 33) {
    std::string data = "Comment";
    data.push_back('\0');
    data += text;
    std::string chunk;
    put32(chunk, static_cast<uint32_t>(data.size()));
    std::string typed = "tEXt" + data;
    chunk += typed;
    put32(chunk, static_cast<uint32_t>(
                     crc32(0, reinterpret_cast<const Bytef*>(typed.data()), typed.size())));
    return bytes.substr(0, 33) + chunk + bytes.substr(33);
  }
  if ((format == ImageFormat::gif || format == ImageFormat::gif_animated) && !bytes.empty() &&
      bytes.back() == ';' && text.size() < 256) {
    std::string ext = "\x21\xfe";
    ext.push_back(static_cast<char>(text.size()));
    ext += text;
    ext.push_back('\0');
    return bytes.substr(0, bytes.size() - 1) + ext + ";";
  }
  return bytes;
}

const EncodedImage& AssetStore::base(const Key& key) {
  auto it = bases_.find(key);
  if (it != bases_.end()) return it->second;
  auto [look, w, h, format, quality] = key;
  EncodedImage img =
      make_image(make_concept(look), w, h, static_cast<ImageFormat>(format), quality);
  return bases_.emplace(key, std::move(img)).first->second;
}

int AssetStore::add(uint64_t look, int width, int height, ImageFormat format, int quality,
                    int family, int topic) {
  bool pooled = fast_ && (format == ImageFormat::jpeg || format == ImageFormat::png ||
                          format == ImageFormat::gif);
  EncodedImage img;
  if (pooled) {
    img = base(Key{look % kPoolSize, width, height, static_cast<int>(format), quality});
    img.bytes = add_marker(img.bytes, format, "strata-sample variant " + std::to_string(variants_++));
  } else {
    img = make_image(make_concept(look), width, height, format, quality);
  }
  int id = add_encoded(std::move(img), family, topic);
  assets_[static_cast<size_t>(id)].look_seed = look;
  return id;
}

int AssetStore::add_encoded(EncodedImage image, int family, int topic) {
  Asset a;
  a.sha256 = sha256_hex(image.bytes);
  a.image = std::move(image);
  a.family = family;
  a.topic = topic;
  assets_.push_back(std::move(a));
  return static_cast<int>(assets_.size()) - 1;
}

}  // namespace strata::sample
