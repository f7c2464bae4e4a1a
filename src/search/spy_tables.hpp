#pragma once
// Per-document values of an index held in memory for the search's match spies: the capture
// years (the years facet, docs/search.md "Capture dates") and the near-duplicate groups (the
// collapsed total, docs/search.md "Near-duplicate collapse"). A match spy that reads a value
// slot costs a value-stream read per match (about 700 instructions; the years facet was 28 %
// of the costliest queries' CPU at 1M, docs/BENCHMARKS.md "Search"); these tables answer with
// an array read. Each is built once per index revision from the slots' value streams and
// shared by every thread that searches that revision.
//
// Failure contract: the *_of() functions throw Xapian::Error when a slot cannot be read; they
// return nullptr where a table does not apply (several parts, a remote part, an index that is
// not a folder, more distinct years than a byte numbers), and the caller then counts with
// Xapian's stock ValueCountMatchSpy. Several local parts cannot have tables: a match spy over a
// combined database gets each document numbered within its own part, the parts one after the
// other, so it cannot tell whose table to read (LocalParts.* in tests/shard, docs/scale.md).
#include <xapian.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace strata::search {

// Each document's capture years (slots capture_year + 0, 1, ...: index/capture_dates.hpp).
class CaptureYears {
 public:
  static constexpr size_t kMaxYears = 255;  // distinct year values numbered in one byte

  // nullptr when `db` has more than kMaxYears distinct year values.
  static std::unique_ptr<CaptureYears> read(const Xapian::Database& db);

  // Year values (a year slot's bytes), numbered from 1.
  const std::vector<std::string>& values() const { return values_; }
  // The number (1...) of the first year of `docid`; 0 for none or an unknown docid.
  uint8_t first(Xapian::docid docid) const { return docid < first_.size() ? first_[docid] : 0; }
  // The further years (slots after the first), in docid order.
  const std::vector<std::pair<Xapian::docid, uint8_t>>& more() const { return more_; }

 private:
  std::vector<std::string> values_;
  std::vector<uint8_t> first_;
  std::vector<std::pair<Xapian::docid, uint8_t>> more_;
};

// The members of near-duplicate groups (slot::group, index/schema.hpp), in docid order, each
// with its group's number (0...).
class GroupMembers {
 public:
  static std::unique_ptr<GroupMembers> read(const Xapian::Database& db);

  const std::vector<std::pair<Xapian::docid, uint32_t>>& members() const { return members_; }
  size_t groups() const { return groups_; }

 private:
  std::vector<std::pair<Xapian::docid, uint32_t>> members_;
  size_t groups_ = 0;
};

// The tables of `db`'s current revision (one local index folder), built on first use and
// kept for the process; nullptr where they do not apply. `remote`: `db` has remote parts.
std::shared_ptr<const CaptureYears> capture_years_of(const Xapian::Database& db, bool remote);
std::shared_ptr<const GroupMembers> group_members_of(const Xapian::Database& db, bool remote);

// Counts the capture years of each match the matcher checks.
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

// Counts the matches the matcher checks, their group members, and the distinct groups.
class GroupCountSpy : public Xapian::MatchSpy {
 public:
  explicit GroupCountSpy(std::shared_ptr<const GroupMembers> groups);

  void operator()(const Xapian::Document& doc, double weight) override;

  uint64_t checked() const { return checked_; }
  uint64_t grouped() const { return grouped_; }
  uint64_t distinct() const { return distinct_; }

 private:
  std::shared_ptr<const GroupMembers> groups_;
  uint64_t checked_ = 0, grouped_ = 0, distinct_ = 0;
  std::vector<bool> seen_;
  size_t cursor_ = 0;  // in groups_->members()
};

}  // namespace strata::search
