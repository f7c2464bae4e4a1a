#include "sample/encode.hpp"

#include <gif_lib.h>
#include <png.h>
#include <webp/encode.h>

// jpeglib.h needs FILE and size_t declared first.
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <jpeglib.h>

namespace strata::sample {
namespace {

void png_append(png_structp png, png_bytep data, png_size_t size) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), size);
}

void png_no_flush(png_structp) {}

// Writes a PNG whose rows come from row(y, buffer).
template <typename RowFn>
std::string write_png(int width, int height, int level, PngFilters filters, RowFn row) {
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("png encoding failed");
  }
  png_set_write_fn(png, &out, png_append, png_no_flush);
  png_set_compression_level(png, level);
  if (filters == PngFilters::up) png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<uint8_t> buffer(static_cast<size_t>(width) * 3);
  for (int y = 0; y < height; ++y) {
    row(y, buffer.data());
    png_write_row(png, buffer.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

// 6x6x6 colour cube: a fixed palette, so GIF quantisation is trivial and deterministic.
ColorMapObject* cube_palette() {
  ColorMapObject* map = GifMakeMapObject(256, nullptr);
  for (int i = 0; i < 256; ++i) {
    int v = i < 216 ? i : 215;
    map->Colors[i] = GifColorType{static_cast<GifByteType>((v / 36) * 51),
                                  static_cast<GifByteType>(((v / 6) % 6) * 51),
                                  static_cast<GifByteType>((v % 6) * 51)};
  }
  return map;
}

int gif_append(GifFileType* gif, const GifByteType* data, int size) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), size);
  return size;
}

void gif_check(int rc, GifFileType* gif) {
  if (rc != GIF_OK) {
    int err = 0;
    EGifCloseFile(gif, &err);
    throw std::runtime_error("gif encoding failed");
  }
}

void gif_put_loop(GifFileType* gif) {
  static const unsigned char app[] = "NETSCAPE2.0";
  static const unsigned char loop[] = {1, 0, 0};
  gif_check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), gif);
  gif_check(EGifPutExtensionBlock(gif, 11, app), gif);
  gif_check(EGifPutExtensionBlock(gif, 3, loop), gif);
  gif_check(EGifPutExtensionTrailer(gif), gif);
}

void gif_put_frame(GifFileType* gif, const Canvas& c, bool animated) {
  if (animated) {
    unsigned char gce[4] = {0, 20, 0, 0};  // 0.2 s per frame
    gif_check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, gce), gif);
  }
  gif_check(EGifPutImageDesc(gif, 0, 0, c.width, c.height, false, nullptr), gif);
  std::vector<GifPixelType> line(static_cast<size_t>(c.width));
  for (int y = 0; y < c.height; ++y) {
    const uint8_t* p = &c.pixels[static_cast<size_t>(y) * c.width * 3];
    for (int x = 0; x < c.width; ++x, p += 3)
      line[x] = static_cast<GifPixelType>((p[0] / 43) * 36 + (p[1] / 43) * 6 + p[2] / 43);
    gif_check(EGifPutLine(gif, line.data(), c.width), gif);
  }
}

}  // namespace

std::string encode_png(const Canvas& c, PngFilters filters) {
  return write_png(c.width, c.height, 6, filters, [&](int y, uint8_t* row) {
    std::memcpy(row, &c.pixels[static_cast<size_t>(y) * c.width * 3],
                static_cast<size_t>(c.width) * 3);
  });
}

std::string encode_png_solid(int width, int height, Rgb color) {
  std::vector<uint8_t> line(static_cast<size_t>(width) * 3);
  for (size_t i = 0; i < line.size(); i += 3) {
    line[i] = color.r;
    line[i + 1] = color.g;
    line[i + 2] = color.b;
  }
  return write_png(width, height, 1, PngFilters::adaptive,
                   [&](int, uint8_t* row) { std::memcpy(row, line.data(), line.size()); });
}

std::string encode_jpeg(const Canvas& c, int quality) {
  jpeg_compress_struct cinfo;
  jpeg_error_mgr jerr;
  cinfo.err = jpeg_std_error(&jerr);
  jpeg_create_compress(&cinfo);
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = static_cast<JDIMENSION>(c.width);
  cinfo.image_height = static_cast<JDIMENSION>(c.height);
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row =
        const_cast<JSAMPROW>(&c.pixels[static_cast<size_t>(cinfo.next_scanline) * c.width * 3]);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  std::string out(reinterpret_cast<const char*>(buffer), size);
  jpeg_destroy_compress(&cinfo);
  free(buffer);
  return out;
}

namespace {

std::string write_gif(const std::vector<Canvas>& frames, int width, int height) {
  std::string out;
  int err = 0;
  GifFileType* gif = EGifOpen(&out, gif_append, &err);
  if (!gif) throw std::runtime_error("gif open failed");
  bool animated = frames.size() > 1;
  EGifSetGifVersion(gif, true);
  ColorMapObject* map = cube_palette();
  int rc = EGifPutScreenDesc(gif, width, height, 8, 0, map);
  GifFreeMapObject(map);
  gif_check(rc, gif);
  if (animated) gif_put_loop(gif);
  for (const Canvas& c : frames) gif_put_frame(gif, c, animated);
  if (EGifCloseFile(gif, &err) != GIF_OK) throw std::runtime_error("gif close failed");
  return out;
}

}  // namespace

