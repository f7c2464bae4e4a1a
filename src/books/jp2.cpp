#include "books/jp2.hpp"

#include <openjpeg.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace strata::books {
namespace {

struct MemoryIn {
  std::string_view data;
  size_t pos = 0;
};

struct MemoryOut {
  std::string data;
  size_t pos = 0;
};

using CodecPtr = std::unique_ptr<opj_codec_t, decltype(&opj_destroy_codec)>;
using StreamPtr = std::unique_ptr<opj_stream_t, decltype(&opj_stream_destroy)>;
using ImagePtr = std::unique_ptr<opj_image_t, decltype(&opj_image_destroy)>;

bool is_jp2_file(std::string_view data) {
  static constexpr char kMagic[] = "\x00\x00\x00\x0CjP  \r\n\x87\n";
  return data.size() >= 12 && std::memcmp(data.data(), kMagic, 12) == 0;
}

StreamPtr input_stream(MemoryIn& in) {
  StreamPtr s(opj_stream_create(1 << 16, OPJ_TRUE), &opj_stream_destroy);
  opj_stream_set_user_data(s.get(), &in, nullptr);
  opj_stream_set_user_data_length(s.get(), in.data.size());
  opj_stream_set_read_function(s.get(), [](void* buf, OPJ_SIZE_T n, void* user) -> OPJ_SIZE_T {
    auto& m = *static_cast<MemoryIn*>(user);
    if (m.pos >= m.data.size()) return static_cast<OPJ_SIZE_T>(-1);
    const size_t k = std::min<size_t>(n, m.data.size() - m.pos);
    std::memcpy(buf, m.data.data() + m.pos, k);
    m.pos += k;
    return k;
  });
  opj_stream_set_skip_function(s.get(), [](OPJ_OFF_T n, void* user) -> OPJ_OFF_T {
    auto& m = *static_cast<MemoryIn*>(user);
    const auto to = std::clamp<OPJ_OFF_T>(static_cast<OPJ_OFF_T>(m.pos) + n, 0,
                                          static_cast<OPJ_OFF_T>(m.data.size()));
    const auto moved = to - static_cast<OPJ_OFF_T>(m.pos);
    m.pos = static_cast<size_t>(to);
    return moved;
  });
  opj_stream_set_seek_function(s.get(), [](OPJ_OFF_T to, void* user) -> OPJ_BOOL {
    auto& m = *static_cast<MemoryIn*>(user);
    if (to < 0 || static_cast<size_t>(to) > m.data.size()) return OPJ_FALSE;
    m.pos = static_cast<size_t>(to);
    return OPJ_TRUE;
  });
  return s;
}

void keep_message(const char* msg, void* user) {
  auto& last = *static_cast<std::string*>(user);
  last = msg;
  while (!last.empty() && last.back() == '\n') last.pop_back();
}

// A decoder with its header read: the image's geometry, nothing decoded yet.
struct OpenCodestream {
  MemoryIn in;
  std::string error;
  CodecPtr codec{nullptr, &opj_destroy_codec};
  StreamPtr stream{nullptr, &opj_stream_destroy};
  ImagePtr image{nullptr, &opj_image_destroy};

  explicit OpenCodestream(std::string_view data) : in{data} {
    codec.reset(opj_create_decompress(is_jp2_file(data) ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K));
    opj_set_error_handler(codec.get(), keep_message, &error);
    opj_set_warning_handler(
        codec.get(), [](const char*, void*) {}, nullptr);
    opj_set_info_handler(
        codec.get(), [](const char*, void*) {}, nullptr);
    opj_dparameters_t params;
    opj_set_default_decoder_parameters(&params);
    if (!opj_setup_decoder(codec.get(), &params)) fail("cannot set up the decoder");
    stream = input_stream(in);
    opj_image_t* raw = nullptr;
    if (!opj_read_header(stream.get(), codec.get(), &raw)) fail("cannot read the JPEG 2000 header");
    image.reset(raw);
    if (image->numcomps == 0) fail("no components");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Jp2Error(error.empty() ? what : what + ": " + error);
  }

