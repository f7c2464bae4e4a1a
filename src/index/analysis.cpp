#include "index/analysis.hpp"

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <xapian.h>

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

}  // namespace

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
    Token t;
    t.exact = fold(word);
    if (t.exact.empty() || t.exact.size() > kMaxWordBytes) continue;
    t.stop = is_stop_word(t.exact);
    t.stem = portuguese_stemmer()(t.exact);
    if (t.stem.empty()) t.stem = t.exact;
    tokens.push_back(std::move(t));
  }
  return tokens;
}

}  // namespace strata::index
