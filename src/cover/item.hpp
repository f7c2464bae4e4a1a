#pragma once
// What the coverage language reads of a document (docs/redundancy.md): the covered document
// `a` and the covering document `b` are both Items. Every attribute may be missing; an atom
// that reads a missing value is false, so nothing is hidden without evidence.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata::cover {

// String attributes, compared for equality (and order) as strings.
enum class StringAttr { digest, url, imghost, host, domain, page, mime, count };
// Numeric attributes: times in seconds since the epoch, sizes in pixels or bytes.
enum class NumberAttr { ts, tslast, pagets, width, height, area, bytes, rank, safe, count };
// Word sets the similarity atoms compare.
enum class TextAttr { alt, title, caption, text, pagetitle, count };

// Kept small (about 160 bytes plus its strings): an offline cover holds one per document, and
// loaders fill only the attributes the expression reads (attributes_used()).
class Item {
 public:
  Item() { numbers_.fill(kMissing); }

  // nullptr / nullopt / empty when missing.
  const std::string* get(StringAttr a) const {
    for (const auto& [attr, value] : strings_)
      if (attr == a) return &value;
    return nullptr;
  }
  std::optional<double> get(NumberAttr a) const {
    const double v = numbers_[size_t(a)];
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
  }
  const std::vector<uint64_t>& get(TextAttr a) const {
    static const std::vector<uint64_t> none;
    for (const auto& [attr, value] : texts_)
      if (attr == a) return value;
    return none;
  }

  void set(StringAttr a, std::string value) { strings_.emplace_back(a, std::move(value)); }
  void set(NumberAttr a, double value) { numbers_[size_t(a)] = value; }
  // The sorted, distinct shingle hashes of a text attribute (word_shingles()).
  void set(TextAttr a, std::vector<uint64_t> shingles) {
    texts_.emplace_back(a, std::move(shingles));
  }
  // Every text attribute at once: moved out (to an ItemTexts, item_texts.hpp) and back.
  using Texts = std::vector<std::pair<TextAttr, std::vector<uint64_t>>>;
  Texts take_texts() { return std::exchange(texts_, {}); }
  void set_texts(Texts texts) { texts_ = std::move(texts); }

  std::optional<uint64_t> phash;         // absent, or gated as flat / too small to compare
  std::vector<std::string> collections;  // same(collection): the value sets intersect

 private:
  static constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::pair<StringAttr, std::string>> strings_;
  std::array<double, size_t(NumberAttr::count)> numbers_;
  Texts texts_;
};

// The sorted, distinct hashes of the `k`-word shingles of `text` (words: letters and digits,
// lower-cased ASCII; other bytes separate words). Fewer than k words: one shingle of them all.
std::vector<uint64_t> word_shingles(const std::string& text, int k = 1);

}  // namespace strata::cover
