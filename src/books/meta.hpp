#pragma once
// IA `_meta.xml`: the book's catalogue record (title, creators, date, language, subjects,
// collections, scan date). The year is the first four-digit run of the free-text date (as
// IA's BookReader reads it); the language is given as ISO 639-1 where known ("English",
// "eng" -> "en"; "heb" -> "he"), else as written.
//
// Failure contract: parse_meta throws MetaError on malformed XML.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"

namespace strata::books {

class MetaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BookMeta {
  std::string identifier, title, title_alt_script, publisher, language, scandate, sponsor,
      contributor;
  std::vector<std::string> creators, subjects, collections;
  std::optional<int> year, ppi, imagecount;
};

BookMeta parse_meta(std::string_view xml);

// The first run of exactly four digits in a free-text date ("c1884." -> 1884), else nullopt.
std::optional<int> first_year(const std::string& date);
// ISO 639-1 for the language names and 639-2 codes above, else `language` as written.
std::string iso_language(std::string language);
Json to_json(const BookMeta& meta);

}  // namespace strata::books
