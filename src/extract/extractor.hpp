#pragma once
// The extraction stage for one archive file: every record becomes zero or more JSONL lines
// ("image", "revisit", "ref"; see docs/extraction.md). Bad records are counted and skipped.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "core/counters.hpp"
#include "core/json.hpp"
#include "core/problems.hpp"
#include "extract/html_refs.hpp"
#include "extract/image_info.hpp"

namespace strata::extract {

struct ExtractOptions {
  std::string collection;
  SizeGates gates;                // --min-side, --max-area
  RefOptions refs;                // <img> cap, caption budget
  size_t max_payload = 64 << 20;  // larger payloads are skipped (counted)
};

// Called once per record with the compressed bytes consumed since the previous call (for a
// progress bar).
using ProgressFn = std::function<void(uint64_t)>;

// Reads `path`, writes one JSON object per line to `out`, adds to `counters`. `file_label`
// is what the records' "file" field says (the stable archive key, archive::archive_key),
// followed inside a WACZ by "#" and the member; "offset" is Record::location().
// Returns false when the file could not be read as an archive at all.
bool extract_archive(const std::filesystem::path& path, const std::string& file_label,
                     const ExtractOptions& options, std::ostream& out, Counters& counters,
                     const ProblemSink& problems, const ProgressFn& progress = {});

// The Table-3-style description statistics (paper §3.3) from extraction counters: share of
// image references with alt or title, with a caption, with any of them; and the shares of
// text still mis-encoded after repair (pages, references, captions; Arquivo: 1.48 % of
// captions).
Json description_stats(const Counters& counters);

}  // namespace strata::extract
