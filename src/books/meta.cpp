#include "books/meta.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "books/whole_xml.hpp"

namespace strata::books {
namespace {

std::string trimmed(std::string s) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  return s;
}

}  // namespace

std::optional<int> first_year(const std::string& date) {
  for (size_t i = 0; i + 4 <= date.size(); ++i)
    if (std::all_of(date.begin() + static_cast<long>(i), date.begin() + static_cast<long>(i + 4),
                    [](unsigned char c) { return std::isdigit(c); }) &&
        (i + 4 == date.size() || !std::isdigit(static_cast<unsigned char>(date[i + 4]))) &&
        (i == 0 || !std::isdigit(static_cast<unsigned char>(date[i - 1]))))
      return std::stoi(date.substr(i, 4));
  return std::nullopt;
}

std::string iso_language(std::string language) {
  static const std::map<std::string, std::string> kCodes{
      {"english", "en"},    {"eng", "en"},      {"french", "fr"},  {"fre", "fr"},
      {"fra", "fr"},        {"german", "de"},   {"ger", "de"},     {"deu", "de"},
      {"hebrew", "he"},     {"heb", "he"},      {"latin", "la"},   {"lat", "la"},
      {"spanish", "es"},    {"spa", "es"},      {"italian", "it"}, {"ita", "it"},
      {"portuguese", "pt"}, {"por", "pt"},      {"dutch", "nl"},   {"dut", "nl"},
      {"nld", "nl"},        {"russian", "ru"},  {"rus", "ru"},     {"greek", "el"},
      {"gre", "el"},        {"ell", "el"},      {"chinese", "zh"}, {"chi", "zh"},
      {"zho", "zh"},        {"japanese", "ja"}, {"jpn", "ja"}};
  std::string key = language;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  const auto it = kCodes.find(key);
  return it == kCodes.end() ? language : it->second;
}

namespace {

std::optional<int> number(const std::string& text) {
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }) ||
      text.size() > 9)
    return std::nullopt;
  return std::stoi(text);
}

struct Parser {
  BookMeta meta;
  int depth = 0;
  std::string text;

  void end(std::string_view name) {
    if (depth-- != 2) return;  // only the record's own fields
    std::string value = trimmed(std::move(text));
    text.clear();
    if (value.empty()) return;
    if (name == "identifier")
      meta.identifier = value;
    else if (name == "title")
      meta.title = value;
    else if (name == "title-alt-script")
      meta.title_alt_script = value;
    else if (name == "creator")
      meta.creators.push_back(value);
    else if (name == "subject")
      meta.subjects.push_back(value);
    else if (name == "collection")
      meta.collections.push_back(value);
    else if (name == "publisher")
      meta.publisher = value;
    else if (name == "language")
      meta.language = iso_language(value);
    else if (name == "date")
      meta.year = first_year(value);
    else if (name == "scandate")
      meta.scandate = value;
    else if (name == "sponsor")
      meta.sponsor = value;
    else if (name == "contributor")
      meta.contributor = value;
    else if (name == "ppi")
      meta.ppi = number(value);
    else if (name == "imagecount")
      meta.imagecount = number(value);
  }
};

}  // namespace

BookMeta parse_meta(std::string_view xml) {
  Parser state;
  auto failure = parse_whole_xml(
      xml, &state,
      [](void* s, const XML_Char*, const XML_Char**) {
        auto& p = *static_cast<Parser*>(s);
        ++p.depth;
        p.text.clear();
      },
      [](void* s, const XML_Char* n) { static_cast<Parser*>(s)->end(n); },
      [](void* s, const XML_Char* d, int len) {
        auto& text = static_cast<Parser*>(s)->text;
        if (text.size() < 65536) text.append(d, static_cast<size_t>(len));
      });
  if (failure) throw MetaError(failure->message + " at byte " + std::to_string(failure->offset));
  return std::move(state.meta);
}

Json to_json(const BookMeta& m) {
  Json j{{"identifier", m.identifier},   {"title", m.title},
         {"creators", m.creators},       {"subjects", m.subjects},
         {"collections", m.collections}, {"publisher", m.publisher},
         {"language", m.language},       {"scandate", m.scandate},
         {"sponsor", m.sponsor},         {"contributor", m.contributor}};
  if (!m.title_alt_script.empty()) j["title_alt_script"] = m.title_alt_script;
  if (m.year) j["year"] = *m.year;
  if (m.ppi) j["ppi"] = *m.ppi;
  if (m.imagecount) j["imagecount"] = *m.imagecount;
  return j;
}

}  // namespace strata::books
