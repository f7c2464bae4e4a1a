#include "testing/archive_damage.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "testing/containers.hpp"

namespace strata::testing {
namespace {

using Rng = std::mt19937_64;

uint64_t uniform(Rng& rng, uint64_t lo, uint64_t hi) {  // in [lo, hi]
  return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
}

// Random bytes that are never all blank, so a reader cannot skip them as padding.
std::string junk(Rng& rng, size_t n) {
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(uniform(rng, 0, 255));
  if (out[0] == '\r' || out[0] == '\n' || out[0] == ' ' || out[0] == '\t' || out[0] == '\0')
    out[0] = 'x';
  return out;
}

// Bytes [begin, end) of a record's raw form (its member inflated for gzip) that hold the
// declared block length: the Content-Length value, or the ARC header line's last field.
std::optional<std::pair<size_t, size_t>> length_field(std::string_view record, bool arc) {
  if (arc) {
    size_t end = record.find('\n');
    if (end == std::string_view::npos) return std::nullopt;
    while (end > 0 && (record[end - 1] == '\r' || record[end - 1] == ' ')) --end;
    size_t begin = record.rfind(' ', end - 1);
    if (begin == std::string_view::npos) return std::nullopt;
    return std::make_pair(begin + 1, end);
  }
  size_t head_end = record.find("\r\n\r\n");
  for (size_t line = record.find('\n'); line != std::string_view::npos && line < head_end;
       line = record.find('\n', line + 1)) {
    std::string_view rest = record.substr(line + 1);
    constexpr std::string_view kName = "content-length:";
    if (rest.size() < kName.size() ||
        !std::equal(kName.begin(), kName.end(), rest.begin(), [](char a, char b) {
          return a == std::tolower(static_cast<unsigned char>(b));
        }))
      continue;
    size_t begin = line + 1 + kName.size();
    while (begin < record.size() && record[begin] == ' ') ++begin;
    size_t end = record.find_first_of("\r\n", begin);
    if (end == std::string_view::npos) return std::nullopt;
    return std::make_pair(begin, end);
  }
  return std::nullopt;
}

// The head of a record's raw form: the WARC head with its blank line, or the ARC line.
std::string_view head_of(std::string_view record, bool arc) {
  size_t end = arc ? record.find('\n') : record.find("\r\n\r\n");
  if (end == std::string_view::npos) return {};
  return record.substr(0, end + (arc ? 1 : 4));
}

std::string new_length(DamageKind kind, std::string_view old, Rng& rng) {
  uint64_t value = 0;
  for (char c : old) value = value * 10 + static_cast<uint64_t>(c - '0');
  switch (kind) {
    case DamageKind::length_too_big:
      return std::to_string(value + uniform(rng, 1, 5000));
    case DamageKind::length_too_small:
      return std::to_string(value - uniform(rng, 1, std::min<uint64_t>(value, 2000)));
    case DamageKind::length_huge:
      return "99999999999";
    default:
      return "12x" + std::to_string(value);
  }
}

struct Picked {
  size_t index;
  const RecordSpan* span;
  std::string raw;  // the record's raw form (member inflated)
};

Picked pick_record(const ArchiveLayout& file, Rng& rng) {
  size_t i = uniform(rng, 0, file.records.size() - 1);
  const RecordSpan& span = file.records[i];
  std::string_view bytes = file.bytes.substr(span.offset, span.length);
  return {i, &span, file.gzip ? gunzip_all(bytes) : std::string(bytes)};
}

// The record with its length field rewritten: in place for plain files, a new member for gzip.
std::optional<Damage> bad_length(const ArchiveLayout& file, DamageKind kind, Rng& rng) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    Picked r = pick_record(file, rng);
    auto field = length_field(r.raw, file.arc);
    if (!field) continue;
    std::string_view old =
        std::string_view(r.raw).substr(field->first, field->second - field->first);
    bool numeric = !old.empty() && old.size() < 12 &&
                   old.find_first_not_of("0123456789") == std::string_view::npos;
    if (!numeric || (kind == DamageKind::length_too_small && old == "0")) continue;
    std::string value = new_length(kind, old, rng);
    if (!file.gzip)
      return Damage{kind, r.span->offset + field->first, r.span->offset + field->second, value};
    r.raw.replace(field->first, field->second - field->first, value);
    return Damage{kind, r.span->offset, r.span->offset + r.span->length, gzip_member(r.raw)};
  }
  return std::nullopt;
}

Damage flip_bytes(std::string_view bytes, DamageKind kind, uint64_t at, uint64_t end, Rng& rng) {
  uint64_t last = std::min<uint64_t>(end, at + uniform(rng, 1, 4));
  std::string replacement(bytes.substr(at, last - at));
  for (char& c : replacement) c = static_cast<char>(c ^ static_cast<char>(uniform(rng, 1, 255)));
  return {kind, at, last, std::move(replacement)};
}

// Plain files: flips in a record's framing (its first bytes, its length, the separator
// after it), as flips inside a plain payload cannot be seen without digests.
std::optional<Damage> flip_framing(const ArchiveLayout& file, Rng& rng) {
  Picked r = pick_record(file, rng);
  uint64_t o = r.span->offset;
  uint64_t end =
      r.index + 1 < file.records.size() ? file.records[r.index + 1].offset : file.bytes.size();
  uint64_t separator = o + r.span->length;
  auto field = length_field(r.raw, file.arc);
  switch (uniform(rng, 0, 2)) {
    case 0:
      if (field)
        return flip_bytes(file.bytes, DamageKind::flip, o + field->first, o + field->second, rng);
      [[fallthrough]];
    case 1:
      if (separator < end) return flip_bytes(file.bytes, DamageKind::flip, separator, end, rng);
      [[fallthrough]];
    default:
      return flip_bytes(file.bytes, DamageKind::flip, o + uniform(rng, 0, 4), o + 5, rng);
  }
}

