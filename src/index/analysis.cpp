#include "index/analysis.hpp"

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <xapian.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>

#include "index/stopwords.hpp"

namespace strata::index {
namespace {

// One word BreakIterator per thread (creating one is expensive, using one is not shared-safe).
icu::BreakIterator& word_iterator() {
  thread_local std::unique_ptr<icu::BreakIterator> it = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> bi(
        icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) throw std::runtime_error("ICU word BreakIterator unavailable");
    return bi;
  }();
  return *it;
}

Xapian::Stem& portuguese_stemmer() {
  thread_local Xapian::Stem stem("portuguese");
  return stem;
}

icu::UnicodeString strip_marks(const icu::UnicodeString& decomposed) {
  icu::UnicodeString out;
  for (int32_t i = 0; i < decomposed.length();) {
    UChar32 c = decomposed.char32At(i);
    if (u_charType(c) != U_NON_SPACING_MARK) out.append(c);
    i += U16_LENGTH(c);
  }
  return out;
}

std::string fold_unicode(icu::UnicodeString text) {
  UErrorCode status = U_ZERO_ERROR;
  text.foldCase();
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU normalizer unavailable");
  icu::UnicodeString decomposed = nfd->normalize(text, status);
  icu::UnicodeString stripped = strip_marks(decomposed);
  icu::UnicodeString composed = nfc->normalize(stripped, status);
  if (U_FAILURE(status)) return {};
  std::string out;
  composed.toUTF8String(out);
  return out;
}

// Written for U+0027 inside words: right and left single quotation marks, modifier letter
// apostrophe, fullwidth apostrophe.
constexpr std::array<std::string_view, 4> kApostropheLookalikes{"\u2019", "\u2018", "\u02BC",
                                                                "\uFF07"};

// Articles and prepositions written elided before a vowel: Portuguese (d'água), French
// (l', d', j', m', n', s', t', c', qu', jusqu', lorsqu', puisqu'), Italian (l', dell', all',
// nell', dall', sull', coll', un', quell', quest', gl', c', d') and Catalan (l', d', s', m',
// t', n').
constexpr std::array<std::string_view, 24> kElided{
    "c",    "d",    "j",     "l",     "m",     "n",      "s",      "t",
    "qu",   "gl",   "un",    "all",   "dell",  "nell",   "dall",   "sull",
    "coll", "pell", "quell", "quest", "jusqu", "lorsqu", "puisqu", "quoiqu"};

std::string unify_apostrophes(std::string_view word) {
  std::string out;
  out.reserve(word.size());
  for (size_t i = 0; i < word.size();) {
    auto look = std::find_if(kApostropheLookalikes.begin(), kApostropheLookalikes.end(),
                             [&](std::string_view l) { return word.substr(i).starts_with(l); });
    if (look == kApostropheLookalikes.end()) {
      out += word[i++];
    } else {
      out += '\'';
      i += look->size();
    }
  }
  return out;
}

std::vector<std::string> dotted_parts(const std::string& word) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot = word.find('.'); start <= word.size(); dot = word.find('.', start)) {
    if (dot == std::string::npos) dot = word.size();
    if (dot > start) parts.push_back(word.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

}  // namespace

std::string drop_elision(std::string_view folded_word) {
  std::string word = unify_apostrophes(folded_word);
  const size_t apostrophe = word.find('\'');
  if (apostrophe == std::string::npos || apostrophe + 1 >= word.size()) return word;
  const std::string_view head = std::string_view(word).substr(0, apostrophe);
  if (std::find(kElided.begin(), kElided.end(), head) == kElided.end()) return word;
  return word.substr(apostrophe + 1);
}

std::string drop_possessive(std::string word) {
  if (word.size() > 2 && word.ends_with("'s")) word.resize(word.size() - 2);
  return word;
}

std::string fold(std::string_view text) {
  return fold_unicode(icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), text.size())));
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), text.size()));
  icu::BreakIterator& it = word_iterator();
  it.setText(u);
  int32_t start = it.first();
  for (int32_t end = it.next(); end != icu::BreakIterator::DONE; start = end, end = it.next()) {
    if (it.getRuleStatus() == UBRK_WORD_NONE) continue;
    std::string word;
    u.tempSubStringBetween(start, end).toUTF8String(word);
    words.push_back(std::move(word));
  }
  return words;
}

std::vector<Token> analyze(std::string_view text) {
  std::vector<Token> tokens;
  for (const std::string& word : split_words(text)) {
    bool joined = false;
    for (std::string& part : dotted_parts(drop_possessive(drop_elision(fold(word))))) {
      if (part.size() > kMaxWordBytes) continue;
      Token t;
      t.exact = std::move(part);
      t.stop = is_stop_word(t.exact);
      t.stem = portuguese_stemmer()(t.exact);
      if (t.stem.empty()) t.stem = t.exact;
      t.joined = joined;
      joined = true;
      tokens.push_back(std::move(t));
    }
  }
  return tokens;
}

}  // namespace strata::index
