#pragma once
// Runs an archive through the reader and returns its CDXJ lines in file order.
#include <filesystem>
#include <string>
#include <vector>

#include "core/problems.hpp"

namespace strata::cdx {

// The lines cdxj-indexer writes for one (W)ARC, unsorted; "filename" is the base name.
std::vector<std::string> index_file(const std::filesystem::path& path, ProblemSink problems);

}  // namespace strata::cdx
