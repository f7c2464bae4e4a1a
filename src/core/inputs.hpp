#pragma once
// Expands command-line inputs into archive files: plain files, directories (searched
// recursively for archive files) and list files ("@paths.txt", one path per line).
#include <filesystem>
#include <string>
#include <vector>

#include "core/problems.hpp"

namespace strata {

// True for names that look like web archives: .warc, .arc, .warc.gz, .arc.gz, .warc.zst,
// .wacz (and upper-case variants).
bool looks_like_archive(const std::filesystem::path& path);

// Missing paths are reported to `problems` (kind "input_missing") and skipped. The result is
// sorted and de-duplicated so runs are deterministic.
std::vector<std::filesystem::path> expand_inputs(const std::vector<std::string>& args,
                                                 const ProblemSink& problems);

}  // namespace strata
