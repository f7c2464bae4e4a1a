#pragma once
// Re-packing real archives in the containers the reader accepts, for tests: whole-file gzip
// and zstd (one member/frame, or one per `chunk` decoded bytes, cut anywhere, not at record
// boundaries) and ZIP files laid out as WACZ.
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::testing {

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, std::string_view data);

// Every gzip member of `data`, decoded and joined.
std::string gunzip_all(std::string_view data);
// One gzip member holding `data`.
std::string gzip_member(std::string_view data);
// chunk 0: one member / frame for all of `data`.
std::string gzip_whole(std::string_view data, size_t chunk = 0);
std::string zstd_whole(std::string_view data, size_t chunk = 0);

// A ZIP of `entries` (name, bytes); entries under archive/ are stored, as WACZ writers do,
// unless `deflate_archives`, everything else deflated.
void write_zip(const std::filesystem::path& path,
               const std::vector<std::pair<std::string, std::string>>& entries,
               bool deflate_archives = false);

}  // namespace strata::testing
