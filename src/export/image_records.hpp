#pragma once
// The archived record that holds an image document's bytes: the document's (imgFile,
// imgOffset), which the merge already resolved from any revisit to the original response,
// read from the archive where the index says it is now (or under the archive roots), only
// when the record there is for the image's URL.
#include <xapian.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "archive/record.hpp"
#include "core/problems.hpp"
#include "merge/document.hpp"
#include "search/index_parts.hpp"

namespace strata::exporter {

struct ArchivedImage {
  archive::Record record;
  std::string bytes;  // the block as stored, or the decoded payload (want_payload)
};

inline constexpr size_t kMaxImageRecord = 64 << 20;

// Nothing (and one problem reported: the archive and offset, and why) when the record cannot
// be read: an inline image (no record of its own), an unregistered, missing or changed
// archive, no record for the URL at the offset, a damaged record or one over kMaxImageRecord.
std::optional<ArchivedImage> read_image(const search::IndexParts& parts,
                                        const merge::ImageDocument& doc,
                                        const std::vector<std::filesystem::path>& roots,
                                        bool want_payload, const ProblemSink& problems);

}  // namespace strata::exporter
