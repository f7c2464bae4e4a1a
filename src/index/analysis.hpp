#pragma once
// Text analysis shared by the index writer and the query parser (the same function runs at
// both ends, so a query word always meets the terms its document produced):
//   ICU word boundaries (UAX #29) -> apostrophe look-alikes unified -> elided articles and
//   prepositions dropped (l', d', qu', dell'...: Portuguese, French, Italian, Catalan) and
//   English possessives ('s) ->
//   dotted words split into their parts ("gov.uk" -> gov uk, as URL tokens are) -> case
//   folding -> accent folding (NFD, drop combining marks) -> Portuguese stop-word flag ->
//   Portuguese Snowball stem of the folded form. See docs/search.md, "Analysis".
#include <string>
#include <string_view>
#include <vector>

namespace strata::index {

struct Token {
  std::string exact;    // case- and accent-folded word ("São" -> "sao")
  std::string stem;     // Portuguese stem of `exact`
  bool stop = false;    // a Portuguese stop word (still indexed as an exact term)
  bool joined = false;  // a later part of a dotted word ("uk" of "gov.uk")
};

// Case folding + accent folding of a whole string (no splitting).
std::string fold(std::string_view text);

// Splits text into words (letters, digits, ideographs; punctuation and spaces dropped).
std::vector<std::string> split_words(std::string_view text);

// A folded word without an elided article or preposition ("l'education" -> "education",
// "dell’arte" -> "arte"); any apostrophe look-alike (U+2019, U+2018, U+02BC, U+FF07) counts
// as U+0027, and a word with another apostrophe keeps it as U+0027 ("o’neil" -> "o'neil").
std::string drop_elision(std::string_view folded_word);

// An English possessive loses its "'s" ("shakespeare's" -> "shakespeare"); apply after
// drop_elision, which unifies apostrophes.
std::string drop_possessive(std::string word);

// split_words + fold + drop_elision + drop_possessive + dotted split + stop flag + stem. Words
// longer than kMaxWordBytes are dropped.
std::vector<Token> analyze(std::string_view text);

inline constexpr size_t kMaxWordBytes = 200;

}  // namespace strata::index
