#pragma once
// Helpers shared by the analyze tests.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace strata::analyze::test
