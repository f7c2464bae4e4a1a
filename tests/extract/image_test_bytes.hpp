#pragma once
// Builders for small, hand-made image headers used by the image tests (formats for which
// ../shared holds no real files). Each follows the format's specification byte by byte.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace strata::extract::testbytes {

inline void be16(std::string& s, uint32_t v) {
  s.push_back(static_cast<char>(v >> 8));
  s.push_back(static_cast<char>(v));
}
inline void be32(std::string& s, uint32_t v) {
  be16(s, v >> 16);
  be16(s, v & 0xFFFF);
}
inline void le16(std::string& s, uint32_t v) {
  s.push_back(static_cast<char>(v));
  s.push_back(static_cast<char>(v >> 8));
}
inline void le24(std::string& s, uint32_t v) {
  le16(s, v & 0xFFFF);
  s.push_back(static_cast<char>(v >> 16));
}
inline void le32(std::string& s, uint32_t v) {
  le16(s, v & 0xFFFF);
  le16(s, v >> 16);
}

inline std::string png_chunk(std::string_view type, std::string_view data) {
  std::string s;
  be32(s, static_cast<uint32_t>(data.size()));
  s += type;
  s += data;
  be32(s, 0);  // CRC (not checked by header readers)
  return s;
}

inline std::string png(uint32_t w, uint32_t h, bool interlaced = false, int actl_frames = 0) {
  std::string s("\x89PNG\r\n\x1a\n", 8), ihdr;
  be32(ihdr, w);
  be32(ihdr, h);
  ihdr += std::string("\x08\x06\x00\x00", 4);
  ihdr.push_back(interlaced ? 1 : 0);
  s += png_chunk("IHDR", ihdr);
  if (actl_frames > 0) {
    std::string actl;
    be32(actl, static_cast<uint32_t>(actl_frames));
    be32(actl, 0);
    s += png_chunk("acTL", actl);
  }
  s += png_chunk("IDAT", std::string("\x78\x9c\x03\x00", 4));
  s += png_chunk("IEND", "");
  return s;
}

inline std::string gif(uint32_t w, uint32_t h, int frames, bool interlaced = false) {
  std::string s("GIF89a");
  le16(s, w);
  le16(s, h);
  s += std::string("\x80\x00\x00", 3);  // 2-colour global table
  s += std::string("\x00\x00\x00\xff\xff\xff", 6);
  for (int i = 0; i < frames; ++i) {
    s += std::string("\x21\xf9\x04\x04\x0a\x00\x00\x00", 8);  // graphic control extension
    s.push_back('\x2c');
    le16(s, 0);
    le16(s, 0);
    le16(s, w);
    le16(s, h);
    s.push_back(interlaced ? '\x40' : '\x00');
    s += std::string("\x02\x02\x44\x01\x00", 5);  // LZW size 2, one sub-block, terminator
  }
  s.push_back('\x3b');
  return s;
}

inline std::string riff_webp(std::string_view chunks) {
  std::string s("RIFF");
  le32(s, static_cast<uint32_t>(4 + chunks.size()));
  s += "WEBP";
  s += chunks;
  return s;
}
inline std::string riff_chunk(std::string_view type, std::string_view data) {
  std::string s(type);
  le32(s, static_cast<uint32_t>(data.size()));
  s += data;
  if (data.size() % 2) s.push_back('\0');
  return s;
}

inline std::string jpeg_exif_app1(uint16_t orientation) {
  std::string tiff("MM\0*", 4);
  be32(tiff, 8);
  be16(tiff, 1);
  be16(tiff, 274);
  be16(tiff, 3);
  be32(tiff, 1);
  be16(tiff, orientation);
  be16(tiff, 0);
  be32(tiff, 0);
  std::string payload = std::string("Exif\0\0", 6) + tiff;
  std::string s("\xff\xe1", 2);
  be16(s, static_cast<uint32_t>(payload.size() + 2));
  return s + payload;
}

// SOF segment with `components` components; marker 0xC0 baseline, 0xC2 progressive.
inline std::string jpeg(uint8_t sof, uint32_t w, uint32_t h, int components = 3,
                        int orientation = 0) {
  std::string s("\xff\xd8", 2);
  s += std::string("\xff\xe0\x00\x10JFIF\0\x01\x01\x00\x00\x01\x00\x01\x00\x00", 18);
  if (orientation) s += jpeg_exif_app1(static_cast<uint16_t>(orientation));
  s += std::string("\xff\xc4\x00\x03\x00", 5);  // a (tiny) DHT must not be read as a frame
  s.push_back('\xff');
  s.push_back(static_cast<char>(sof));
  be16(s, static_cast<uint32_t>(8 + 3 * components));
  s.push_back(8);
  be16(s, h);
  be16(s, w);
  s.push_back(static_cast<char>(components));
  for (int i = 0; i < components; ++i) s += std::string{static_cast<char>(i + 1), '\x11', '\x00'};
  s += std::string("\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00\xff\xd9", 12);
  return s;
}

inline std::string isobmff_box(std::string_view type, std::string_view payload) {
  std::string s;
  be32(s, static_cast<uint32_t>(8 + payload.size()));
  s += type;
  s += payload;
  return s;
}

inline std::string ispe(uint32_t w, uint32_t h) {
  std::string p(4, '\0');
  be32(p, w);
  be32(p, h);
  return isobmff_box("ispe", p);
}

inline std::string heif(std::string_view major, std::initializer_list<std::string_view> compatible,
                        std::string_view properties) {
  std::string ftyp(major);
  be32(ftyp, 0);
  for (auto brand : compatible) ftyp += brand;
  std::string hdlr = isobmff_box("hdlr", std::string(8, '\0') + "pict" + std::string(13, '\0'));
  std::string iprp = isobmff_box("iprp", isobmff_box("ipco", properties));
  std::string meta = isobmff_box("meta", std::string(4, '\0') + hdlr + iprp);
  return isobmff_box("ftyp", ftyp) + meta + isobmff_box("mdat", "....");
}

}  // namespace strata::extract::testbytes
