#pragma once
// The date filter (from/to): a document matches when ANY of its capture times lies in the
// range (docs/search.md, "Capture dates"). The first capture is matched by a value range on
// the timestamp slot; the later ones by the fewest year, month and day terms that cover the
// whole days of the range (index/capture_dates.hpp), and a bound inside a day checks that
// day's documents against their capture times.
#include <xapian.h>

#include <optional>
#include <string>

namespace strata::search {

// Documents with a capture in [from, to] (14-digit timestamps, inclusive; one may be absent).
// MatchNothing (the empty query) when no capture of the index can lie in the range.
Xapian::Query capture_range_query(const Xapian::Database& db,
                                  const std::optional<std::string>& from,
                                  const std::optional<std::string>& to);

}  // namespace strata::search
