#include "books/tiff.hpp"

#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace strata::books {
namespace {

// A TIFF in memory: read from a view, or written into a string.
struct MemoryFile {
  explicit MemoryFile(std::string_view data) : in(data) {}
  explicit MemoryFile(std::string* into) : out(into) {}

  std::string_view in;
  std::string* out = nullptr;
  uint64_t pos = 0;
  std::string error;  // libtiff's last error message

  uint64_t size() const { return out ? out->size() : in.size(); }
};

MemoryFile& file_of(thandle_t h) {
  return *static_cast<MemoryFile*>(h);
}

tmsize_t read_proc(thandle_t h, void* buf, tmsize_t n) {
  MemoryFile& f = file_of(h);
  const std::string_view data = f.out ? std::string_view(*f.out) : f.in;
  if (n < 0 || f.pos >= data.size()) return 0;
  const size_t k = std::min<uint64_t>(static_cast<uint64_t>(n), data.size() - f.pos);
  std::memcpy(buf, data.data() + f.pos, k);
  f.pos += k;
  return static_cast<tmsize_t>(k);
}

tmsize_t write_proc(thandle_t h, void* buf, tmsize_t n) {
  MemoryFile& f = file_of(h);
  if (!f.out || n < 0) return 0;
  const size_t k = static_cast<size_t>(n);
  if (f.out->size() < f.pos + k) f.out->resize(f.pos + k);
  std::memcpy(f.out->data() + f.pos, buf, k);
  f.pos += k;
  return n;
}

toff_t seek_proc(thandle_t h, toff_t offset, int whence) {
  MemoryFile& f = file_of(h);
  if (whence == SEEK_CUR)
    f.pos += offset;
  else if (whence == SEEK_END)
    f.pos = f.size() + offset;
  else
    f.pos = offset;
  return f.pos;
}

int close_proc(thandle_t) {
  return 0;
}
toff_t size_proc(thandle_t h) {
  return file_of(h).size();
}
int map_proc(thandle_t, void**, toff_t*) {
  return 0;  // no mapping: every read goes through read_proc
}
void unmap_proc(thandle_t, void*, toff_t) {}

int keep_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  char message[512];
  std::vsnprintf(message, sizeof message, fmt, ap);
  static_cast<MemoryFile*>(user)->error = std::string(module ? module : "tiff") + ": " + message;
  return 1;
}
int ignore_warning(TIFF*, void*, const char*, const char*, va_list) {
  return 1;
}

struct TiffCloser {
  void operator()(TIFF* t) const { TIFFClose(t); }
};
using TiffPtr = std::unique_ptr<TIFF, TiffCloser>;

// Opens `file` with its errors kept in file.error and warnings dropped (libtiff's default
// handlers print to stderr).
TiffPtr open(MemoryFile& file, const char* mode) {
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetErrorHandlerExtR(options, keep_error, &file);
  TIFFOpenOptionsSetWarningHandlerExtR(options, ignore_warning, nullptr);
  TIFF* tiff = TIFFClientOpenExt("page", mode, &file, read_proc, write_proc, seek_proc, close_proc,
                                 size_proc, map_proc, unmap_proc, options);
  TIFFOpenOptionsFree(options);
  if (!tiff) throw TiffError("not a readable TIFF: " + file.error);
  return TiffPtr(tiff);
}

// Book scans run to about 10,000 pixels a side (600 dpi A3); a side beyond this is a
// corrupt or hostile header.
constexpr uint32_t kMaxPageSide = 100000;

struct Layout {
  uint32_t width = 0, height = 0;
  uint16_t bits = 0, samples = 0, photometric = 0, planar = PLANARCONFIG_CONTIG;
};

Layout layout_of(TIFF* tiff) {
  Layout l;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &l.width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &l.height);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &l.bits);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &l.samples);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &l.planar);
  if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &l.photometric))
    l.photometric = PHOTOMETRIC_MINISBLACK;
  return l;
}

