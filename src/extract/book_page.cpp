#include "extract/book_page.hpp"

#include "url/url.hpp"

namespace strata::extract {
namespace {

std::string text_of(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::optional<PageReference> book_page_reference(const PageInput& where) {
  Json j = Json::parse(where.html, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  PageReference ref;
  ref.imgUrl = where.url;
  ref.pageUrl = text_of(j, "pageUrl");
  auto book = j.find("book");
  if (ref.imgUrl.empty() || ref.pageUrl.empty() || book == j.end() || !book->is_object())
    return std::nullopt;
  ref.imgSurt = url::join_surt(ref.imgUrl);
  ref.imgUrlTokens = url::url_tokens(ref.imgUrl);
  // The picture's own caption when Abbyy gave one, else the text around it on its pages, as
  // the web's captions fall back to the text around an image.
  ref.imgAlt = text_of(j, "alt");
  ref.imgCaption = text_of(j, "caption");
  if (ref.imgCaption.empty()) ref.imgCaption = text_of(j, "text");
  ref.tag = "book";
  ref.pageTimestamp = where.timestamp;
  ref.pageTitle = text_of(j, "pageTitle");
  ref.pageUrlTokens = url::url_tokens(ref.pageUrl);
  ref.pageHost = url::page_host(ref.pageUrl);
  if (auto n = j.find("imagesInPage"); n != j.end() && n->is_number_integer())
    ref.imagesInPage = n->get<int>();
  ref.collection = where.collection;
  ref.file = where.file;
  ref.offset = where.offset;
  ref.length = where.length;
  ref.book = book->dump(-1, ' ', false, Json::error_handler_t::replace);
  return ref;
}

std::optional<BookChapter> book_chapter(std::string_view payload) {
  Json j = Json::parse(payload, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  auto book = j.find("book");
  if (book == j.end() || !book->is_object()) return std::nullopt;
  return BookChapter{text_of(j, "pageTitle"),
                     book->dump(-1, ' ', false, Json::error_handler_t::replace)};
}

}  // namespace strata::extract
