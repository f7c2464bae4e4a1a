#pragma once
// The Xapian layout of a Strata image index: term prefixes, value slots and field weights.
// Changing anything here changes the on-disk format (bump kSchemaVersion).
#include <xapian.h>

#include <array>
#include <string_view>

namespace strata::index {

// 11: pHash (8 raw bytes) and PDQ (32, new slot 19) in value slots only, out of the stored
// data. 10: book language (AL) and publication-year (AY) terms; stored field 46, distinctPages.
inline constexpr std::string_view kSchemaVersion = "11";

// Ranked text fields, one combined field (docs/search.md, "Analysis"). Every word, stop
// words included, is indexed once, as its folded Portuguese stem (no prefix), wdf x field
// weight: BM25F matching and scoring (like Solr's text_pt, which keeps stems only). The words
// of the image's own descriptions (title, alt, caption) also get positions, for the phrase
// boosts and quoted phrases; each field's positions lie in a range of their own, so phrases
// never span two fields. Page titles and URL tokens get none: positions were 42 % of the
// index, 60 % of them in those fields, and their words still score (docs/search.md, "Phrase
// boosts").
struct TextField {
  std::string_view name;  // ImageDocument / V1 field name
  unsigned weight;        // Arquivo's qf boost
  bool positional;        // phrase boosts and quoted phrases match in this field
};

inline constexpr std::array<TextField, 7> kTextFields{{
    {"imgTitle", 4, true},
    {"imgAlt", 3, true},
    {"imgCaption", 3, true},
    {"imgUrlTokens", 2, false},
    {"pageTitle", 1, false},
    {"pageUrlTokens", 1, false},
    {"bookText", 1, false},  // a book image's authors, subjects, chapter heading (book_facts.hpp)
}};

// Positions of field k are [1 + k * kFieldPositions, 1 + (k + 1) * kFieldPositions); words
// beyond a field's range are indexed without a position.
inline constexpr Xapian::termpos kFieldPositions = 1u << 20;
// Gap between the values of a multi-valued field, so phrases never span two values.
inline constexpr Xapian::termpos kValueGap = 100;

namespace prefix {
inline constexpr std::string_view id =
    "Q";  // document id (unique; first 16 raw bytes of a hex digest)
inline constexpr std::string_view mime = "M";    // mime subtype: Mjpeg, Mpng
inline constexpr std::string_view host = "H";    // exact page host
inline constexpr std::string_view domain = "D";  // every proper parent domain of the host
inline constexpr std::string_view collection = "K";
inline constexpr std::string_view blocked = "B";     // present only on blocked documents
inline constexpr std::string_view inline_img = "I";  // present only on inline (data:) images
inline constexpr std::string_view img_url = "U";     // 5-byte hash of the image URL (replay)
inline constexpr std::string_view page_url = "V";    // 5-byte hash of the page URL (replay)
inline constexpr std::string_view digest = "G";      // imgDigest, where the id is not it
inline constexpr std::string_view drawing = "J";     // present only on drawings/illustrations
// Present only on decorative images: spacers, bars, icons, emoji (index/decorative.hpp).
inline constexpr std::string_view decorative = "L";
// Present only on images most pages show in their chrome (header, navigation, footer,
// sidebar; index/position_prior.hpp): they get no place prior. A site's logo is not chrome.
inline constexpr std::string_view chrome = "P";
// Z + the group leader's pHash (16 hex digits): members of a near-duplicate group of two or
// more images (index/near_duplicate_groups.hpp).
inline constexpr std::string_view near_duplicate_group = "Z";
// Present only on images safe search hides: not classified, or scored above kSafeThreshold.
// A posting list of ~10 % of the documents, where the safe slot's value range made every
// match read its value (a quarter of a query's CPU at 1M: docs/BENCHMARKS.md, "Search").
inline constexpr std::string_view safe_hidden = "S";
// Year, month and day of every capture after the first: Y + yyyy, Y + yyyyMM, Y + yyyyMMdd
// (capture_dates.hpp).
inline constexpr std::string_view capture = "Y";
// Present only on book images (docs/books.md "Indexing"): the kind=book|web filter.
inline constexpr std::string_view book = "A";
}  // namespace prefix

// Only what queries filter, sort or count on has a value slot (each slot is a value stream
// in the index, so it costs bytes per document); everything else is in the stored document.
// Mime type, page host, collections and the blocked flag are boolean terms (M, H/D, K, B).
namespace slot {
inline constexpr Xapian::valueno timestamp = 0;  // imgCrawlTimestamp packed (timestamp_value.hpp)
inline constexpr Xapian::valueno area = 4;       // width * height, sortable_serialise
inline constexpr Xapian::valueno safe = 8;       // safe-search score; no value = not classified
inline constexpr Xapian::valueno img_url = 14;   // tie-break key: the URL cut short
// pHash and PDQ in raw bytes (index/hash_values.hpp), and not in the stored data: near
// duplicates, the API's phash and pdq fields. The writer carries them over when it rewrites.
inline constexpr Xapian::valueno phash = 16;  // 64-bit pHash, 8 bytes big-endian
// The near-duplicate group's leader pHash, 8 bytes big-endian; only on members of a group of
// two or more: the collapse key (index/near_duplicate_groups.hpp).
inline constexpr Xapian::valueno group = 17;
// The visual embedding, 128 raw bytes (analyze/embedding.hpp): "visually similar" search.
// Kept only here (not in the stored data): the writer carries it over when it rewrites.
inline constexpr Xapian::valueno embedding = 18;
inline constexpr Xapian::valueno pdq = 19;  // 256-bit PDQ, 4 words of 8 bytes big-endian
// The k-th distinct capture year (k from 0, oldest first; 2 packed bytes) is in slot
// capture_year + k, for the years facet (capture_dates.hpp).
inline constexpr Xapian::valueno capture_year = 20;
}  // namespace slot

// Bytes of the image URL (after "scheme://") in the tie-break key.
inline constexpr size_t kTieBreakKeyBytes = 24;

inline constexpr double kSafeNotClassified = -1.0;

// Safe search shows only classified images whose safe-search score (analyze/safe_policy.hpp)
// is at most kSafeThreshold; the others get prefix::safe_hidden when indexed, so changing
// the threshold means reindexing.
inline constexpr double kSafeThreshold = 0.49;
inline bool safe_search_shows(double safe) {
  return safe >= 0 && safe <= kSafeThreshold;
}

// Metadata keys.
inline constexpr std::string_view kMetaSchema = "strata:schema";
inline constexpr std::string_view kMetaArchivePrefix = "strata:archive:";  // + key -> JSON
inline constexpr std::string_view kMetaDictionary = "strata:zdict";        // stored-data dictionary
// The last record-store batch (src/store) the documents reflect; absent before the first.
inline constexpr std::string_view kMetaStoreApplied = "strata:store-applied";

}  // namespace strata::index
