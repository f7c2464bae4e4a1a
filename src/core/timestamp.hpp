#pragma once
// Capture timestamps are 14-digit strings (yyyyMMddHHmmss, UTC) everywhere in Strata, as in
// CDX files and Wayback URLs. These functions normalise the many forms found in archives.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

// WARC-Date (ISO 8601: "2008-04-30T20:48:25Z", fractions, offsets, date-only) -> 14 digits.
std::optional<std::string> timestamp_from_iso8601(std::string_view text);

// ARC dates and other digit strings of 4 to 18 digits (10/12 digits padded with zeros,
// 15-18 digits truncated, as CDX-Writer and Arquivo do). Returns nullopt for garbage or
// impossible calendar values.
std::optional<std::string> timestamp_from_digits(std::string_view text);

// 14 digits -> seconds since the Unix epoch (for true time distances); nullopt if invalid.
std::optional<int64_t> timestamp_to_epoch(std::string_view ts14);

// Seconds since the epoch -> 14 digits.
std::string timestamp_from_epoch(int64_t seconds);

// 14 digits -> "2008-04-30T20:48:25Z".
std::string timestamp_to_iso8601(std::string_view ts14);

}  // namespace strata