  int channels() const { return image->numcomps >= 3 ? 3 : 1; }

  void decode(const Box* area) {
    if (area &&
        !opj_set_decode_area(codec.get(), image.get(), static_cast<OPJ_INT32>(image->x0) + area->l,
                             static_cast<OPJ_INT32>(image->y0) + area->t,
                             static_cast<OPJ_INT32>(image->x0) + area->r,
                             static_cast<OPJ_INT32>(image->y0) + area->b))
      fail("region outside the image");
    if (!opj_decode(codec.get(), stream.get(), image.get()) ||
        !opj_end_decompress(codec.get(), stream.get()))
      fail("corrupt or truncated JPEG 2000 data");
  }

  // Appends the decoded rows (width x rows of the area) to `out` as 8-bit samples.
  void append_rows(Raster& out, int width, int rows) const {
    const int n = channels();
    for (int c = 0; c < n; ++c) {
      const opj_image_comp_t& comp = image->comps[c];
      if (comp.dx != 1 || comp.dy != 1) fail("subsampled components are not supported");
      if (!comp.data || static_cast<int>(comp.w) != width || static_cast<int>(comp.h) != rows)
        fail("decoded component does not match the region");
    }
    const size_t base = out.pixels.size();
    out.pixels.resize(base + static_cast<size_t>(width) * rows * n);
    for (int c = 0; c < n; ++c) {
      const opj_image_comp_t& comp = image->comps[c];
      const int offset = comp.sgnd ? 1 << (comp.prec - 1) : 0;
      const int shift = static_cast<int>(comp.prec) - 8;
      uint8_t* to = out.pixels.data() + base + c;
      for (size_t i = 0, count = static_cast<size_t>(width) * rows; i < count; ++i, to += n) {
        int v = comp.data[i] + offset;
        v = shift >= 0 ? v >> shift : v << -shift;
        *to = static_cast<uint8_t>(std::clamp(v, 0, 255));
      }
    }
  }

  int width() const { return static_cast<int>(image->x1 - image->x0); }
  int height() const { return static_cast<int>(image->y1 - image->y0); }
};

}  // namespace

Jp2Info jp2_info(std::string_view codestream) {
  OpenCodestream open(codestream);
  return {open.width(), open.height(), static_cast<int>(open.image->numcomps),
          static_cast<int>(open.image->comps[0].prec)};
}

void jp2_decode_strips(std::string_view codestream, const Box& box, int strip_rows,
                       const std::function<void(const Raster& strip)>& sink) {
  if (box.empty()) throw Jp2Error("empty region");
  const int step = std::max(1, strip_rows);
  for (int top = box.t; top < box.b; top += step) {
    OpenCodestream open(codestream);
    if (box.l < 0 || box.t < 0 || box.r > open.width() || box.b > open.height())
      throw Jp2Error("region outside the image");
    const int bottom = std::min(box.b, top + step);
    // The inverse 9/7 wavelet of a partial decode rounds a rare sample next to the area's
    // edge differently: decode each strip with margin rows and keep the inside.
    const int margin = bottom - top < box.height() ? kStripMargin : 0;
    const Box area{box.l, std::max(0, top - margin), box.r,
                   std::min(open.height(), bottom + margin)};
    open.decode(&area);
    Raster decoded{area.width(), 0, open.channels(), {}};
    open.append_rows(decoded, area.width(), area.height());
    decoded.height = area.height();
    sink(crop(decoded, {0, top - area.t, area.width(), bottom - area.t}));
  }
}

Raster jp2_decode_region(std::string_view codestream, const Box& box, int strip_rows) {
  Raster out;
  jp2_decode_strips(codestream, box, strip_rows, [&](const Raster& strip) {
    out.width = strip.width;
    out.channels = strip.channels;
    out.height += strip.height;
    out.pixels.insert(out.pixels.end(), strip.pixels.begin(), strip.pixels.end());
  });
  return out;
}

