#include "books/synthetic.hpp"

#include <zip.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "books/jp2.hpp"
#include "books/jpeg.hpp"
#include "books/tiff.hpp"

namespace strata::books {
namespace fs = std::filesystem;
namespace {

constexpr const char* kWords[] = {"the",       "river", "ancient",  "city",   "harbour",
                                  "engraving", "plate", "north",    "church", "garden",
                                  "bridge",    "tower", "portrait", "figure", "island",
                                  "voyage",    "mill",  "market",   "castle", "valley"};
constexpr int kMargin = 40, kLineHeight = 24;

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

std::string words(uint64_t seed, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    if (i) out += ' ';
    out += kWords[mix(seed * 131 + static_cast<uint64_t>(i)) % std::size(kWords)];
  }
  return out;
}

std::vector<SyntheticLeaf> plan_leaves(int n) {
  std::vector<SyntheticLeaf> leaves;
  for (int i = 0; i < n; ++i) leaves.push_back({i, PageType::normal, true});
  leaves[0] = {0, PageType::color_card, false};
  leaves[1].type = PageType::cover;
  leaves[9].access = false;  // a rescanned leaf
  leaves[static_cast<size_t>(n - 2)].type = PageType::cover;
  leaves[static_cast<size_t>(n - 1)] = {n - 1, PageType::color_card, false};
  return leaves;
}

// Boxes are planned on a 640 x 880 page and scaled to the page size asked for.
std::vector<SyntheticBlock> plan_pictures(const SyntheticOptions& o) {
  const int w = o.page_width, h = o.page_height, last = o.leaves - 1;
  std::vector<SyntheticBlock> planned{
      {5, {140, 120, 500, 440}, "Fig. 1. The old harbour at dawn", false},
      {6, {100, 60, 500, 380}, "", true},
      {6, {60, 480, 310, 730}, "", false},
      {7, {70, 60, 570, 480}, "", false},
      {7, {40, 560, 600, 600}, "", false},
      {8, {20, 30, 620, 850}, "", false},
      {9, {120, 200, 520, 600}, "", false},
      {10, {160, 100, 480, 460}, "Plate II. A mill in the valley", false},
      {12, {150, 300, 500, 650}, "", false},
      {last - 1, {0, 0, 640, 880}, "", false}};
  for (auto& p : planned)
    p.box = {p.box.l * w / 640, p.box.t * h / 880, p.box.r * w / 640, p.box.b * h / 880};
  return planned;
}

// Text blocks of a leaf: rows above and below its pictures, `width` the column.
std::vector<std::pair<Box, std::string>> plan_text(const SyntheticItem& item,
                                                   const SyntheticOptions& o, int leaf) {
  std::vector<std::pair<Box, std::string>> blocks;
  int top = kMargin, bottom = o.page_height - kMargin;
  std::vector<Box> taken;
  for (const auto& p : item.pictures)
    if (p.leaf == leaf)
      taken.push_back(
          {p.box.l, p.box.t, p.box.r, p.box.b + (p.caption.empty() ? 0 : 2 * kLineHeight)});
  int row = 0;
  for (int y = top; y + kLineHeight * 3 <= bottom; y += kLineHeight * 4, ++row) {
    const Box box{kMargin, y, o.page_width - kMargin, y + kLineHeight * 3};
    bool clear = true;
    for (const Box& t : taken) clear = clear && !touches(box, t, 4);
    if (clear)
      blocks.push_back({box, words(o.seed * 1000 + static_cast<uint64_t>(leaf * 50 + row), 14)});
  }
  return blocks;
}

void put_pixel(Raster& r, int x, int y, uint8_t v0, uint8_t v1, uint8_t v2) {
  uint8_t* p = r.pixels.data() + (static_cast<size_t>(y) * r.width + x) * r.channels;
  p[0] = v0;
  if (r.channels == 3) {
    p[1] = v1;
    p[2] = v2;
  }
}

std::string line_xml(const Box& line, const std::string& text) {
  std::string xml = "<line baseline=\"" + std::to_string(line.b - 4) + "\" l=\"" +
                    std::to_string(line.l) + "\" t=\"" + std::to_string(line.t) + "\" r=\"" +
                    std::to_string(line.r) + "\" b=\"" + std::to_string(line.b) +
                    "\"><formatting lang=\"English\">";
  const int step = std::max(1, line.width() / std::max<int>(1, static_cast<int>(text.size())));
  for (size_t i = 0; i < text.size(); ++i) {
    const int l = line.l + static_cast<int>(i) * step;
    xml += "<charParams l=\"" + std::to_string(l) + "\" t=\"" + std::to_string(line.t) + "\" r=\"" +
           std::to_string(l + step) + "\" b=\"" + std::to_string(line.b) + "\" charConfidence=\"" +
           std::to_string(60 + (l * 7) % 40) + "\">" + text[i] + "</charParams>";
  }
  return xml + "</formatting></line>\n";
}

std::string box_attrs(const Box& b) {
  return "l=\"" + std::to_string(b.l) + "\" t=\"" + std::to_string(b.t) + "\" r=\"" +
         std::to_string(b.r) + "\" b=\"" + std::to_string(b.b) + "\"";
}

std::string text_block_xml(const Box& box, const std::string& text) {
  std::string xml = "<block blockType=\"Text\" " + box_attrs(box) + ">\n<region><rect " +
                    box_attrs(box) + "></rect></region>\n<text>\n<par align=\"Left\">\n";
  // The words wrapped over the block's lines.
  const size_t per_line = text.size() / 3 + 1;
  size_t from = 0;
  for (int i = 0; i < 3 && from < text.size(); ++i) {
    size_t to = std::min(text.size(), from + per_line);
    while (to < text.size() && text[to] != ' ') ++to;
    xml += line_xml({box.l, box.t + i * kLineHeight, box.r, box.t + (i + 1) * kLineHeight - 4},
                    text.substr(from, to - from));
    from = to + 1;
  }
  return xml + "</par>\n</text>\n</block>\n";
}

std::string picture_xml(const Box& box) {
  return "<block blockType=\"Picture\" " + box_attrs(box) + ">\n<region><rect " + box_attrs(box) +
         "></rect></region>\n</block>\n";
}

std::string abbyy_xml(const SyntheticItem& item, const SyntheticOptions& o) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document version=\"1.0\" producer=\"LuraTech "
      "XML "
      "Exporter for ABBYY FineReader\" pagesCount=\"" +
      std::to_string(o.leaves) +
      "\" xmlns=\"http://www.abbyy.com/FineReader_xml/FineReader6-schema-v1.xml\">\n";
  for (int leaf = 0; leaf < o.leaves; ++leaf) {
    xml += "<page width=\"" + std::to_string(o.page_width) + "\" height=\"" +
           std::to_string(o.page_height) + "\" resolution=\"300\" originalCoords=\"true\">\n";
    std::vector<std::pair<int, std::string>> blocks;  // top edge, XML: written top to bottom
    for (const auto& p : item.pictures) {
      if (p.leaf != leaf) continue;
      if (p.split) {
        const int mid = (p.box.t + p.box.b) / 2;
        blocks.push_back({p.box.t, picture_xml({p.box.l, p.box.t, p.box.r, mid}) +
                                       picture_xml({p.box.l, mid, p.box.r, p.box.b})});
      } else {
        blocks.push_back({p.box.t, picture_xml(p.box)});
      }
      if (!p.caption.empty())
        blocks.push_back(
            {p.box.b + 8, text_block_xml({p.box.l, p.box.b + 8, p.box.r, p.box.b + 8 + kLineHeight},
                                         p.caption)});
    }
    for (const auto& [box, text] : plan_text(item, o, leaf))
      blocks.push_back({box.t, text_block_xml(box, text)});
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& b : blocks) xml += b.second;
    xml += "</page>\n";
  }
  return xml + "</document>\n";
}

