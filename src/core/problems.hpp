#pragma once
// Problems found in the input (a malformed record, a file that is not an archive, ...).
// Bad input never stops a run: each problem is counted by kind and reported with the file
// and byte offset where it was found.
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/counters.hpp"

namespace strata {

struct Problem {
  std::string file;
  uint64_t offset = 0;
  std::string kind;    // stable identifier, e.g. "bad_record_header"
  std::string detail;  // human-readable explanation
};

std::string to_string(const Problem& problem);

// Receives problems as they are found; the default sink is a ProblemLog.
using ProblemSink = std::function<void(const Problem&)>;

// Thread-safe collector: keeps counts per kind and the first `keep` problems in full.
class ProblemLog {
 public:
  explicit ProblemLog(size_t keep = 1000) : keep_(keep) {}
  void report(const Problem& problem);
  ProblemSink sink() {
    return [this](const Problem& p) { report(p); };
  }
  size_t total() const;
  Counters by_kind() const;
  std::vector<Problem> kept() const;

 private:
  mutable std::mutex mutex_;
  size_t keep_;
  size_t total_ = 0;
  Counters by_kind_;
  std::vector<Problem> kept_;
};

// The end-of-run report: totals by kind, then up to `max_lines` problems as file:offset lines.
std::string problem_report(const ProblemLog& log, size_t max_lines = 20);

// The same as a report section (core/report.hpp): {"total", "by_kind": {...}, "first":
// [file:offset lines], "more"}; {"total": 0} when there were none; no lines when
// `max_lines` is 0.
Json problems_json(const ProblemLog& log, size_t max_lines = 20);

}  // namespace strata
