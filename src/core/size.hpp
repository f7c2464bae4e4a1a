#pragma once
// Byte sizes as people write them on a command line: "1G", "512M", "64K", "1.5G", "1GiB",
// "2TB", "4096". Single letters and the -iB forms are binary (K = 1024, as GNU sort -S, JVM
// -Xmx and Docker read them); the -B forms with a letter are decimal (KB = 1000, as GNU
// coreutils). Letters are case-insensitive; spaces between number and unit are allowed.
// Never throws: a value that is not a size, is negative or overflows 64 bits is refused.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

std::optional<uint64_t> parse_size(std::string_view text);

// What parse_size accepts, for error messages.
inline constexpr const char* kSizeFormat =
    "a number of bytes with an optional unit: 4096, 64K, 512M, 1.5G, 1GiB, 2TB";

}  // namespace strata
