#pragma once
// Text analysis shared by the index writer and the query parser (the same function runs at
// both ends, so a query word always meets the terms its document produced):
//   ICU word boundaries (UAX #29) -> case folding -> accent folding (NFD, drop combining
//   marks) -> Portuguese stop-word flag -> Portuguese Snowball stem of the folded form.
// See docs/search.md.
#include <string>
#include <string_view>
#include <vector>

namespace strata::index {

struct Token {
  std::string exact;  // case- and accent-folded word ("São" -> "sao")
  std::string stem;   // Portuguese stem of `exact`
  bool stop = false;  // a Portuguese stop word (still indexed as an exact term)
};

// Case folding + accent folding of a whole string (no splitting).
std::string fold(std::string_view text);

// Splits text into words (letters, digits, ideographs; punctuation and spaces dropped).
std::vector<std::string> split_words(std::string_view text);

// split_words + fold + stop flag + stem. Words longer than kMaxWordBytes are dropped.
std::vector<Token> analyze(std::string_view text);

inline constexpr size_t kMaxWordBytes = 200;

}  // namespace strata::index