// gzip: flips at or after the 10-byte member header, whose mtime and OS bytes are unchecked.
std::optional<Damage> flip_member(const ArchiveLayout& file, DamageKind kind, Rng& rng) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    const RecordSpan& m = file.records[uniform(rng, 0, file.records.size() - 1)];
    if (m.length < 24) continue;
    uint64_t end = m.offset + m.length;
    if (kind == DamageKind::gzip_bad_crc)
      return flip_bytes(file.bytes, kind, end - 8, end - 7, rng);
    uint64_t lo = m.offset + 10, hi = kind == DamageKind::flip ? end - 1 : end - 9;
    return flip_bytes(file.bytes, kind, uniform(rng, lo, hi), hi + 1, rng);
  }
  return std::nullopt;
}

// Somewhere strictly inside a record (not on its first byte), so the cut is real damage.
uint64_t inside_record(const ArchiveLayout& file, Rng& rng) {
  for (;;) {
    const RecordSpan& r = file.records[uniform(rng, 0, file.records.size() - 1)];
    if (r.length >= 2) return uniform(rng, r.offset + 1, r.offset + r.length - 1);
  }
}

std::optional<Damage> duplicate_head(const ArchiveLayout& file, Rng& rng) {
  Picked r = pick_record(file, rng);
  std::string_view head = head_of(r.raw, file.arc);
  if (head.empty()) return std::nullopt;
  std::string copy = file.gzip ? gzip_member(head) : std::string(head);
  return Damage{DamageKind::duplicate_head, r.span->offset, r.span->offset, std::move(copy)};
}

}  // namespace

std::string_view to_string(DamageKind kind) {
  switch (kind) {
    case DamageKind::truncate:
      return "truncate";
    case DamageKind::flip:
      return "flip";
    case DamageKind::junk:
      return "junk";
    case DamageKind::junk_before_record:
      return "junk_before_record";
    case DamageKind::delete_bytes:
      return "delete_bytes";
    case DamageKind::length_too_big:
      return "length_too_big";
    case DamageKind::length_too_small:
      return "length_too_small";
    case DamageKind::length_huge:
      return "length_huge";
    case DamageKind::length_not_a_number:
      return "length_not_a_number";
    case DamageKind::gzip_bad_crc:
      return "gzip_bad_crc";
    case DamageKind::gzip_bad_deflate:
      return "gzip_bad_deflate";
    case DamageKind::gzip_truncated_member:
      return "gzip_truncated_member";
    case DamageKind::duplicate_head:
      return "duplicate_head";
  }
  return "unknown";
}

std::string Damage::apply(std::string_view original) const {
  std::string out(original.substr(0, begin));
  out += replacement;
  out += original.substr(end);
  return out;
}

std::optional<uint64_t> Damage::moved(const RecordSpan& record) const {
  if (record.offset + record.length <= begin) return record.offset;
  if (record.offset >= end) return record.offset + replacement.size() - (end - begin);
  return std::nullopt;
}

std::optional<Damage> make_damage(const ArchiveLayout& file, DamageKind kind, Rng& rng) {
  if (file.records.empty()) return std::nullopt;
  uint64_t size = file.bytes.size();
  switch (kind) {
    case DamageKind::truncate:
      return Damage{kind, inside_record(file, rng), size, ""};
    case DamageKind::flip:
      return file.gzip ? flip_member(file, kind, rng) : flip_framing(file, rng);
    case DamageKind::junk: {
      uint64_t at = uniform(rng, file.gzip ? 1 : 0, size);
      return Damage{kind, at, at, junk(rng, uniform(rng, 1, 64))};
    }
    case DamageKind::junk_before_record: {
      // gzip files: not before the first member, which tells the file is gzip.
      if (file.gzip && file.records.size() < 2) return std::nullopt;
      uint64_t at = file.records[uniform(rng, file.gzip ? 1 : 0, file.records.size() - 1)].offset;
      return Damage{kind, at, at, junk(rng, uniform(rng, 1, 8))};
    }
    case DamageKind::delete_bytes: {
      uint64_t at = inside_record(file, rng);
      return Damage{kind, at, std::min(size, at + uniform(rng, 1, 256)), ""};
    }
    case DamageKind::length_too_big:
    case DamageKind::length_too_small:
    case DamageKind::length_huge:
    case DamageKind::length_not_a_number:
      return bad_length(file, kind, rng);
    case DamageKind::gzip_bad_crc:
    case DamageKind::gzip_bad_deflate:
      if (!file.gzip) return std::nullopt;
      return flip_member(file, kind, rng);
    case DamageKind::gzip_truncated_member: {
      if (!file.gzip) return std::nullopt;
      const RecordSpan& m = file.records[uniform(rng, 0, file.records.size() - 1)];
      if (m.length < 12) return std::nullopt;
      return Damage{kind, uniform(rng, m.offset + 10, m.offset + m.length - 1), m.offset + m.length,
                    ""};
    }
    case DamageKind::duplicate_head:
      return duplicate_head(file, rng);
  }
  return std::nullopt;
}

}  // namespace strata::testing
