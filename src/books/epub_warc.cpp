#include "books/epub_warc.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>

#include "archive/warc_writer.hpp"
#include "books/epub.hpp"
#include "books/item.hpp"
#include "books/meta.hpp"
#include "core/digest.hpp"
#include "core/json.hpp"
#include "extract/book_page.hpp"

namespace strata::books {
namespace fs = std::filesystem;
namespace {

bool is_xhtml(const std::string& media_type) {
  return media_type == "application/xhtml+xml" || media_type == "text/html";
}

// dcterms:modified ("2012-01-04T12:00:00Z") as 14 digits, else the file's modification time
// (UTC): the same book gives the same capture time run after run.
std::string capture_date(const EpubBook& book, const fs::path& epub) {
  std::string digits;
  for (char c : book.modified)
    if (c >= '0' && c <= '9') digits += c;
  if (digits.size() >= 8) return (digits + "000000").substr(0, 14);
  std::error_code ec;
  const auto written = fs::last_write_time(epub, ec);
  if (ec) return {};
  const std::time_t t =
      std::chrono::system_clock::to_time_t(std::chrono::file_clock::to_sys(written));
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &utc);
  return buf;
}

// The catalogue facts every reference of the book carries (index/book_facts.hpp).
Json facts_of(const EpubBook& book, const std::string& identifier) {
  Json facts{{"format", "epub"},         {"identifier", identifier},
             {"title", book.title},      {"author", book.creators},
             {"subject", book.subjects}, {"language", iso_language(book.language)}};
  if (auto year = first_year(book.date)) facts["year"] = *year;
  return facts;
}

Json chapter_facts(Json facts, const EpubItem& item) {
  if (!item.heading.empty()) facts["chapter"] = item.heading;
  if (item.spine_index > 0) facts["pageIndex"] = item.spine_index;
  return facts;
}

std::string dumped(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

archive::WarcRecordSpec metadata(const std::string& url, const std::string& date,
                                 std::string_view type, const Json& body) {
  archive::WarcRecordSpec spec;
  spec.type = archive::RecordType::metadata;
  spec.target_uri = url;
  spec.date = date;
  spec.content_type = std::string(type);
  spec.block = dumped(body);
  return spec;
}

}  // namespace

std::string epub_base_url(std::string_view identifier) {
  std::string slug;
  for (char c : identifier) {
    const char l = c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
    if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9'))
      slug += l;
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  if (slug.size() > 63) slug = slug.substr(0, 46) + "-" + sha256_hex(identifier).substr(0, 16);
  if (slug.empty()) slug = "book";
  return "https://" + slug + ".epub.invalid/";
}

std::string epub_member_url(std::string_view base, std::string_view member) {
  std::string url(base);
  for (unsigned char c : member) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      url += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      url += hex;
    }
  }
  return url;
}

EpubWarcResult write_epub_warc(const fs::path& epub, const fs::path& warc, ProblemLog& problems) {
  EpubWarcResult result;
  EpubBook book;
  try {
    book = read_epub(epub);
  } catch (const EpubError& e) {
    problems.report({epub.string(), 0, "bad_epub", e.what()});
    return result;
  }
  // A book without an identifier is named by its bytes, so two copies still meet.
  std::string identifier = book.identifier;
  if (identifier.empty()) {
    identifier = "sha256-" + sha256_hex(read_whole(epub)).substr(0, 32);
  }
  const std::string base = epub_base_url(identifier);
  const std::string date = capture_date(book, epub);
  const Json facts = facts_of(book, identifier);
  std::map<std::string, const EpubItem*> item_by_path;
  const EpubItem* first_chapter = nullptr;
  for (const EpubItem& item : book.items) {
    item_by_path[item.path] = &item;
    if (item.spine_index == 1) first_chapter = &item;
  }

  archive::WarcWriter out(warc);
  out.write_warcinfo({{"software", "strata books warc"}, {"isPartOf", identifier}},
                     warc.filename().string());
  for (const EpubItem& item : book.items)
    if (is_xhtml(item.media_type))
      out.write(metadata(epub_member_url(base, item.path), date, extract::kBookChapterType,
                         {{"pageTitle", book.title}, {"book", chapter_facts(facts, item)}}));
  std::map<std::string, bool> written;
  for (const EpubItem& item : book.items) {
    std::string bytes;
    try {
      bytes = read_epub_member(epub, item.path);
    } catch (const EpubError& e) {
      problems.report({epub.string(), 0, "missing_epub_member", e.what()});
      ++result.missing;
      continue;
    }
    // A media type with parameters or none at all would not be read as a page.
    const std::string type = item.media_type.empty() ? "application/octet-stream" : item.media_type;
    out.write_resource(epub_member_url(base, item.path), date, type, std::move(bytes));
    written[item.path] = true;
    if (is_xhtml(item.media_type)) ++result.chapters;
    if (item.media_type.starts_with("image/")) ++result.images;
  }
  // Images the web extractor finds no <img> for: their page is the chapter showing them (an
  // SVG <image>), else the book's first chapter.
  for (const EpubImage& image : book.images) {
    if (image.img_uses > 0 || !written.count(image.path)) continue;
    const EpubItem* chapter =
        item_by_path.count(image.document) ? item_by_path[image.document] : first_chapter;
    if (!chapter) continue;
    Json page{{"pageUrl", epub_member_url(base, chapter->path)},
              {"pageTitle", book.title},
              {"alt", image.alt},
              {"caption", image.caption},
              {"text", ""},
              {"imagesInPage", 0},
              {"book", chapter_facts(facts, *chapter)}};
    out.write(metadata(epub_member_url(base, image.path), date, extract::kBookPageType, page));
    ++result.image_pages;
  }
  out.flush();
  result.written = true;
  return result;
}

}  // namespace strata::books