Raster jp2_decode_full(std::string_view codestream) {
  OpenCodestream open(codestream);
  open.decode(nullptr);
  Raster out{open.width(), open.height(), open.channels(), {}};
  open.append_rows(out, out.width, out.height);
  return out;
}

std::string jp2_encode_lossless(const Raster& raster) {
  std::vector<opj_image_cmptparm_t> params(static_cast<size_t>(raster.channels));
  for (auto& p : params) {
    std::memset(&p, 0, sizeof p);
    p.dx = p.dy = 1;
    p.w = static_cast<OPJ_UINT32>(raster.width);
    p.h = static_cast<OPJ_UINT32>(raster.height);
    p.prec = 8;
  }
  ImagePtr image(opj_image_create(static_cast<OPJ_UINT32>(raster.channels), params.data(),
                                  raster.channels == 3 ? OPJ_CLRSPC_SRGB : OPJ_CLRSPC_GRAY),
                 &opj_image_destroy);
  if (!image) throw Jp2Error("cannot create the image");
  image->x1 = static_cast<OPJ_UINT32>(raster.width);
  image->y1 = static_cast<OPJ_UINT32>(raster.height);
  const size_t count = static_cast<size_t>(raster.width) * raster.height;
  for (int c = 0; c < raster.channels; ++c)
    for (size_t i = 0; i < count; ++i)
      image->comps[c].data[i] = raster.pixels[i * raster.channels + c];

  opj_cparameters_t cp;
  opj_set_default_encoder_parameters(&cp);
  cp.tcp_numlayers = 1;
  cp.tcp_rates[0] = 0;  // lossless
  cp.cp_disto_alloc = 1;
  int levels = 1;
  while (levels < 6 && (std::min(raster.width, raster.height) >> levels) >= 1) ++levels;
  cp.numresolution = levels;
  CodecPtr codec(opj_create_compress(OPJ_CODEC_JP2), &opj_destroy_codec);
  std::string error;
  opj_set_error_handler(codec.get(), keep_message, &error);
  if (!opj_setup_encoder(codec.get(), &cp, image.get())) throw Jp2Error("encoder setup: " + error);

  MemoryOut out;
  StreamPtr stream(opj_stream_create(1 << 16, OPJ_FALSE), &opj_stream_destroy);
  opj_stream_set_user_data(stream.get(), &out, nullptr);
  opj_stream_set_write_function(stream.get(),
                                [](void* buf, OPJ_SIZE_T n, void* user) -> OPJ_SIZE_T {
                                  auto& m = *static_cast<MemoryOut*>(user);
                                  if (m.pos + n > m.data.size()) m.data.resize(m.pos + n);
                                  std::memcpy(m.data.data() + m.pos, buf, n);
                                  m.pos += n;
                                  return n;
                                });
  opj_stream_set_skip_function(stream.get(), [](OPJ_OFF_T n, void* user) -> OPJ_OFF_T {
    auto& m = *static_cast<MemoryOut*>(user);
    m.pos = static_cast<size_t>(static_cast<OPJ_OFF_T>(m.pos) + n);
    if (m.pos > m.data.size()) m.data.resize(m.pos);
    return n;
  });
  opj_stream_set_seek_function(stream.get(), [](OPJ_OFF_T to, void* user) -> OPJ_BOOL {
    auto& m = *static_cast<MemoryOut*>(user);
    m.pos = static_cast<size_t>(to);
    if (m.pos > m.data.size()) m.data.resize(m.pos);
    return OPJ_TRUE;
  });
  if (!opj_start_compress(codec.get(), image.get(), stream.get()) ||
      !opj_encode(codec.get(), stream.get()) || !opj_end_compress(codec.get(), stream.get()))
    throw Jp2Error("encode: " + error);
  return std::move(out.data);
}

}  // namespace strata::books
