#pragma once
// Near-duplicate pages (seed 004, CS276 slides 36–48; IIR §19.6; docs/near-duplicates.md
// "Pages"): the words of a page's main text in 5-word shingles, a min-hash sketch of 200
// values, candidates by LSH over 25 bands of 8 values, near-duplicates at an estimated
// Jaccard similarity ≥ 0.8. The one implementation the crawler (content seen, near) and
// extraction (the `pageSketch` field of every reference) share.
//
// The sketch is one-permutation min-hashing with optimal densification (Li, Owen & Zhang,
// NIPS 2012; Shrivastava, ICML 2017): each shingle is hashed once and falls into one of 200
// bins, each bin keeps its minimum, empty bins borrow a filled bin's value by a fixed probe
// sequence. It estimates Jaccard like 200 independent permutations, at one hash per shingle
// instead of 200 multiply-mods (which cost about 100 times extraction's 2 % budget). Each
// value is kept as 8 bits (b-bit min-hash, Li & König, WWW 2010): 200 bytes a page, and the
// estimate corrects for the 1/256 chance that two different minima share their 8 bits.
//
// Failure contract: never throws (beyond std::bad_alloc); any bytes are accepted. A text of
// fewer than kShingleWords words has no sketch (nullopt). Cost is linear in the input and
// bounded: reading stops after kMaxWords words. decode_page_sketch rejects any text
// encode_page_sketch did not write (nullopt), never guessing.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata::similar {

struct PageSketch {
  static constexpr std::size_t kValues = 200, kBands = 25, kRows = kValues / kBands;
  std::array<uint8_t, kValues> values{};
  uint32_t shingles = 0;  // shingle positions in the text (|sh(d)| for containment, seed 002)
  bool operator==(const PageSketch&) const = default;
};

inline constexpr std::size_t kShingleWords = 5;
// Only the first words of the main text are read: all of it on 80 % of the pages of aut's 2008
// crawl (median 319 words), while the few giant pages (60,000 words) would otherwise cost more
// than all the others together (docs/extraction.md, "Page sketch").
inline constexpr std::size_t kMaxWords = 1'000;
// Estimated Jaccard at or above which two pages are near-duplicates (IIR: 160 of 200 agree).
inline constexpr double kPageNearDuplicate = 0.8;
// Pages with fewer shingles are not grouped by their text (the merge, docs/merge.md): a
// heading and a footer say too little to call two pages copies of one another.
inline constexpr uint32_t kMinShinglesToGroup = 10;

// Sketch of a plain text: words are the runs of ASCII letters and digits and of non-ASCII
// bytes (UTF-8 letters), compared with ASCII letters lower-cased; everything else separates.
std::optional<PageSketch> sketch_text(std::string_view text);

// Sketch of an HTML page's main text, read in one pass over the bytes (no tree is built, so
// it is the same whatever part of the page the caller parsed): the text outside tags and
// comments, leaving out <head>, <script>, <style>, <noscript>, <template>, <svg> and the
// usual boilerplate containers <nav>, <header>, <footer> and <aside>. Entities are not
// decoded (both copies of a page spell them the same).
std::optional<PageSketch> sketch_html(std::string_view html);

// The distinct hashes, sorted, of the 5-word shingles sketch_html() reads (the same main text,
// words and first kMaxWords): exact set similarities, where the sketch estimates them (the
// redundancy cover's pages, docs/redundancy.md). Empty below kShingleWords words.
std::vector<uint64_t> page_shingles(std::string_view html);

// Estimated Jaccard similarity of the two pages' shingle sets, in [0, 1].
double estimated_jaccard(const PageSketch& a, const PageSketch& b);
inline bool near_duplicate_pages(const PageSketch& a, const PageSketch& b) {
  return estimated_jaccard(a, b) >= kPageNearDuplicate;
}

// One 64-bit key per LSH band (band i = values [8i, 8i+8)); pages sharing a key are
// candidates. P(candidate) = 1 − (1 − J^8)^25: 0.99 at J = 0.8, 0.09 at J = 0.5.
std::array<uint64_t, PageSketch::kBands> band_keys(const PageSketch& s);

// The text form stored in records: "<shingles>:<base64url of the 200 values, no padding>"
// (a decimal, a colon, 267 characters).
std::string encode_page_sketch(const PageSketch& s);
std::optional<PageSketch> decode_page_sketch(std::string_view text);

// Near-duplicate groups of a set of pages: the connected components of "near_duplicate_pages
// and sharing an LSH band", and, when `same_page` is given (one name per page, e.g. its URL),
// of "the same name". group[i] = the smallest index of i's component; the partition does not
// depend on the order the pages come in. Pages without a sketch (nullptr) join others by
// name only. Identical sketches are compared once, so a page captured thousands of times
// costs one comparison.
std::vector<uint32_t> page_groups(std::span<const PageSketch* const> pages,
                                  std::span<const std::string_view> same_page = {});

// The crawler's running index: each page added is compared with the earlier pages it shares
// a band with. About 450 bytes a page plus the caller's URL.
class PageNearDuplicates {
 public:
  // The URL of an earlier page this one nearly duplicates, if any; the page is remembered.
  std::optional<std::string> add(std::string_view url, const PageSketch& sketch);

 private:
  std::vector<PageSketch> sketches_;
  std::vector<std::string> urls_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> bands_;  // band key -> pages
};

}  // namespace strata::similar
