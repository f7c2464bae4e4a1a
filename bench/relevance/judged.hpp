#pragma once
// The relevance kit's judgments (bench/relevance/queries.jsonl, layout.jsonl): graded
// images by URL per query, and the images judged decorative (spacers, bars, emoji).
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace strata::bench {

struct JudgedQuery {
  std::string query;
  std::string set;                   // "tune" or "heldout"
  std::map<std::string, int> grade;  // image URL -> 0..3; unjudged images are 0
};

// One JSON object per line: {"query","set","about","judgments":[{"url","grade","reason"}]}.
// Throws std::runtime_error naming the line on malformed input.
std::vector<JudgedQuery> read_queries(const std::filesystem::path& file);
// One JSON object per line: {"url","reason"}.
std::set<std::string> read_layout(const std::filesystem::path& file);

}  // namespace strata::bench
