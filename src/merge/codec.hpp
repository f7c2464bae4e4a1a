#pragma once
// Compact binary form of extraction records for spill files and in-memory runs: a type byte,
// then every field (strings as u32 length + bytes, integers little-endian as in memory).
// Several times faster to write and read than JSON; never leaves one merge run.
// The type bytes sort captures and revisits before references and notes: the sorter orders
// the values of a key by their first byte, so reducers know every capture of a key before
// the first reference arrives and can stream the references (reference_cap.hpp).
#include <string>
#include <string_view>

#include "merge/groups.hpp"

namespace strata::merge {

enum RecordTag : char {
  kCaptureTag = 'a',
  kRevisitTag = 'b',
  kReferenceTag = 'r',
  kDroppedTag = 's'
};

void encode(const Record& record, std::string& out);
// Throws std::runtime_error on truncated or unknown input.
void decode(std::string_view bytes, Record& out);

}  // namespace strata::merge
