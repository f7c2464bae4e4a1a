// libFuzzer target: the archive reader must never crash, hang or over-allocate on any input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "archive/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  strata::archive::ReaderOptions options;
  options.payload_cap = 1 << 20;
  auto reader = strata::archive::ArchiveReader::open_memory(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz", options,
      [](const strata::Problem&) {});
  std::string payload;
  for (int i = 0; i < 10000 && reader->next(); ++i) reader->read_payload(payload);
  return 0;
}
