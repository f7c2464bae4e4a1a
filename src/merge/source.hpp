#pragma once
// Where run_merge (pipeline.hpp) gets its records: sources, each run on one worker thread.
#include <functional>

#include "core/counters.hpp"
#include "merge/groups.hpp"

namespace strata::merge {

// A source pushes records into `emit`; it runs on one worker thread, and may count problems
// (e.g. unreadable lines) in `counters`.
using RecordEmit = std::function<void(const Record&)>;
using Source = std::function<void(const RecordEmit& emit, Counters& counters)>;

}  // namespace strata::merge
