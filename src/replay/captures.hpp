#pragma once
// Every capture in an index's registered archives, as a CDX server sees them: one entry per
// record cdxj-indexer would index (responses, revisits, resources), sorted by the pywb key
// (url::cdx_surt) and time. Replay finds a page's subresources here (they are not image
// documents), the CDX API and the TimeMaps list them. Built by reading the archives once;
// unreadable records are skipped and reported to the ProblemSink. Never throws.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/problems.hpp"

namespace strata::replay {

struct Capture {
  std::string urlkey;     // url::cdx_surt(url)
  std::string timestamp;  // 14 digits
  std::string url;        // WARC-Target-URI
  std::string mime;       // cdx "mime" field
  std::string status;     // HTTP status, "" when none
  std::string digest;     // payload digest without "sha1:"
  uint64_t length = 0;
  uint64_t offset = 0;   // the record's location (archive/locate.hpp)
  std::string archive;   // archive key, as documents name it
  std::string filename;  // the archive's file name (cdx "filename")
  bool revisit = false;
  bool metadata = false;  // a WARC metadata record (e.g. a book chapter's description)
};

// One archive to index: its key and where to read it now.
struct ArchiveSource {
  std::string key;
  std::string file;
};

class CaptureIndex {
 public:
  CaptureIndex() = default;
  static CaptureIndex build(const std::vector<ArchiveSource>& archives, ProblemSink problems);

  // Captures whose key is `urlkey`, in time order.
  std::span<const Capture> exact(std::string_view urlkey) const;
  // Captures with first <= key < last, in key then time order.
  std::span<const Capture> between(std::string_view first, std::string_view last) const;
  const std::vector<Capture>& all() const { return captures_; }

  // The capture whose payload a revisit stands for: same digest, not a revisit, the same
  // URL preferred, then the nearest in time; nullptr when the archives do not hold it.
  const Capture* original_of(const Capture& revisit) const;

 private:
  std::vector<Capture> captures_;
  std::vector<std::pair<std::string, size_t>> by_digest_;  // (digest, index), non-revisits
};

// The capture nearest in time to `timestamp` (14 digits), preferring content (a response,
// resource or revisit) to a metadata record about it, then one that is not an error (status
// 4xx/5xx); nullptr for an empty span. Ties go to the earlier capture.
const Capture* nearest(std::span<const Capture> captures, std::string_view timestamp);

}  // namespace strata::replay
