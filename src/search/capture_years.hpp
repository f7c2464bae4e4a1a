#pragma once
// The capture years of every document of an index, held in memory for the years facet
// (docs/search.md, "Years facet"). Counting a match's years from Xapian's value slots costs a
// value-stream read per match (about 700 instructions: a quarter of a common word's query,
// docs/BENCHMARKS.md, "Search"); the table answers with an array read. It is built once per
// index revision from the year slots' value streams (index/capture_dates.hpp) and shared by
// every thread that searches that revision.
//
// Failure contract: capture_years_of() throws Xapian::Error when the slots cannot be read; it
// returns nullptr where the table does not apply (several parts, a remote part, more distinct
// years than it numbers), and the facet is then counted from the slots.
#include <xapian.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace strata::search {

class CaptureYears {
 public:
  static constexpr size_t kMaxYears = 255;  // distinct year values numbered in one byte

  // nullptr when `db` has more than kMaxYears distinct year values.
  static std::unique_ptr<CaptureYears> read(const Xapian::Database& db);

  // Year values (a year slot's bytes), numbered from 1.
  const std::vector<std::string>& values() const { return values_; }
  // The number (1...) of the first year of `docid`; 0 for none or an unknown docid.
  uint8_t first(Xapian::docid docid) const { return docid < first_.size() ? first_[docid] : 0; }
  // Its further years (slots after the first), in docid order.
  const std::vector<std::pair<Xapian::docid, uint8_t>>& more() const { return more_; }

 private:
  std::vector<std::string> values_;
  std::vector<uint8_t> first_;
  std::vector<std::pair<Xapian::docid, uint8_t>> more_;
};

// The table of `db`'s current revision (one local index folder), built on first use and
// kept for the process; nullptr where it does not apply. `remote`: `db` has remote parts.
std::shared_ptr<const CaptureYears> capture_years_of(const Xapian::Database& db, bool remote);

// Counts the capture years of each match the matcher checks, from a CaptureYears table. The
// matcher visits a local index's documents in docid order, which the further years' cursor
// relies on.
class CaptureYearsSpy : public Xapian::MatchSpy {
 public:
  explicit CaptureYearsSpy(std::shared_ptr<const CaptureYears> years);

  void operator()(const Xapian::Document& doc, double weight) override;

  uint64_t checked() const { return checked_; }
  // Year value -> matches captured that year (zero counts left out).
  std::vector<std::pair<std::string, uint64_t>> counts() const;

 private:
  std::shared_ptr<const CaptureYears> years_;
  uint64_t checked_ = 0;
  std::vector<uint64_t> counts_;
  size_t more_ = 0;  // cursor in years_->more()
};

}  // namespace strata::search