std::string encode_gif(const std::vector<Canvas>& frames) {
  return write_gif(frames, frames[0].width, frames[0].height);
}

std::string encode_gif_on_screen(const Canvas& frame, int width, int height) {
  return write_gif({frame}, width, height);
}

std::string encode_webp(const Canvas& c, float quality) {
  uint8_t* data = nullptr;
  size_t size = WebPEncodeRGB(c.pixels.data(), c.width, c.height, c.width * 3, quality, &data);
  if (size == 0) throw std::runtime_error("webp encoding failed");
  std::string out(reinterpret_cast<const char*>(data), size);
  WebPFree(data);
  return out;
}

std::string encode_ico(const Canvas& c) {
  std::string png = encode_png(c);
  auto le16 = [](std::string& s, unsigned v) {
    s.push_back(static_cast<char>(v & 0xff));
    s.push_back(static_cast<char>((v >> 8) & 0xff));
  };
  std::string out;
  le16(out, 0);  // reserved
  le16(out, 1);  // type: icon
  le16(out, 1);  // one image
  out.push_back(static_cast<char>(c.width >= 256 ? 0 : c.width));
  out.push_back(static_cast<char>(c.height >= 256 ? 0 : c.height));
  out.push_back(0);  // palette size
  out.push_back(0);  // reserved
  le16(out, 1);      // colour planes
  le16(out, 32);     // bits per pixel
  le16(out, png.size() & 0xffff);
  le16(out, (png.size() >> 16) & 0xffff);
  le16(out, 22);  // offset of the image data
  le16(out, 0);
  return out + png;
}

std::string encode_svg(const Concept& look, int width, int height) {
  auto hex = [](Rgb c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return std::string(buf);
  };
  auto num = [](double v) { return std::to_string(static_cast<int>(v)); };
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"" +
      std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
      std::to_string(width) + " " + std::to_string(height) +
      "\">\n<defs><linearGradient id=\"g\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" "
      "stop-color=\"" +
      hex(look.top) + "\"/><stop offset=\"1\" stop-color=\"" + hex(look.bottom) +
      "\"/></linearGradient></defs>\n<rect width=\"100%\" height=\"100%\" fill=\"url(#g)\"/>\n";
  for (const Shape& sh : look.shapes) {
    double x = sh.x0 * width, y = sh.y0 * height, w = (sh.x1 - sh.x0) * width,
           h = (sh.y1 - sh.y0) * height;
    if (sh.kind == ShapeKind::ellipse) {
      s += "<ellipse cx=\"" + num(x + w / 2) + "\" cy=\"" + num(y + h / 2) + "\" rx=\"" +
           num(w / 2) + "\" ry=\"" + num(h / 2) + "\" fill=\"" + hex(sh.color) + "\"/>\n";
    } else if (sh.kind == ShapeKind::triangle) {
      s += "<polygon points=\"" + num(x + w / 2) + "," + num(y) + " " + num(x + w) + "," +
           num(y + h) + " " + num(x) + "," + num(y + h) + "\" fill=\"" + hex(sh.color) + "\"/>\n";
    } else {
      s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" +
           num(h) + "\" fill=\"" + hex(sh.color) + "\"/>\n";
    }
  }
  return s + "</svg>\n";
}

const char* mime_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::jpeg:
      return "image/jpeg";
    case ImageFormat::png:
      return "image/png";
    case ImageFormat::gif:
    case ImageFormat::gif_animated:
      return "image/gif";
    case ImageFormat::webp:
      return "image/webp";
    case ImageFormat::svg:
      return "image/svg+xml";
    case ImageFormat::ico:
      return "image/x-icon";
  }
  return "application/octet-stream";
}

const char* served_mime_of(ImageFormat f) {
  return f == ImageFormat::ico ? "image/vnd.microsoft.icon" : mime_of(f);
}

const char* ext_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::jpeg:
      return "jpg";
    case ImageFormat::png:
      return "png";
    case ImageFormat::gif:
    case ImageFormat::gif_animated:
      return "gif";
    case ImageFormat::webp:
      return "webp";
    case ImageFormat::svg:
      return "svg";
    case ImageFormat::ico:
      return "ico";
  }
  return "bin";
}

EncodedImage make_image(const Concept& look, int width, int height, ImageFormat format, int quality,
                        PngFilters filters) {
  EncodedImage img{"", mime_of(format), ext_of(format), width, height, served_mime_of(format)};
  switch (format) {
    case ImageFormat::jpeg:
      img.bytes = encode_jpeg(render(look, width, height), quality);
      break;
    case ImageFormat::png:
      img.bytes = encode_png(render(look, width, height), filters);
      break;
    case ImageFormat::gif:
      img.bytes = encode_gif({render(look, width, height)});
      break;
    case ImageFormat::gif_animated: {
      std::vector<Canvas> frames;
      for (int f = 0; f < 3; ++f) frames.push_back(render(look, width, height, f));
      img.bytes = encode_gif(frames);
      break;
    }
    case ImageFormat::webp:
      img.bytes = encode_webp(render(look, width, height), static_cast<float>(quality));
      break;
    case ImageFormat::svg:
      img.bytes = encode_svg(look, width, height);
      break;
    case ImageFormat::ico:
      img.bytes = encode_ico(render(look, width, height));
      break;
  }
  return img;
}

}  // namespace strata::sample
