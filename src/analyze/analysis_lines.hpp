#pragma once
// The lines of an analysis.jsonl by digest, without reading the whole file: an add to a big
// index wants the records of its own few thousand digests, not every record ever made (a
// million records are ~1 GB). A sorted table of (hash of the digest, line offset) beside the
// file, `<file>.offsets`, covers the file up to a length; each call first indexes the lines
// appended since (the tail), then reads only the wanted lines.
//
// The table is a cache: made again from the whole file when missing, unreadable, or not
// describing this file (its covered length beyond the file's, the bytes before that length
// changed, or an offset not at a line of the digest it names), and never required: when it
// cannot be written the call still answers, from the file. The answer is the same as a scan
// of the whole file keeping the wanted digests' lines (test `AnalysisLines.*`).
//
// Failure contract: a missing analysis file is an empty one; I/O errors while reading it end
// the scan early (as a torn read would); nothing is thrown.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::analyze {

// The digest of one analysis.jsonl line (digest_of_line, else the parsed "digest" string);
// empty when the line holds no record with a digest.
std::string record_digest(std::string_view line);

// Calls `fn` with every line of `analysis_jsonl` whose record's digest is one of `digests`, in
// file order (a digest analysed again has its later lines after its earlier ones). A last line
// without its newline (torn by a kill) is passed too, as a scan would read it.
void for_each_analysis_line(const std::filesystem::path& analysis_jsonl,
                            const std::vector<std::string_view>& digests,
                            const std::function<void(std::string_view line)>& fn);

// Brings the offsets table up to date (what for_each_analysis_line does first): for readers of
// the whole file, so that the next add does not index every line they read.
void update_analysis_offsets(const std::filesystem::path& analysis_jsonl);

// The offsets table of `analysis_jsonl`.
std::filesystem::path analysis_offsets_file(const std::filesystem::path& analysis_jsonl);

}  // namespace strata::analyze
