#pragma once
// The in-process merge: both jobs of docs/merge.md, out of core and in parallel.
//   phase 1  read sources (one worker per source), key records by SURT      -> runs
//   phase 2  per SURT partition: merge_surt, key the result by digest       -> runs
//   phase 3  per digest range: build_documents, write documents by id       -> out, part files
//   phase 4  the part files appended in digest-range order                  -> out
#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <vector>

#include "core/counters.hpp"
#include "merge/digest_merge.hpp"
#include "merge/groups.hpp"
#include "merge/jsonl_source.hpp"
#include "merge/source.hpp"

namespace strata::merge {

// For benchmarks: how much of the merge's CPU time ran beside other work.
struct MergeTimes {
  // CPU seconds of the workers of each parallel step but the busiest one. The process's CPU
  // time minus this is its critical path: the wall time it would take with --jobs idle cores.
  double overlapped_cpu_s = 0;
};

struct MergeOptions {
  Mode mode = Mode::compact;
  unsigned jobs = 1;
  uint64_t memory = uint64_t{1} << 30;  // bytes for buffered records (both jobs together)
  std::filesystem::path work_dir;       // spill files; created, and emptied at the end
  MergeTimes* times = nullptr;          // added to when set
};

// Writes the documents as JSONL, sorted by id, to `out`; returns the counters (names in
// docs/merge.md). Throws std::runtime_error when the work dir cannot be written.
Counters run_merge(const std::vector<Source>& sources, const MergeOptions& options,
                   std::ostream& out);

// Paper Table 2: records, after the SURT merge, after the digest merge, with percentages, as
// rows for a report (core/report.hpp) and as the text table they make.
Json table2_rows(const Counters& counters);
std::string table2_report(const Counters& counters);

}  // namespace strata::merge