std::string scandata_xml(const SyntheticItem& item, const SyntheticOptions& o) {
  std::string xml = "<book>\n<bookData>\n<bookId>" + o.identifier + "</bookId>\n<leafCount>" +
                    std::to_string(o.leaves) +
                    "</leafCount>\n<dpi>300</dpi>\n</bookData>\n<pageData>\n";
  int printed = 0;
  for (const auto& leaf : item.leaves) {
    const bool numbered = leaf.type == PageType::normal && leaf.access;
    xml +=
        "<page leafNum=\"" + std::to_string(leaf.leaf) + "\">\n<pageType>" + name_of(leaf.type) +
        "</pageType>\n<addToAccessFormats>" + (leaf.access ? "true" : "false") +
        "</addToAccessFormats>\n<origWidth>" + std::to_string(o.page_width + 200) +
        "</origWidth>\n<origHeight>" + std::to_string(o.page_height + 200) +
        "</origHeight>\n<rotateDegree>" + (leaf.leaf % 2 ? "90" : "-90") +
        "</rotateDegree>\n<skewAngle>0.0</skewAngle>\n<skewConf>1.0</skewConf>\n<skewActive>false</"
        "skewActive>\n"
        "<cropBox>\n<x>100</x>\n<y>100</y>\n<w>" +
        std::to_string(o.page_width) + "</w>\n<h>" + std::to_string(o.page_height) +
        "</h>\n</cropBox>\n<cropBoxAutoDetect>true</cropBoxAutoDetect>\n<handSide>" +
        (leaf.leaf % 2 ? "RIGHT" : "LEFT") + "</handSide>\n" +
        (numbered ? "<pageNumber>" + std::to_string(++printed) + "</pageNumber>\n" : "") +
        "<origFileName>" + std::to_string(leaf.leaf) + ".jpg</origFileName>\n" +
        // Per-leaf capture facts as IA's scanning software records them: real scandata is
        // over the seed's 10,000-byte floor for any book.
        "<captureTime>2026-01-01T12:" + std::to_string(10 + leaf.leaf % 50) +
        ":00Z</captureTime>\n<updateTime>2026-01-01T13:00:00Z</updateTime>\n<skewScanTime>0.42</"
        "skewScanTime>\n"
        "<gtoFinalCropped>true</gtoFinalCropped>\n<hasCropBox>true</hasCropBox>\n<ppi>300</ppi>\n"
        "<colorProfile>sRGB "
        "IEC61966-2.1</colorProfile>\n<cameraSerial>SYNTHETIC-0001</cameraSerial>\n</page>\n";
  }
  return xml + "</pageData>\n</book>\n";
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_gzip(const fs::path& path, const std::string& text) {
  gzFile out = gzopen(path.c_str(), "wb6");
  if (!out ||
      gzwrite(out, text.data(), static_cast<unsigned>(text.size())) !=
          static_cast<int>(text.size()) ||
      gzclose(out) != Z_OK)
    throw std::runtime_error("cannot write " + path.string());
}

void write_pages_zip(const SyntheticItem& item, const SyntheticOptions& o, const fs::path& path) {
  int code = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!zip) throw std::runtime_error("cannot write " + path.string());
  const std::string ext = o.jpeg_pages ? "jpg" : o.tiff_pages ? "tif" : "jp2";
  for (int leaf = 0; leaf < o.leaves; ++leaf) {
    const Raster page = render_page(item, o, leaf);
    std::string bytes = o.jpeg_pages   ? jpeg_encode(page, 95)
                        : o.tiff_pages ? tiff_encode(page, true)
                                       : jp2_encode_lossless(page);
    char number[16];
    std::snprintf(number, sizeof number, "%04d", leaf);
    const std::string name =
        o.identifier + "_" + ext + "/" + o.identifier + "_" + number + "." + ext;
    void* copy = std::malloc(bytes.size());
    std::memcpy(copy, bytes.data(), bytes.size());
    zip_source_t* source = zip_source_buffer(zip, copy, bytes.size(), 1);
    const zip_int64_t index =
        source ? zip_file_add(zip, name.c_str(), source, ZIP_FL_OVERWRITE) : -1;
    if (index < 0) {
      zip_source_free(source);
      zip_discard(zip);
      throw std::runtime_error("cannot add " + name);
    }
    zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0);
  }
  if (zip_close(zip) != 0) {
    zip_discard(zip);
    throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace

Raster render_page(const SyntheticItem& item, const SyntheticOptions& o, int leaf) {
  Raster r{o.page_width, o.page_height, o.channels, {}};
  r.pixels.assign(static_cast<size_t>(r.width) * r.height * r.channels, 244);
  for (const auto& [box, text] : plan_text(item, o, leaf))
    for (int y = box.t; y < box.b; ++y)
      if ((y - box.t) % kLineHeight < kLineHeight - 8)
        for (int x = box.l; x < box.r; ++x)
          if (mix(static_cast<uint64_t>(x / 9) * 7919 + static_cast<uint64_t>(y / kLineHeight)) % 5)
            put_pixel(r, x, y, 40, 40, 40);
  for (const auto& p : item.pictures) {
    if (p.leaf != leaf) continue;
    // Every pixel depends on its place on the page: a crop taken a pixel off does not match.
    for (int y = p.box.t; y < p.box.b; ++y)
      for (int x = p.box.l; x < p.box.r; ++x)
        put_pixel(r, x, y, static_cast<uint8_t>(x * 3 + y + leaf * 40),
                  static_cast<uint8_t>((x ^ y) + leaf), static_cast<uint8_t>((x * y) / 7 + leaf));
  }
  return r;
}

SyntheticItem write_synthetic_item(const fs::path& parent, const SyntheticOptions& o) {
  if (o.leaves < 12) throw std::runtime_error("a synthetic book needs at least 12 leaves");
  SyntheticItem item;
  item.folder = parent / o.identifier;
  item.leaves = plan_leaves(o.leaves);
  item.pictures = plan_pictures(o);
  for (int leaf = 0; leaf < o.leaves; ++leaf) {
    item.page_text.emplace_back();
    for (auto& [box, text] : plan_text(item, o, leaf)) item.page_text.back().push_back(text);
  }
  fs::create_directories(item.folder);
  const fs::path base = item.folder / o.identifier;
  write_gzip(base.string() + "_abbyy.gz", abbyy_xml(item, o));
  write_text(base.string() + "_scandata.xml", scandata_xml(item, o));
  write_text(
      base.string() + "_meta.xml",
      "<metadata>\n<identifier>" + o.identifier +
          "</identifier>\n<title>A Synthetic Book of Plates</title>\n"
          "<creator>Ada Strata</creator>\n<subject>Harbours</subject>\n<subject>Mills</subject>\n"
          "<date>1884</date>\n<language>eng</language>\n"
          "<scandate>20110324120000</scandate>\n</metadata>\n");
  write_pages_zip(item, o,
                  base.string() + "_" +
                      (o.jpeg_pages   ? "jpg"
                       : o.tiff_pages ? "tif"
                                      : "jp2") +
                      ".zip");
  return item;
}

}  // namespace strata::books
