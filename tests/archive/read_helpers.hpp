#pragma once
// Test helpers: read a whole archive into a summary (types, offsets, payload sizes).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "archive/reader.hpp"

namespace strata::archive::test {

struct Summary {
  std::vector<Record> records;
  std::vector<std::string> payloads;  // read_payload() of each record
  std::map<std::string, int> by_type;
  std::vector<Problem> problems;
  bool usable = true;
  std::string types() const;  // "warcinfo,response,..." in file order
};

inline Summary read_all(const std::filesystem::path& path, bool payloads = true) {
  Summary s;
  ProblemSink sink = [&s](const Problem& p) { s.problems.push_back(p); };
  auto reader = ArchiveReader::open(path, {}, sink);
  while (reader->next()) {
    std::string payload;
    if (payloads) reader->read_payload(payload);
    reader->finish_record();
    s.records.push_back(reader->record());
    s.payloads.push_back(std::move(payload));
    ++s.by_type[std::string(to_string(reader->record().type))];
  }
  s.usable = reader->usable();
  return s;
}

inline std::string Summary::types() const {
  std::string out;
  for (const auto& r : records) out += (out.empty() ? "" : ",") + std::string(to_string(r.type));
  return out;
}

}  // namespace strata::archive::test
