// AVIF / HEIF (ISO base media file format): brand from ftyp, size from the largest ispe
// property in meta/iprp/ipco, rotation from irot.
#include <array>
#include <cstdint>

#include "extract/image_bytes.hpp"
#include "extract/image_formats.hpp"

namespace strata::extract::image_detail {
namespace {

constexpr int kMaxBoxes = 10000;

struct Box {
  std::string_view type;
  size_t payload = 0;  // offset of the payload (after size/type/largesize)
  size_t end = 0;      // offset after the box
};

// Reads the box header at pos inside [.., limit); false when malformed.
bool read_box(const Bytes& b, size_t pos, size_t limit, Box& box) {
  auto size = b.be(pos, 4);
  if (!size || !b.has(pos, 8)) return false;
  box.type = b.sub(pos + 4, 4);
  box.payload = pos + 8;
  uint64_t total = *size;
  if (total == 1) {
    auto large = b.be64(pos + 8);
    if (!large) return false;
    total = *large;
    box.payload = pos + 16;
  } else if (total == 0) {
    total = limit - pos;
  }
  if (total < box.payload - pos || total > limit - pos) return false;
  box.end = pos + static_cast<size_t>(total);
  return true;
}

// Finds the first child box of the given type in [begin, end).
std::optional<Box> find_box(const Bytes& b, size_t begin, size_t end, std::string_view type) {
  Box box;
  for (int n = 0; n < kMaxBoxes && begin < end && read_box(b, begin, end, box); ++n) {
    if (box.type == type) return box;
    begin = box.end;
  }
  return std::nullopt;
}

std::string brand_mime(std::string_view brand) {
  if (brand == "avif" || brand == "avis") return "image/avif";
  static const std::array<std::string_view, 6> kHeic{"heic", "heix", "heim",
                                                     "heis", "hevc", "hevx"};
  for (std::string_view heic : kHeic)
    if (brand == heic) return "image/heic";
  if (brand == "mif1" || brand == "msf1") return "image/heif";
  return "";
}

struct IpcoFacts {
  uint32_t width = 0, height = 0;
  int orientation = 0;
};

int irot_orientation(uint8_t angle) {  // anticlockwise quarter turns -> EXIF orientation
  static constexpr std::array<int, 4> kOrientation{1, 8, 3, 6};
  return kOrientation[angle & 3];
}

IpcoFacts scan_ipco(const Bytes& b, const Box& ipco) {
  IpcoFacts facts;
  Box box;
  size_t pos = ipco.payload;
  for (int n = 0; n < kMaxBoxes && pos < ipco.end && read_box(b, pos, ipco.end, box); ++n) {
    if (box.type == "ispe") {
      auto w = b.be(box.payload + 4, 4), h = b.be(box.payload + 8, 4);
      if (w && h && uint64_t{*w} * *h > uint64_t{facts.width} * facts.height) {
        facts.width = *w;
        facts.height = *h;
      }
    } else if (box.type == "irot" && facts.orientation == 0) {
      facts.orientation = irot_orientation(b.u8(box.payload).value_or(0));
    }
    pos = box.end;
  }
  return facts;
}

}  // namespace

std::string isobmff_mime(std::string_view bytes) {
  Bytes b(bytes);
  Box ftyp;
  if (!read_box(b, 0, b.size(), ftyp) || ftyp.type != "ftyp") return "";
  if (std::string mime = brand_mime(b.sub(ftyp.payload, 4)); !mime.empty()) return mime;
  std::string fallback;
  for (size_t pos = ftyp.payload + 8; pos + 4 <= ftyp.end; pos += 4) {
    std::string mime = brand_mime(b.sub(pos, 4));
    if (mime == "image/avif" || mime == "image/heic") return mime;
    if (!mime.empty()) fallback = mime;
  }
  return fallback;
}

std::optional<ImageInfo> read_isobmff(std::string_view bytes) {
  Bytes b(bytes);
  ImageInfo info;
  info.mime = isobmff_mime(bytes);
  if (info.mime.empty()) return std::nullopt;
  std::string_view major = b.sub(8, 4);
  info.animated = major == "avis" || major == "msf1" || major == "hevs";
  info.frames = info.animated ? 0 : 1;
  auto meta = find_box(b, 0, b.size(), "meta");
  if (!meta) return info;
  auto iprp = find_box(b, meta->payload + 4, meta->end, "iprp");  // meta is a full box
  auto ipco = iprp ? find_box(b, iprp->payload, iprp->end, "ipco") : std::nullopt;
  if (!ipco) return info;
  IpcoFacts facts = scan_ipco(b, *ipco);
  if (facts.width <= 0x7fffffffu && facts.height <= 0x7fffffffu) {
    info.width = static_cast<int>(facts.width);
    info.height = static_cast<int>(facts.height);
    info.size_known = facts.width > 0 && facts.height > 0;
  }
  info.orientation = facts.orientation;
  return info;
}

}  // namespace strata::extract::image_detail
