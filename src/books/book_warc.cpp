#include "books/book_warc.hpp"

#include <fstream>
#include <map>
#include <vector>

#include "archive/warc_writer.hpp"
#include "books/epub_warc.hpp"
#include "books/item.hpp"
#include "extract/book_page.hpp"

namespace strata::books {
namespace fs = std::filesystem;
namespace {

std::string text_of(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The scan date as a WARC date (14 digits), empty (now) when meta.xml had none.
std::string scan_date(const Json& book) {
  std::string date = text_of(book, "scandate");
  if (date.size() >= 14 && date.find_first_not_of("0123456789") >= 14) return date.substr(0, 14);
  return {};
}

struct Crop {
  uint64_t offset = 0;  // of its line in images.jsonl
  Json line;
};

// The lines of images.jsonl that name a crop file, each with its line's offset.
std::vector<Crop> read_crops(const fs::path& jsonl, ProblemLog& problems) {
  std::vector<Crop> crops;
  std::ifstream in(jsonl, std::ios::binary);
  if (!in) {
    problems.report({jsonl.string(), 0, "book_images_missing", "cannot read images.jsonl"});
    return crops;
  }
  uint64_t offset = 0;
  for (std::string line; std::getline(in, line); offset += line.size() + 1) {
    Json j = Json::parse(line, nullptr, false);
    if (!j.is_object() || text_of(j, "file").empty() || text_of(j, "image_url").empty() ||
        text_of(j, "page_url").empty()) {
      problems.report({jsonl.string(), offset, "book_image_line_malformed",
                       "not a crop line with file, image_url and page_url"});
      continue;
    }
    crops.push_back({offset, std::move(j)});
  }
  return crops;
}

std::string joined_text(const Json& crop) {
  std::string pre = text_of(crop, "pre_text"), post = text_of(crop, "post_text");
  if (pre.empty() || post.empty()) return pre + post;
  return pre + "\n" + post;
}

}  // namespace

std::string crop_capture_url(std::string_view image_url) {
  std::string url(image_url);
  if (size_t hash = url.find('#'); hash != std::string::npos) url[hash] = '?';
  return url;
}

Json book_facts(const Json& book, const Json& crop) {
  Json facts{{"identifier", text_of(book, "identifier")},
             {"title", text_of(book, "title")},
             {"author", book.value("creators", Json::array())},
             {"subject", book.value("subjects", Json::array())},
             {"language", text_of(book, "language")},
             {"page", text_of(crop, "printed_page")},
             {"imageUrl", text_of(crop, "image_url")}};
  if (auto year = book.find("year"); year != book.end()) facts["year"] = *year;
  for (const auto& [from, to] : {std::pair{"page_index", "pageIndex"}, std::pair{"leaf", "leaf"}})
    if (auto n = crop.find(from); n != crop.end() && n->is_number_integer()) facts[to] = *n;
  return facts;
}

BookWarcResult write_book_warc(const fs::path& extracted, const fs::path& warc,
                               ProblemLog& problems) {
  BookWarcResult result;
  Json book = Json::object();
  if (std::ifstream in(extracted / "book.json"); in) {
    book = Json::parse(in, nullptr, false);
    if (!book.is_object()) book = Json::object();
  }
  const std::vector<Crop> crops = read_crops(extracted / "images.jsonl", problems);
  std::map<std::string, int> per_page;  // crops per page URL: the reference's imagesInPage
  for (const Crop& crop : crops) ++per_page[text_of(crop.line, "page_url")];
  const std::string date = scan_date(book);
  archive::WarcWriter out(warc);
  out.write_warcinfo({{"software", "strata books warc"}, {"isPartOf", text_of(book, "identifier")}},
                     warc.filename().string());
  for (const Crop& crop : crops) {
    const fs::path file = extracted / text_of(crop.line, "file");
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      problems.report({(extracted / "images.jsonl").string(), crop.offset, "book_crop_missing",
                       file.filename().string()});
      ++result.skipped;
      continue;
    }
    const std::string url = crop_capture_url(text_of(crop.line, "image_url"));
    archive::WrittenRecord image = out.write_resource(url, date, "image/jpeg", read_whole(file));
    const std::string page_url = text_of(crop.line, "page_url");
    Json page{{"pageUrl", page_url},
              {"pageTitle", text_of(book, "title")},
              {"caption", text_of(crop.line, "caption")},
              {"text", joined_text(crop.line)},
              {"imagesInPage", per_page[page_url]},
              {"book", book_facts(book, crop.line)}};
    archive::WarcRecordSpec spec;
    spec.type = archive::RecordType::metadata;
    spec.target_uri = url;
    spec.date = date;
    spec.content_type = extract::kBookPageType;
    spec.block = page.dump(-1, ' ', false, Json::error_handler_t::replace);
    spec.extra_headers.push_back({"WARC-Concurrent-To", image.record_id});
    out.write(spec);
    ++result.crops;
  }
  out.flush();
  return result;
}

ItemResult item_to_warc(const fs::path& item, ExtractOptions options, const fs::path& out_dir,
                        ProblemLog& problems) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);  // a failure shows as "cannot write" below
  if (item.extension() == ".epub") {
    ItemResult result;
    const EpubWarcResult epub =
        write_epub_warc(item, out_dir / (item.stem().string() + ".warc.gz"), problems);
    result.skipped = !epub.written;
    result.counters.add(epub.written ? "items_done" : "items_skipped");
    result.counters.add("warc_epub_chapters", static_cast<int64_t>(epub.chapters));
    result.counters.add("warc_epub_images", static_cast<int64_t>(epub.images));
    result.counters.add("warc_epub_image_pages", static_cast<int64_t>(epub.image_pages));
    return result;
  }
  options.compat = false;
  options.out = out_dir / (".crops-" + item.filename().string());
  fs::remove_all(options.out, ec);
  ItemResult result = extract_item(item, options, problems);
  for (const auto& entry : fs::directory_iterator(options.out, ec)) {
    if (!entry.is_directory()) continue;
    const fs::path warc = out_dir / (entry.path().filename().string() + ".warc.gz");
    const uint64_t crops = write_book_warc(entry.path(), warc, problems).crops;
    result.counters.add("warc_crops", static_cast<int64_t>(crops));
  }
  fs::remove_all(options.out, ec);
  return result;
}

}  // namespace strata::books
