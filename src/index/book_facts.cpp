#include "index/book_facts.hpp"

#include "core/json.hpp"

namespace strata::index {
namespace {

void read_text(const Json& j, const char* key, std::string& out) {
  if (auto it = j.find(key); it != j.end() && it->is_string()) out = it->get<std::string>();
}

void read_texts(const Json& j, const char* key, std::vector<std::string>& out) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return;
  for (const Json& v : *it)
    if (v.is_string() && !v.get_ref<const std::string&>().empty())
      out.push_back(v.get<std::string>());
}

void read_number(const Json& j, const char* key, std::optional<int>& out) {
  if (auto it = j.find(key); it != j.end() && it->is_number_integer()) out = it->get<int>();
}

}  // namespace

std::optional<BookFacts> parse_book_facts(std::string_view book) {
  if (book.empty()) return std::nullopt;
  const Json j = Json::parse(book, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  BookFacts f;
  read_text(j, "identifier", f.identifier);
  read_text(j, "title", f.title);
  read_text(j, "language", f.language);
  read_text(j, "page", f.page);
  read_text(j, "imageUrl", f.imageUrl);
  read_text(j, "format", f.format);
  read_text(j, "chapter", f.chapter);
  read_texts(j, "author", f.author);
  read_texts(j, "subject", f.subject);
  read_number(j, "year", f.year);
  read_number(j, "pageIndex", f.pageIndex);
  read_number(j, "leaf", f.leaf);
  return f;
}

std::string book_language_code(std::string_view language) {
  std::string code;
  for (char c : language) {
    if (c == '-' || c == '_') break;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (c < 'a' || c > 'z') return {};
    code += c;
  }
  return code.size() >= 2 && code.size() <= 8 ? code : std::string();
}

std::string book_year_term(int year) {
  if (year < 0 || year > 9999) return {};
  std::string digits = std::to_string(year);
  return std::string(kBookYearPrefix) + std::string(4 - digits.size(), '0') + digits;
}

}  // namespace strata::index