// One scanline's pixels of [l, r) as 8-bit grey or RGB.
void append_row(const Layout& l, const uint8_t* line, const Box& box, std::vector<uint8_t>& out) {
  const bool invert = l.photometric == PHOTOMETRIC_MINISWHITE;
  for (int x = box.l; x < box.r; ++x) {
    if (l.bits == 1) {
      const bool set = (line[x / 8] >> (7 - x % 8)) & 1;
      out.push_back(set != invert ? 255 : 0);
    } else if (l.samples >= 3) {
      const uint8_t* p = line + static_cast<size_t>(x) * l.samples;
      out.insert(out.end(), p, p + 3);
    } else {
      const uint8_t v = line[static_cast<size_t>(x) * l.samples];
      out.push_back(invert ? static_cast<uint8_t>(255 - v) : v);
    }
  }
}

void check_readable(TIFF* tiff, const Layout& l) {
  if (TIFFIsTiled(tiff)) throw TiffError("tiled TIFF pages are not read");
  if (l.planar != PLANARCONFIG_CONTIG && l.samples > 1)
    throw TiffError("planar TIFF pages are not read");
  const bool bilevel = l.bits == 1 && l.samples == 1;
  const bool grey = l.bits == 8 && (l.photometric == PHOTOMETRIC_MINISBLACK ||
                                    l.photometric == PHOTOMETRIC_MINISWHITE);
  const bool rgb = l.bits == 8 && l.samples >= 3 && l.photometric == PHOTOMETRIC_RGB;
  // RGB with alpha at most: a larger sample count is corrupt, and with a wide page it would
  // claim a scanline buffer of gigabytes.
  if ((!bilevel && !grey && !rgb) || l.samples > 4)
    throw TiffError("TIFF layout not read: " + std::to_string(l.bits) + " bits, " +
                    std::to_string(l.samples) + " samples, photometric " +
                    std::to_string(l.photometric));
  if (l.width > kMaxPageSide || l.height > kMaxPageSide)
    throw TiffError("TIFF page of " + std::to_string(l.width) + " x " + std::to_string(l.height) +
                    " pixels is larger than a page scan can be");
}

}  // namespace

Box tiff_bounds(std::string_view data) {
  MemoryFile file(data);
  TiffPtr tiff = open(file, "r");
  const Layout l = layout_of(tiff.get());
  return {0, 0, static_cast<int>(l.width), static_cast<int>(l.height)};
}

Raster tiff_decode_region(std::string_view data, const Box& box) {
  MemoryFile file(data);
  TiffPtr tiff = open(file, "r");
  const Layout l = layout_of(tiff.get());
  check_readable(tiff.get(), l);
  if (box.l < 0 || box.t < 0 || box.r > static_cast<int>(l.width) ||
      box.b > static_cast<int>(l.height) || box.empty())
    throw TiffError("region outside the TIFF page");
  Raster out{box.width(), box.height(), l.bits == 8 && l.samples >= 3 ? 3 : 1, {}};
  out.pixels.reserve(static_cast<size_t>(out.width) * out.height * out.channels);
  std::vector<uint8_t> line(static_cast<size_t>(TIFFScanlineSize(tiff.get())));
  // Compressed strips are read in order, so every row up to the crop's last is decoded.
  for (int y = 0; y < box.b; ++y) {
    if (TIFFReadScanline(tiff.get(), line.data(), static_cast<uint32_t>(y), 0) < 0)
      throw TiffError("TIFF row " + std::to_string(y) + ": " + file.error);
    if (y >= box.t) append_row(l, line.data(), box, out.pixels);
  }
  return out;
}

std::string tiff_encode(const Raster& raster, bool deflate) {
  std::string bytes;
  MemoryFile file(&bytes);
  {
    TiffPtr tiff = open(file, "w");
    TIFF* t = tiff.get();
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<uint32_t>(raster.width));
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<uint32_t>(raster.height));
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, raster.channels);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC,
                 raster.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_COMPRESSION, deflate ? COMPRESSION_ADOBE_DEFLATE : COMPRESSION_NONE);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 16);
    const size_t row = static_cast<size_t>(raster.width) * raster.channels;
    std::vector<uint8_t> line(row);
    for (int y = 0; y < raster.height; ++y) {
      std::memcpy(line.data(), raster.pixels.data() + y * row, row);
      if (TIFFWriteScanline(t, line.data(), static_cast<uint32_t>(y), 0) < 0)
        throw TiffError("cannot write TIFF row: " + file.error);
    }
  }
  return bytes;
}

}  // namespace strata::books
