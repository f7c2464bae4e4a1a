// bench_locate: the cost of reading records again by their location (read_record_at), on
// any archive; made for whole-file gzip/zstd, where the first read builds the checkpoint
// index (one decode of the file) and later reads resume at the nearest checkpoint.
//
//   bench_locate FILE [--samples N]
//
// Prints the scan time (reading every record once, as extraction does), the first read (the
// last record: index build included), and the median / p95 / max of N reads of records
// picked at random (fixed seed) with their payloads.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "archive/reader.hpp"

using strata::archive::ArchiveReader;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double read_at(const std::string& file, uint64_t location) {
  const auto start = std::chrono::steady_clock::now();
  auto reader = strata::archive::read_record_at(file, location, {}, {});
  std::string payload;
  if (!reader || reader->read_payload(payload) == strata::archive::PayloadStatus::oversized) {
    std::fprintf(stderr, "record at %llu not read\n", static_cast<unsigned long long>(location));
    std::exit(1);
  }
  return seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_locate FILE [--samples N]\n");
    return 2;
  }
  const std::string file = argv[1];
  size_t samples = 200;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--samples") == 0) samples = std::strtoul(argv[i + 1], nullptr, 10);
  auto start = std::chrono::steady_clock::now();
  std::vector<uint64_t> locations;
  auto reader = ArchiveReader::open(file, {}, {});
  while (reader->next()) locations.push_back(reader->record().location());
  const double scan = seconds_since(start);
  if (locations.empty()) return 1;
  const double first = read_at(file, locations.back());
  std::mt19937_64 random(42);
  std::vector<double> times;
  for (size_t i = 0; i < samples; ++i)
    times.push_back(read_at(file, locations[random() % locations.size()]));
  std::sort(times.begin(), times.end());
  std::printf(
      "%s: %zu records, scan %.2f s, first read (last record) %.3f s, "
      "random reads median %.2f ms p95 %.2f ms max %.2f ms\n",
      file.c_str(), locations.size(), scan, first, 1e3 * times[times.size() / 2],
      1e3 * times[times.size() * 95 / 100], 1e3 * times.back());
  return 0;
}
