#pragma once
// Extraction records from JSONL lines, fast: simdjson's DOM parser (Debian's libsimdjson,
// dispatched at run time to the CPU's SIMD kernels) straight into a reused Record, about 20x
// nlohmann's speed. A line it does not take whole (not JSON, not an object, a type other than
// image/revisit/ref, a field of an unexpected JSON type, a number out of its field's range)
// is read again by record_from_json (nlohmann), so every line gets exactly the treatment it
// always had: the same record, or the same verdict and message.
#include <memory>
#include <string>
#include <string_view>

#include "merge/groups.hpp"

namespace strata::merge {

class RecordReader {
 public:
  enum class Result { record, not_record, malformed };

  RecordReader();
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  // Reads one line (without its '\n') into `out`, reusing its strings' memory. On
  // `malformed`, error() says why (nlohmann's message).
  Result read(std::string_view line, Record& out);
  const std::string& error() const { return error_; }

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
  std::string error_;
};

}  // namespace strata::merge
