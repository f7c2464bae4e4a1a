#pragma once
// Helpers shared by the analyze tests.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyze/image.hpp"
#include "testing/shared_data.hpp"

namespace strata::analyze::test {

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::filesystem::path image_hashes_dir() {
  return strata::testing::peer_tests("netarchivesuite__image-hashes");
}

inline std::filesystem::path cat_image(const std::string& name) {
  return image_hashes_dir() / "src/test/resources/test_images" / name;
}

// A cat image of the suite, decoded at full size.
inline RgbImage decode_cat(const std::string& name) {
  RgbImage image;
  EXPECT_EQ(decode_rgb(read_file(cat_image(name)), {}, image), DecodeStatus::ok) << name;
  return image;
}

// One row of the suite's expected-hashes.tsv.
struct ExpectedHashes {
  std::string file;
  std::string phash_hex;
  int phash_vs_original = 0;
  std::string pdq_hex;
  int pdq_vs_original = 0;
};

inline std::vector<ExpectedHashes> expected_hashes() {
  std::ifstream in(image_hashes_dir() / "expected-hashes.tsv");
  std::vector<ExpectedHashes> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream s(line);
    for (std::string col; std::getline(s, col, '\t');) cols.push_back(col);
    if (cols.size() >= 6)
      rows.push_back({cols[0], cols[2], std::stoi(cols[3]), cols[4], std::stoi(cols[5])});
  }
  return rows;
}

}  // namespace strata::analyze::test
