#pragma once
// The Xapian layout of a Strata image index: term prefixes, value slots and field weights.
// Changing anything here changes the on-disk format (bump kSchemaVersion).
#include <xapian.h>

#include <array>
#include <string_view>

namespace strata::index {

inline constexpr std::string_view kSchemaVersion = "4";

// Ranked text fields, one combined field (docs/search.md, "Analysis"). Every word is
// indexed as
//   <exact>   wdf x weight, positional: BM25F matching and scoring, and the phrase boosts;
//             each field's positions lie in a range of their own, so phrases never span two
//   Z<stem>   wdf x weight (no Z<stem> for stop words): BM25F matching of other word forms
struct TextField {
  std::string_view name;  // ImageDocument / V1 field name
  unsigned weight;        // Arquivo's qf boost
};

inline constexpr std::array<TextField, 6> kTextFields{{
    {"imgTitle", 4},
    {"imgAlt", 3},
    {"imgCaption", 3},
    {"imgUrlTokens", 2},
    {"pageTitle", 1},
    {"pageUrlTokens", 1},
}};

// Positions of field k are [1 + k * kFieldPositions, 1 + (k + 1) * kFieldPositions); words
// beyond a field's range are indexed without a position.
inline constexpr Xapian::termpos kFieldPositions = 1u << 20;
// Gap between the values of a multi-valued field, so phrases never span two values.
inline constexpr Xapian::termpos kValueGap = 100;

namespace prefix {
inline constexpr std::string_view stem = "Z";
inline constexpr std::string_view id = "Q";      // document id (unique; raw bytes of a hex digest)
inline constexpr std::string_view mime = "M";    // mime subtype: Mjpeg, Mpng
inline constexpr std::string_view host = "H";    // exact page host
inline constexpr std::string_view domain = "D";  // every proper parent domain of the host
inline constexpr std::string_view collection = "K";
inline constexpr std::string_view year = "Y";        // capture year of imgCrawlTimestamp
inline constexpr std::string_view blocked = "B";     // present only on blocked documents
inline constexpr std::string_view inline_img = "I";  // present only on inline (data:) images
inline constexpr std::string_view img_url = "U";     // 8-byte hash of the image URL (replay)
inline constexpr std::string_view page_url = "V";    // 8-byte hash of the page URL (replay)
inline constexpr std::string_view digest = "G";      // imgDigest, where the id is not it
inline constexpr std::string_view drawing = "J";     // present only on drawings/illustrations
}  // namespace prefix

namespace slot {
inline constexpr Xapian::valueno timestamp = 0;  // imgCrawlTimestamp, 14 digits
inline constexpr Xapian::valueno latest = 1;     // imgCrawlTimestampLatest
inline constexpr Xapian::valueno width = 2;      // sortable_serialise
inline constexpr Xapian::valueno height = 3;
inline constexpr Xapian::valueno area = 4;  // width * height
// Slots 5-7 and 9 are free: mime type, page host, collections and the blocked flag are boolean
// terms (M, H/D, K, B), which is how queries filter on them.
inline constexpr Xapian::valueno safe = 8;  // NSFW score; -1 = not classified
inline constexpr Xapian::valueno matching_images = 10;
inline constexpr Xapian::valueno matching_pages = 11;
inline constexpr Xapian::valueno image_changes = 12;
inline constexpr Xapian::valueno page_changes = 13;
inline constexpr Xapian::valueno img_url = 14;  // tie-break key
inline constexpr Xapian::valueno year = 15;     // "yyyy", years facet
inline constexpr Xapian::valueno phash = 16;    // 64-bit pHash, 16 hex digits (near duplicates)
}  // namespace slot

inline constexpr double kSafeNotClassified = -1.0;

// Metadata keys.
inline constexpr std::string_view kMetaSchema = "strata:schema";
inline constexpr std::string_view kMetaArchivePrefix = "strata:archive:";  // + path -> "1"
inline constexpr std::string_view kMetaDictionary = "strata:zdict";        // stored-data dictionary

}  // namespace strata::index
