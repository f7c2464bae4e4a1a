#pragma once
// What the coverage language reads of a document (docs/redundancy.md): the covered document
// `a` and the covering document `b` are both Items. Every attribute may be missing; an atom
// that reads a missing value is false, so nothing is hidden without evidence.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::cover {

// String attributes, compared for equality (and order) as strings.
enum class StringAttr { digest, url, imghost, host, domain, page, mime, count };
// Numeric attributes: times in seconds since the epoch, sizes in pixels or bytes.
enum class NumberAttr { ts, tslast, pagets, width, height, area, bytes, rank, safe, count };
// Word sets the similarity atoms compare.
enum class TextAttr { alt, title, caption, text, pagetitle, count };

struct Item {
  std::array<std::optional<std::string>, size_t(StringAttr::count)> strings;
  std::array<std::optional<double>, size_t(NumberAttr::count)> numbers;
  std::optional<uint64_t> phash;         // absent, or gated as flat / too small to compare
  std::vector<std::string> collections;  // same(collection): the value sets intersect
  // Per text attribute: the sorted, distinct hashes of its word shingles; empty = missing.
  std::array<std::vector<uint64_t>, size_t(TextAttr::count)> shingles;

  const std::optional<std::string>& get(StringAttr a) const { return strings[size_t(a)]; }
  const std::optional<double>& get(NumberAttr a) const { return numbers[size_t(a)]; }
  const std::vector<uint64_t>& get(TextAttr a) const { return shingles[size_t(a)]; }
  std::optional<std::string>& set(StringAttr a) { return strings[size_t(a)]; }
  std::optional<double>& set(NumberAttr a) { return numbers[size_t(a)]; }
};

// The sorted, distinct hashes of the `k`-word shingles of `text` (words: letters and digits,
// lower-cased ASCII; other bytes separate words). Fewer than k words: one shingle of them all.
std::vector<uint64_t> word_shingles(const std::string& text, int k = 1);

}  // namespace strata::cover
