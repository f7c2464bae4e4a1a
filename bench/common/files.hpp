#pragma once
// Test files for the benchmarks' --big runs.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace strata::bench {

// `from` repeated until the copy reaches `bytes`. A gzip WARC stays valid: it is a series of
// gzip members, and so is its repetition.
inline void repeat_file(const std::filesystem::path& from, const std::filesystem::path& to,
                        uint64_t bytes) {
  std::string data;
  {
    std::ifstream in(from, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (data.empty()) return;
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  for (uint64_t done = 0; done < bytes; done += data.size())
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

}  // namespace strata::bench
