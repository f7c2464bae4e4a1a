#pragma once
// Seeded damage to real archive files for recovery tests: truncations, flipped bytes, junk,
// deleted bytes, bad lengths, damaged gzip members and duplicated heads. Each damage is one
// edit (bytes [begin, end) of the original replaced), so where every record of the original
// lies in the damaged file, and whether its bytes were touched, is known exactly.
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace strata::testing {

enum class DamageKind {
  truncate,               // the file ends inside a record
  flip,                   // a few bytes flipped (plain files: in a record's framing)
  junk,                   // random bytes inserted anywhere
  junk_before_record,     // random bytes inserted just before a record
  delete_bytes,           // a run of bytes removed
  length_too_big,         // Content-Length (ARC: length field) raised
  length_too_small,       // ... lowered
  length_huge,            // ... far past the end of the file
  length_not_a_number,    // ... not a number
  gzip_bad_crc,           // a member's CRC-32 flipped
  gzip_bad_deflate,       // bytes of a member's deflate data flipped
  gzip_truncated_member,  // a member's tail removed, the next member kept
  duplicate_head,         // a record's head inserted again before it
};
inline constexpr DamageKind kAllDamageKinds[] = {DamageKind::truncate,
                                                 DamageKind::flip,
                                                 DamageKind::junk,
                                                 DamageKind::junk_before_record,
                                                 DamageKind::delete_bytes,
                                                 DamageKind::length_too_big,
                                                 DamageKind::length_too_small,
                                                 DamageKind::length_huge,
                                                 DamageKind::length_not_a_number,
                                                 DamageKind::gzip_bad_crc,
                                                 DamageKind::gzip_bad_deflate,
                                                 DamageKind::gzip_truncated_member,
                                                 DamageKind::duplicate_head};
std::string_view to_string(DamageKind kind);

// A record on disk: its gzip member in per-record gzip files, else head and block.
struct RecordSpan {
  uint64_t offset = 0;
  uint64_t length = 0;
};

struct ArchiveLayout {
  std::string_view bytes;
  bool gzip = false;  // one gzip member per record
  bool arc = false;
  std::vector<RecordSpan> records;  // in file order
};

struct Damage {
  DamageKind kind{};
  uint64_t begin = 0, end = 0;  // bytes of the original replaced ...
  std::string replacement;      // ... by these
  std::string apply(std::string_view original) const;
  // Where `record` starts in the damaged file; nullopt when its bytes overlap the damage.
  std::optional<uint64_t> moved(const RecordSpan& record) const;
};

// One damage of `kind` at a place drawn from `rng`; nullopt when the kind does not apply
// (gzip kinds on plain files, a file without records).
std::optional<Damage> make_damage(const ArchiveLayout& file, DamageKind kind, std::mt19937_64& rng);

}  // namespace strata::testing
