#include "books/extract.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>

#include "books/abbyy.hpp"
#include "books/compat.hpp"
#include "books/epub.hpp"
#include "books/item.hpp"
#include "books/item_zip.hpp"
#include "books/jp2.hpp"
#include "books/jpeg.hpp"
#include "books/meta.hpp"
#include "books/pictures.hpp"
#include "books/scandata.hpp"
#include "books/stored_zip.hpp"
#include "books/tiff.hpp"
#include "core/json.hpp"

namespace strata::books {
namespace fs = std::filesystem;
namespace {

constexpr uint64_t kSeedMinimumBytes = 10000;  // the script gives up on smaller abbyy.gz / scandata

struct Context {
  const ExtractOptions& options;
  ProblemLog& problems;
  ItemResult result;
  ItemFiles files;

  void problem(const fs::path& file, uint64_t offset, const std::string& kind,
               const std::string& detail) {
    problems.report({file.empty() ? files.identifier : file.string(), offset, kind,
                     files.identifier + ": " + detail});
  }
};

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The crop of `box` (Abbyy coordinates on a page_w x page_h page; 0 = use as is) as JPEG.
// Boxes are scaled when the image is not the size Abbyy saw, and clipped to the image.
std::string crop_jpeg(std::string_view page, Box box, int page_w, int page_h,
                      const ExtractOptions& o, bool& scaled) {
  const PageFormat format = page_format_of(page);
  if (format == PageFormat::unknown)
    throw std::runtime_error("page image is neither JPEG 2000, JPEG nor TIFF");
  int width = 0, height = 0, components = 0;
  if (format == PageFormat::jp2) {
    const Jp2Info info = jp2_info(page);
    width = info.width;
    height = info.height;
    components = info.components;
  } else {
    const Box bounds = format == PageFormat::tiff ? tiff_bounds(page) : jpeg_bounds(page);
    width = bounds.r;
    height = bounds.b;
  }
  scaled = page_w > 0 && page_h > 0 && (page_w != width || page_h != height);
  if (scaled) {
    const double sx = double(width) / page_w, sy = double(height) / page_h;
    box = {int(std::floor(box.l * sx)), int(std::floor(box.t * sy)), int(std::ceil(box.r * sx)),
           int(std::ceil(box.b * sy))};
  }
  box = clip(box, width, height);
  if (box.empty()) throw std::runtime_error("picture box lies outside the page image");
  if (format == PageFormat::jpeg) return jpeg_encode(jpeg_decode_region(page, box), o.quality);
  if (format == PageFormat::tiff) return jpeg_encode(tiff_decode_region(page, box), o.quality);
  JpegWriter writer(box.width(), box.height(), components >= 3 ? 3 : 1, o.quality);
  jp2_decode_strips(page, box, o.strip_rows, [&](const Raster& strip) { writer.write(strip); });
  return writer.finish();
}

std::optional<std::string> load_page(Context& c, PageImages& images, int leaf) {
  if (!images.has(leaf)) {
    c.problem(c.files.images, 0, "missing_page_image", "no image of leaf " + std::to_string(leaf));
    return std::nullopt;
  }
  try {
    return images.read(leaf);
  } catch (const ItemError& e) {
    c.problem(e.file(), e.offset(), "bad_page_image", e.what());
  }
  return std::nullopt;
}

// ---- compat mode ----------------------------------------------------------------------

void run_compat(Context& c) {
  const ItemFiles& f = c.files;
  if (f.abbyy.empty() || f.scandata.empty() || f.images.empty()) {
    c.problem({}, 0, "incomplete_item",
              "the seed needs _abbyy.gz, _scandata.xml and _jp2.zip/_jpg.zip");
    c.result.skipped = true;
    return;
  }
  std::error_code ec;
  if (fs::file_size(f.abbyy, ec) < kSeedMinimumBytes ||
      fs::file_size(f.scandata, ec) < kSeedMinimumBytes) {
    c.result.counters.add("books_too_small_for_seed");
    c.result.skipped = true;
    return;
  }
  CompatBook book(f.identifier, f.image_prefix, compat_scandata(read_whole(f.scandata)));
  read_decoded(f.abbyy, [&](std::string_view chunk) { book.feed(chunk); });
  book.finish();
  c.result.counters.add("pictures", static_cast<int64_t>(book.images().size()));
  if (!book.enough_images()) {
    c.result.counters.add("books_too_few_images");
    c.result.skipped = true;
    return;
  }
  PageImages images(f.images);
  const std::string folder = f.identifier + "_imgs/";
  fs::create_directories(c.options.out);
  StoredZipWriter zip((c.options.out / (f.identifier + "_imgs.zip")).string());
  zip.add(folder, {});
  zip.add(folder + f.identifier + ".imageslist.txt", book.tsv());
  std::map<int, std::string> page;  // the current leaf's bytes (rows come in leaf order)
  for (const CompatImage& image : book.images()) {
    if (!page.count(image.leaf)) {
      page.clear();
      if (auto bytes = load_page(c, images, image.leaf))
        page[image.leaf] = std::move(*bytes);
      else
        continue;
    }
    try {
      bool scaled = false;
      zip.add(folder + image.file, crop_jpeg(page[image.leaf], image.box, 0, 0, c.options, scaled));
      c.result.counters.add("crops");
    } catch (const std::exception& e) {
      c.problem(f.images, 0, "bad_page_image",
                "leaf " + std::to_string(image.leaf) + ": " + e.what());
    }
  }
  zip.close();
  c.result.counters.add("page_bytes_read", static_cast<int64_t>(images.bytes_read()));
}

// ---- default mode ---------------------------------------------------------------------

bool hidden_leaf(const Leaf& leaf) {
  return !leaf.access || leaf.type == PageType::cover || leaf.type == PageType::color_card ||
         leaf.type == PageType::white_card || leaf.type == PageType::delete_;
}

bool corner_artifact(const Picture& p) {
  const int g = kJoinGap;
  const int borders = (p.box.l <= g) + (p.box.t <= g) + (p.box.r >= p.page_width - g) +
                      (p.box.b >= p.page_height - g);
  return borders >= 2 && p.box.area() * 20 < static_cast<long long>(p.page_width) * p.page_height;
}

// The first filter that drops the picture, or nullptr.
const char* dropped_by(const Picture& p, const Leaf* leaf, int leaves, const Filters& f) {
  if (f.page_type && leaf && hidden_leaf(*leaf)) return "page_type";
  if (f.first_last && (p.page < 4 || p.page >= leaves - 5)) return "first_last";
  if (f.size && (p.box.width() < f.min_side || p.box.height() < f.min_side)) return "size";
  const double aspect = double(p.box.width()) / p.box.height();
  if (f.aspect && (aspect <= 0.3 || 1 / aspect <= 0.21)) return "aspect";
  if (f.edge && corner_artifact(p)) return "edge";
  return nullptr;
}

struct Collected {
  std::vector<Picture> pictures;
  int pages = 0;
  bool complete = true;
};

Collected collect(Context& c) {
  Collected out;
  PictureCollector collector;
  AbbyyReader reader([&](AbbyyPage&& page) { collector.add(page); });
  try {
    read_decoded(c.files.abbyy, [&](std::string_view chunk) { reader.feed(chunk); });
    reader.finish();
  } catch (const AbbyyError& e) {
    c.problem(c.files.abbyy, e.offset(), "bad_abbyy",
              std::string(e.what()) + " (after " + std::to_string(reader.pages()) + " pages)");
    out.complete = false;
  } catch (const ItemError& e) {
    c.problem(e.file(), e.offset(), "bad_abbyy", e.what());
    out.complete = false;
  }
  collector.finish();
  out.pictures = std::move(collector.pictures());
  out.pages = reader.pages();
  if (out.complete && reader.document().declared_pages >= 0 &&
      reader.document().declared_pages != out.pages)
    c.problem(c.files.abbyy, 0, "abbyy_pages_count",
              "pagesCount says " + std::to_string(reader.document().declared_pages) +
                  ", file has " + std::to_string(out.pages));
  return out;
}

Json image_json(const Context& c, const Picture& p, const Leaf* leaf, int image,
                const std::string& file, const std::string& member) {
  const std::string& id = c.files.identifier;
  Json j{{"identifier", id},
         {"leaf", leaf ? leaf->leaf : p.page},
         {"image", image},
         {"file", file},
         {"width", p.box.width()},
         {"height", p.box.height()},
         {"box", {p.box.l, p.box.t, p.box.r, p.box.b}},
         {"blocks", p.blocks},
         {"caption", p.caption},
         {"pre_text", p.pre_text},
         {"post_text", p.post_text},
         {"image_url",
          "https://archive.org/download/" + id + "/" + c.files.images.filename().string() + "/" +
              member + "#xywh=" + std::to_string(p.box.l) + "," + std::to_string(p.box.t) + "," +
              std::to_string(p.box.width()) + "," + std::to_string(p.box.height())}};
  if (leaf && leaf->viewer_index) {
    j["page_index"] = *leaf->viewer_index;
    j["page_url"] =
        "https://archive.org/details/" + id + "/page/n" + std::to_string(*leaf->viewer_index);
  }
  if (leaf && !leaf->printed_page.empty()) j["printed_page"] = leaf->printed_page;
  if (leaf) j["page_type"] = name_of(leaf->type);
  return j;
}

// The catalogue record (meta.xml) and the item's counts, for whoever indexes the crops.
void write_book_json(Context& c, const fs::path& path) {
  Json book{{"identifier", c.files.identifier}};
  if (!c.files.meta.empty()) {
    try {
      book = to_json(parse_meta(read_whole(c.files.meta)));
      book["identifier"] = c.files.identifier;
    } catch (const MetaError& e) {
      c.problem(c.files.meta, 0, "bad_meta", e.what());
    }
  }
  write_file(path, book.dump() + "\n");
}

void run_default(Context& c) {
  const ItemFiles& f = c.files;
  if (f.abbyy.empty() || f.images.empty()) {
    c.problem({}, 0, "incomplete_item",
              "an item needs _abbyy.gz (or .xml) and _jp2.zip (or _jpg.zip)");
    c.result.skipped = true;
    return;
  }
  std::optional<Scandata> scandata;
  if (f.scandata.empty()) {
    c.result.counters.add("items_without_scandata");
  } else {
    try {
      scandata = parse_scandata(read_whole(f.scandata));
    } catch (const ScandataError& e) {
      c.problem(f.scandata, e.offset(), "bad_scandata", e.what());
    }
  }
  Collected found = collect(c);
  c.result.counters.add("pages", found.pages);
  c.result.counters.add("pictures", static_cast<int64_t>(found.pictures.size()));
  const int leaves = scandata ? static_cast<int>(scandata->leaves.size()) : found.pages;
  if (scandata && found.complete && leaves != found.pages) {
    // Abbyy names no leaf: pages pair with leaves by position only, so refuse to guess.
    c.problem(f.abbyy, 0, "page_count_mismatch",
              std::to_string(found.pages) + " Abbyy pages, " + std::to_string(leaves) +
                  " scandata leaves");
    c.result.skipped = true;
    return;
  }
  std::vector<const Picture*> kept;
  std::map<int, bool> pages_with_pictures;
  for (const Picture& p : found.pictures) {
    const Leaf* leaf =
        scandata && p.page < leaves ? &scandata->leaves[static_cast<size_t>(p.page)] : nullptr;
    if (const char* filter = dropped_by(p, leaf, leaves, c.options.filters)) {
      c.result.counters.add(std::string("dropped_") + filter);
      continue;
    }
    kept.push_back(&p);
    pages_with_pictures[p.page] = true;
  }
  if (c.options.filters.book_minimum && (kept.size() < 4 || pages_with_pictures.size() < 3)) {
    c.result.counters.add("dropped_book_minimum", static_cast<int64_t>(kept.size()));
    kept.clear();
  }
  PageImages images(f.images);
  const fs::path folder = c.options.out / f.identifier;
  fs::create_directories(folder);
  write_book_json(c, folder / "book.json");
  std::ofstream jsonl(folder / "images.jsonl", std::ios::binary);
  std::optional<std::string> page;
  int page_of_bytes = -1, image = 0;
  for (const Picture* p : kept) {
    const Leaf* leaf = scandata ? &scandata->leaves[static_cast<size_t>(p->page)] : nullptr;
    const int leaf_num = leaf ? leaf->leaf : p->page;
    if (page_of_bytes != leaf_num) {
      page = load_page(c, images, leaf_num);
      page_of_bytes = leaf_num;
    }
    if (!page) continue;
    const int viewer = leaf && leaf->viewer_index ? *leaf->viewer_index : p->page;
    const std::string file =
        f.identifier + ".img." + std::to_string(image) + "." +
        std::string(4 - std::min<size_t>(4, std::to_string(viewer).size()), '0') +
        std::to_string(viewer) + ".jpg";
    std::string jpeg;
    bool scaled = false;
    try {
      jpeg = crop_jpeg(*page, p->box, p->page_width, p->page_height, c.options, scaled);
    } catch (const std::exception& e) {
      c.problem(f.images, 0, "bad_page_image",
                "leaf " + std::to_string(leaf_num) + ": " + e.what());
      continue;
    }
    write_file(folder / file, jpeg);
    if (scaled) c.result.counters.add("crops_scaled_to_image");
    jsonl << image_json(c, *p, leaf, image, file, images.member_name(leaf_num)).dump() << "\n";
    c.result.counters.add("crops");
    ++image;
  }
  if (!jsonl) throw std::runtime_error("cannot write " + (folder / "images.jsonl").string());
  c.result.counters.add("page_bytes_read", static_cast<int64_t>(images.bytes_read()));
}

// ---- EPUB ---------------------------------------------------------------------------------

// Every manifest image written out as it is (no re-encoding) with images.jsonl and book.json.
void run_epub(Context& c, const fs::path& epub) {
  const EpubBook book = read_epub(epub);
  const fs::path folder = c.options.out / c.files.identifier;
  fs::create_directories(folder);
  const Json meta{{"identifier", c.files.identifier},
                  {"title", book.title},
                  {"creators", book.creators},
                  {"language", book.language},
                  {"date", book.date},
                  {"book_identifier", book.identifier},
                  {"subjects", book.subjects},
                  {"modified", book.modified}};
  write_file(folder / "book.json", meta.dump() + "\n");
  std::ofstream jsonl(folder / "images.jsonl", std::ios::binary);
  int image = 0;
  for (const EpubImage& i : book.images) {
    std::string bytes;
    try {
      bytes = read_epub_member(epub, i.path);
    } catch (const EpubError& e) {
      c.problem(epub, 0, "missing_epub_image", e.what());
      continue;
    }
    const std::string file = std::to_string(image++) + "_" + fs::path(i.path).filename().string();
    write_file(folder / file, bytes);
    const Json row{{"identifier", c.files.identifier}, {"file", file},   {"member", i.path},
                   {"media_type", i.media_type},       {"alt", i.alt},   {"caption", i.caption},
                   {"document", i.document},           {"uses", i.uses}, {"cover", i.cover}};
    jsonl << row.dump() << "\n";
    c.result.counters.add("epub_images");
  }
  if (book.missing_documents > 0)
    c.problem(epub, 0, "missing_epub_document",
              std::to_string(book.missing_documents) + " spine documents missing");
  if (!jsonl) throw std::runtime_error("cannot write " + (folder / "images.jsonl").string());
}

// An item packed as one ZIP: unpacked into a scratch folder in the output, read as a folder.
void run_item_zip(Context& c, const fs::path& zip) {
  const fs::path scratch = c.options.out / (".unpacked-" + zip.stem().string());
  struct ScratchFolder {
    fs::path path;
    ~ScratchFolder() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } scratch_folder{scratch};
  c.files = locate_item(unpack_item_zip(zip, scratch));
  if (c.options.compat)
    run_compat(c);
  else
    run_default(c);
}

}  // namespace

bool set_filter(Filters& filters, const std::string& name, bool on) {
  const std::map<std::string, bool Filters::*> kNames{
      {"page-type", &Filters::page_type},   {"size", &Filters::size},
      {"aspect", &Filters::aspect},         {"edge", &Filters::edge},
      {"first-last", &Filters::first_last}, {"book-minimum", &Filters::book_minimum}};
  const auto it = kNames.find(name);
  if (it == kNames.end()) return false;
  filters.*(it->second) = on;
  return true;
}

ItemResult extract_item(const fs::path& item, const ExtractOptions& options, ProblemLog& problems) {
  Context c{options, problems, {}, {}};
  c.files.identifier = item.filename().string();  // until the item is located
  try {
    if (item.extension() == ".epub") {
      c.files.identifier = item.stem().string();
      run_epub(c, item);
    } else if (is_item_zip(item)) {
      c.files.identifier = item.stem().string();
      run_item_zip(c, item);
    } else {
      c.files = locate_item(item);
      if (options.compat)
        run_compat(c);
      else
        run_default(c);
    }
  } catch (const ItemError& e) {
    c.problem(e.file(), e.offset(), "bad_item", e.what());
    c.result.skipped = true;
  } catch (const AbbyyError& e) {
    c.problem(c.files.abbyy, e.offset(), "bad_abbyy", e.what());
    c.result.skipped = true;
  } catch (const EpubError& e) {
    c.problem(item, 0, "bad_epub", e.what());
    c.result.skipped = true;
  }
  c.result.counters.add(c.result.skipped ? "items_skipped" : "items_done");
  return std::move(c.result);
}

}  // namespace strata::books
