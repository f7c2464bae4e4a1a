#pragma once
// Checks a WACZ against the WACZ 1.1.1 layout, reading it with the project's own readers
// (libzip for the container, archive::read_record_at for the records): the required files
// (datapackage.json, datapackage-digest.json, pages/pages.jsonl, an indexes/ index, at least
// one archive/*.warc[.gz]); archive/ entries stored, not deflated; every file but the two
// datapackage files listed as a resource whose bytes and sha256 match; the digest file's
// hash of datapackage.json; pages.jsonl's header and lines; the CDXJ index sorted, each line
// naming an archive/ file and an offset where a record for its URL starts. Never throws.
#include <filesystem>
#include <string>
#include <vector>

namespace strata::exporter {

// What is wrong, one line each; empty when the WACZ is valid.
std::vector<std::string> check_wacz(const std::filesystem::path& wacz);

}  // namespace strata::exporter
