#include "similar/page_sketch.hpp"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <limits>
#include <numeric>

namespace strata::similar {
namespace {

constexpr std::size_t kValues = PageSketch::kValues;

// Per byte: 0 for a separator, else the byte as words compare it (ASCII letters lower-cased).
struct FoldTable {
  std::array<uint8_t, 256> fold{};
  constexpr FoldTable() {
    for (int c = 0; c < 256; ++c) {
      bool word = c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
      if (c >= 'A' && c <= 'Z')
        fold[c] = static_cast<uint8_t>(c | 0x20);
      else if (word)
        fold[c] = static_cast<uint8_t>(c);
    }
  }
};
constexpr FoldTable kFold;

// MurmurHash3's 64-bit finaliser.
uint64_t mix64(uint64_t h) {
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

constexpr uint64_t kFnvBasis = 0xcbf29ce484222325ULL, kFnvPrime = 0x100000001b3ULL;

// Words -> 5-word shingles -> one-permutation min-hash bins. Each word is hashed (FNV-1a)
// while it is read, each shingle is its five word hashes combined in order and mixed: no
// copy of the text and one pass over its bytes.
class Sketcher {
 public:
  // `shingles`: when given, every shingle hash is also appended there (page_shingles()).
  explicit Sketcher(std::vector<uint64_t>* shingles = nullptr) : collected_(shingles) {
    minima_.fill(std::numeric_limits<uint32_t>::max());
  }

  bool full() const { return words_ >= kMaxWords; }

  void add_text(std::string_view text) {
    uint64_t h = word_hash_;
    bool in_word = in_word_;
    for (char ch : text) {
      uint8_t c = kFold.fold[static_cast<unsigned char>(ch)];
      if (c) {
        h = (h ^ c) * kFnvPrime;
        in_word = true;
      } else if (in_word) {
        add_word(h);
        h = kFnvBasis;
        in_word = false;
      }
    }
    word_hash_ = h;
    in_word_ = in_word;
  }

  void end_word() {
    if (in_word_) add_word(word_hash_);
    word_hash_ = kFnvBasis;
    in_word_ = false;
  }

  std::optional<PageSketch> finish() {
    end_word();
    if (shingles_ == 0) return std::nullopt;
    PageSketch out;
    out.shingles = shingles_;
    for (std::size_t i = 0; i < kValues; ++i) {
      std::size_t from = filled_[i] ? i : borrowed_bin(i);
      // The top byte of a multiplicative mix: minima are small numbers, their low bits alone
      // would be poorly spread.
      out.values[i] = static_cast<uint8_t>((minima_[from] * 0x9E3779B1u) >> 24);
    }
    return out;
  }

 private:
  // Optimal densification: an empty bin takes the value of the first filled bin of its own
  // fixed pseudo-random probe sequence (the same for every page, so equal sets stay equal).
  std::size_t borrowed_bin(std::size_t bin) const {
    auto key = static_cast<uint32_t>(bin);
    for (uint64_t attempt = 1; attempt <= 4096; ++attempt) {
      std::size_t j = XXH3_64bits_withSeed(&key, sizeof key, attempt) % kValues;
      if (filled_[j]) return j;
    }
    for (std::size_t k = 1; k < kValues; ++k)  // never in practice (p < e^-20)
      if (filled_[(bin + k) % kValues]) return (bin + k) % kValues;
    return bin;
  }

  void add_word(uint64_t word) {
    if (full()) return;
    for (std::size_t k = 0; k + 1 < kShingleWords; ++k) ring_[k] = ring_[k + 1];
    ring_[kShingleWords - 1] = word;
    if (++words_ < kShingleWords) return;
    // The five word hashes in order, each rotated by its place, then mixed.
    uint64_t h = ring_[0] ^ std::rotl(ring_[1], 13) ^ std::rotl(ring_[2], 26) ^
                 std::rotl(ring_[3], 39) ^ std::rotl(ring_[4], 52);
    h = mix64(h);
    if (collected_) collected_->push_back(h);
    auto bin = static_cast<std::size_t>(((h >> 32) * kValues) >> 32);
    auto value = static_cast<uint32_t>(h);
    filled_[bin] = true;
    minima_[bin] = std::min(minima_[bin], value);
    ++shingles_;
  }

  std::vector<uint64_t>* collected_;
  std::array<uint32_t, kValues> minima_;
  std::array<bool, kValues> filled_{};
  uint64_t ring_[kShingleWords] = {};
  std::size_t words_ = 0;
  uint32_t shingles_ = 0;
  uint64_t word_hash_ = kFnvBasis;
  bool in_word_ = false;
};

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c;
}

bool starts_with_nocase(std::string_view text, std::size_t at, std::string_view lower_word) {
  if (text.size() - at < lower_word.size()) return false;
  for (std::size_t k = 0; k < lower_word.size(); ++k)
    if (lower(text[at + k]) != lower_word[k]) return false;
  return true;
}

// Where the text after `</name ...>` starts, or html.size().
std::size_t after_end_tag(std::string_view html, std::size_t from, std::string_view name) {
  while (true) {
    std::size_t lt = html.find("</", from);
    if (lt == std::string_view::npos) return html.size();
    if (starts_with_nocase(html, lt + 2, name)) {
      std::size_t gt = html.find('>', lt + 2 + name.size());
      return gt == std::string_view::npos ? html.size() : gt + 1;
    }
    from = lt + 2;
  }
}

// Elements whose content is not page text (left whole, up to the end tag).
constexpr std::string_view kSkippedWhole[] = {"script", "style",    "noscript", "template",
                                              "svg",    "textarea", "title"};
// Boilerplate containers: their content is left out while one is open.
constexpr std::string_view kBoilerplate[] = {"head", "nav", "header", "footer", "aside"};

template <std::size_t N>
int index_of(const std::string_view (&names)[N], std::string_view name) {
  for (std::size_t k = 0; k < N; ++k)
    if (names[k] == name) return static_cast<int>(k);
  return -1;
}

const char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int base64url_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

constexpr std::size_t kEncodedValues = (kValues * 8 + 5) / 6;  // 267

}  // namespace

std::optional<PageSketch> sketch_text(std::string_view text) {
  Sketcher sketcher;
  sketcher.add_text(text);
  return sketcher.finish();
}

namespace {

// Feeds the main text of `html` to `sketcher` (see sketch_html()).
void read_main_text(std::string_view html, Sketcher& sketcher) {
  int open[std::size(kBoilerplate)] = {};
  int boilerplate_open = 0;
  std::size_t i = 0;
  const std::size_t n = html.size();
  while (i < n && !sketcher.full()) {
    std::size_t lt = html.find('<', i);
    if (lt == std::string_view::npos) lt = n;
    if (boilerplate_open == 0) sketcher.add_text(html.substr(i, lt - i));
    sketcher.end_word();
    if (lt == n) break;
    i = lt + 1;
    if (html.compare(i, 3, "!--") == 0) {
      std::size_t end = html.find("-->", i + 3);
      i = end == std::string_view::npos ? n : end + 3;
      continue;
    }
    bool closing = i < n && html[i] == '/';
    if (closing) ++i;
    char name_buffer[16];
    std::size_t name_size = 0;
    while (i < n && name_size < sizeof name_buffer &&
           (kFold.fold[static_cast<unsigned char>(html[i])] < 0x80 &&
            (kFold.fold[static_cast<unsigned char>(html[i])] != 0 || html[i] == '-')))
      name_buffer[name_size++] = lower(html[i++]);
    if (name_size == 0 && !closing && (i >= n || (html[i] != '!' && html[i] != '?')))
      continue;  // a '<' in text
    // The end of the tag: its first '>' (one inside a quoted attribute value ends it early and
    // the rest reads as text, on every copy of the page alike).
    std::size_t gt = html.find('>', i);
    if (gt == std::string_view::npos) break;
    bool self_closing = gt > 0 && html[gt - 1] == '/';
    i = gt + 1;
    // Most tags (a, p, td, div, img, span...) are none of the names below: a length and
    // first-letter test passes them by without a lookup.
    if (name_size < 3 || name_size > 8 || !std::strchr("abfhnst", name_buffer[0])) continue;
    std::string_view name(name_buffer, name_size);
    if (closing) {
      int b = index_of(kBoilerplate, name);
      if (b >= 0 && open[b] > 0) --open[b], --boilerplate_open;
      continue;
    }
    if (!self_closing && index_of(kSkippedWhole, name) >= 0) {
      i = after_end_tag(html, i, name);
      continue;
    }
    if (name == "body") {  // a <head> never closed ends here
      boilerplate_open -= open[0];
      open[0] = 0;
    }
    int b = index_of(kBoilerplate, name);
    if (b >= 0 && !self_closing) ++open[b], ++boilerplate_open;
  }
}

}  // namespace

std::optional<PageSketch> sketch_html(std::string_view html) {
  Sketcher sketcher;
  read_main_text(html, sketcher);
  return sketcher.finish();
}

std::vector<uint64_t> page_shingles(std::string_view html) {
  std::vector<uint64_t> shingles;
  Sketcher sketcher(&shingles);
  read_main_text(html, sketcher);
  sketcher.end_word();
  std::sort(shingles.begin(), shingles.end());
  shingles.erase(std::unique(shingles.begin(), shingles.end()), shingles.end());
  shingles.shrink_to_fit();
  return shingles;
}

double estimated_jaccard(const PageSketch& a, const PageSketch& b) {
  std::size_t same = 0;
  for (std::size_t i = 0; i < kValues; ++i) same += a.values[i] == b.values[i];
  // Two different minima agree on 8 bits with probability 1/256: P(same) = J + (1 − J)/256.
  constexpr double chance = 1.0 / 256;
  double j = (static_cast<double>(same) / kValues - chance) / (1 - chance);
  return std::clamp(j, 0.0, 1.0);
}

std::array<uint64_t, PageSketch::kBands> band_keys(const PageSketch& s) {
  std::array<uint64_t, PageSketch::kBands> keys;
  for (std::size_t band = 0; band < PageSketch::kBands; ++band)
    keys[band] =
        XXH3_64bits_withSeed(s.values.data() + band * PageSketch::kRows, PageSketch::kRows, band);
  return keys;
}

std::string encode_page_sketch(const PageSketch& s) {
  std::string out = std::to_string(s.shingles);
  out.push_back(':');
  uint32_t bits = 0;
  int held = 0;
  for (uint8_t v : s.values) {
    bits = (bits << 8) | v, held += 8;
    while (held >= 6) out.push_back(kBase64Url[(bits >> (held - 6)) & 63]), held -= 6;
  }
  if (held > 0) out.push_back(kBase64Url[(bits << (6 - held)) & 63]);
  return out;
}

std::optional<PageSketch> decode_page_sketch(std::string_view text) {
  std::size_t colon = text.find(':');
  if (colon == 0 || colon == std::string_view::npos || colon > 10 || text[0] == '0' ||
      text.size() - colon - 1 != kEncodedValues)
    return std::nullopt;
  PageSketch out;
  uint64_t shingles = 0;
  for (std::size_t k = 0; k < colon; ++k) {
    if (text[k] < '0' || text[k] > '9') return std::nullopt;
    shingles = shingles * 10 + static_cast<uint64_t>(text[k] - '0');
  }
  if (shingles == 0 || shingles > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  out.shingles = static_cast<uint32_t>(shingles);
  uint32_t bits = 0;
  int held = 0;
  std::size_t filled = 0;
  for (char c : text.substr(colon + 1)) {
    int v = base64url_value(c);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<uint32_t>(v), held += 6;
    if (held >= 8 && filled < kValues) {
      out.values[filled++] = static_cast<uint8_t>(bits >> (held - 8));
      held -= 8;
    }
    bits &= (1u << held) - 1;
  }
  if (filled != kValues || bits != 0) return std::nullopt;  // unused low bits must be zero
  return out;
}

std::vector<uint32_t> page_groups(std::span<const PageSketch* const> pages,
                                  std::span<const std::string_view> same_page) {
  const auto n = static_cast<uint32_t>(pages.size());
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  // Union keeping the smaller root, so a component's root is its smallest index.
  auto unite = [&](uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  if (same_page.size() == n) {
    std::unordered_map<std::string_view, uint32_t> first_named;
    for (uint32_t i = 0; i < n; ++i) unite(first_named.emplace(same_page[i], i).first->second, i);
  }
  // Identical sketches first: one representative each takes part in the band comparisons.
  std::unordered_map<uint64_t, std::vector<uint32_t>> identical;
  std::vector<uint32_t> distinct;
  for (uint32_t i = 0; i < n; ++i) {
    if (!pages[i]) continue;
    auto& same = identical[XXH3_64bits(pages[i]->values.data(), kValues)];
    bool found = false;
    for (uint32_t other : same)
      if (pages[other]->values == pages[i]->values) {
        unite(other, i), found = true;
        break;
      }
    if (!found) same.push_back(i), distinct.push_back(i);
  }
  std::vector<std::array<uint64_t, PageSketch::kBands>> keys;
  keys.reserve(distinct.size());
  for (uint32_t i : distinct) keys.push_back(band_keys(*pages[i]));
  std::unordered_map<uint64_t, std::vector<uint32_t>> bucket;
  for (std::size_t band = 0; band < PageSketch::kBands; ++band) {
    bucket.clear();
    for (std::size_t k = 0; k < distinct.size(); ++k) bucket[keys[k][band]].push_back(distinct[k]);
    for (const auto& [key, members] : bucket)
      for (std::size_t x = 0; x < members.size(); ++x)
        for (std::size_t y = x + 1; y < members.size(); ++y)
          if (find(members[x]) != find(members[y]) &&
              near_duplicate_pages(*pages[members[x]], *pages[members[y]]))
            unite(members[x], members[y]);
  }
  std::vector<uint32_t> group(n);
  for (uint32_t i = 0; i < n; ++i) group[i] = find(i);
  return group;
}

std::optional<std::string> PageNearDuplicates::add(std::string_view url, const PageSketch& sketch) {
  std::optional<std::string> match;
  auto id = static_cast<uint32_t>(sketches_.size());
  for (uint64_t key : band_keys(sketch)) {
    auto& pages = bands_[key];
    for (uint32_t other : pages)
      if (!match && near_duplicate_pages(sketch, sketches_[other])) match = urls_[other];
    pages.push_back(id);
  }
  sketches_.push_back(sketch);
  urls_.emplace_back(url);
  return match;
}

}  // namespace strata::similar
