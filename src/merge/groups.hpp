#pragma once
// The units the two merge jobs work on: job 1 gets every record of one image SURT, job 2
// every capture and reference of one image digest (SHA-256). See docs/merge.md.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "extract/records.hpp"

namespace strata::merge {

using extract::ImageCapture;
using extract::ImageRevisit;
using extract::PageReference;

// Job 1's note to job 2 that it dropped `count` references of a digest (per-key cap,
// reference_cap.hpp); JSON {"type":"dropped","count":N}. Never written by extraction.
struct DroppedReferences {
  uint64_t count = 0;
};

// One extraction record of any kind (or a job-1 DroppedReferences note).
using Record = std::variant<ImageCapture, ImageRevisit, PageReference, DroppedReferences>;

// Job 1 input: everything filed under one SURT (revisits under refersToSurt, or imgSurt).
struct SurtGroup {
  std::string surt;
  std::vector<ImageCapture> images;
  std::vector<ImageRevisit> revisits;
  std::vector<PageReference> refs;
};

// Files a decoded record under its kind in `group`.
void add_to_group(SurtGroup& group, Record&& record);

// Job 1 output and job 2 input: captures (resolved revisits included, as copies of the
// capture they repeat) and the references assigned to one digest. R, C: PageReference and
// ImageCapture, or EncodedReference and EncodedCapture in run_merge (codec.hpp).
template <typename R, typename C = ImageCapture>
struct BasicDigestGroup {
  std::string digest;
  std::vector<C> captures;
  std::vector<R> refs;
  uint64_t dropped_refs = 0;  // references counted but not kept (per-key cap)
};
using DigestGroup = BasicDigestGroup<PageReference>;

// The key a record is grouped by in job 1: imgSurt, or a revisit's refersToSurt (empty for a
// DroppedReferences note).
const std::string& surt_key(const Record& record);

// Reads one JSONL object; false when its "type" is none of image/revisit/ref/dropped.
bool record_from_json(const Json& j, Record& out);
Json record_to_json(const Record& record);

}  // namespace strata::merge
