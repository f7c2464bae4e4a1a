#include "merge/surt_merge.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>

#include "core/timestamp.hpp"
#include "merge/order.hpp"

namespace strata::merge {
namespace {

// Keeps captures with a digest; job 2 cannot place the others.
void drop_captures_without_digest(std::vector<ImageCapture>& images, Counters& counters) {
  auto end = std::remove_if(images.begin(), images.end(),
                            [](const ImageCapture& c) { return c.digest.empty(); });
  if (end != images.end()) counters.add("images_without_digest", images.end() - end);
  images.erase(end, images.end());
}

// A resolved revisit becomes a copy of the oldest capture with the same WARC payload digest,
// carrying the revisit's time and collection (the bytes, and so the record to replay, are
// the original's).
void resolve_revisits(SurtGroup& group, Counters& counters) {
  std::unordered_map<std::string_view, size_t> by_warc_digest;
  for (size_t i = 0; i < group.images.size(); ++i)
    if (!group.images[i].warcDigest.empty())
      by_warc_digest.emplace(group.images[i].warcDigest, i);  // first = oldest (sorted)
  std::vector<ImageCapture> resolved;
  for (const auto& revisit : group.revisits) {
    auto it =
        revisit.warcDigest.empty() ? by_warc_digest.end() : by_warc_digest.find(revisit.warcDigest);
    if (it == by_warc_digest.end()) {
      counters.add("revisits_unresolved");
      continue;
    }
    ImageCapture copy = group.images[it->second];
    copy.timestamp = revisit.timestamp;
    copy.collection = revisit.collection;
    resolved.push_back(std::move(copy));
    counters.add("revisits_resolved");
  }
  for (auto& capture : resolved) group.images.push_back(std::move(capture));
  std::sort(group.images.begin(), group.images.end(), capture_before);
}

int64_t epoch_or_zero(const std::string& ts, Counters& counters) {
  auto epoch = timestamp_to_epoch(ts);
  if (!epoch) counters.add("invalid_timestamps");
  return epoch.value_or(0);
}

struct TimedDigest {
  int64_t epoch;
  size_t digest;  // index into the sorted digest groups
  bool operator<(const TimedDigest& o) const {
    return epoch != o.epoch ? epoch < o.epoch : digest < o.digest;
  }
};

// The digest whose capture is closest in seconds to `when`; ties go to the earlier capture,
// and equal capture times to the smaller digest.
size_t closest_digest(const std::vector<TimedDigest>& times, int64_t when) {
  auto after = std::lower_bound(times.begin(), times.end(), TimedDigest{when, 0});
  if (after == times.begin()) return after->digest;
  auto before = std::lower_bound(times.begin(), times.end(), TimedDigest{(after - 1)->epoch, 0});
  if (after == times.end()) return before->digest;
  return when - before->epoch <= after->epoch - when ? before->digest : after->digest;
}

void split_by_time(SurtGroup& group, std::vector<DigestGroup>& out, Counters& counters) {
  std::vector<TimedDigest> times;
  for (size_t d = 0; d < out.size(); ++d)
    for (const auto& capture : out[d].captures)
      times.push_back({epoch_or_zero(capture.timestamp, counters), d});
  std::sort(times.begin(), times.end());
  for (auto& ref : group.refs) {
    size_t d = closest_digest(times, epoch_or_zero(ref.pageTimestamp, counters));
    out[d].refs.push_back(std::move(ref));
  }
}

}  // namespace

std::vector<DigestGroup> merge_surt(SurtGroup& group, Counters& counters) {
  drop_captures_without_digest(group.images, counters);
  std::sort(group.images.begin(), group.images.end(), capture_before);
  resolve_revisits(group, counters);
  if (group.images.empty()) {
    counters.add("references_without_images", static_cast<int64_t>(group.refs.size()));
    return {};
  }
  if (group.refs.empty()) {
    counters.add("captures_without_pages", static_cast<int64_t>(group.images.size()));
    counters.add("surts_without_pages");
    return {};
  }
  std::map<std::string, DigestGroup> by_digest;
  for (auto& capture : group.images) {
    auto& target = by_digest[capture.digest];
    target.digest = capture.digest;
    target.captures.push_back(std::move(capture));
  }
  std::vector<DigestGroup> out;
  for (auto& [digest, digest_group] : by_digest) out.push_back(std::move(digest_group));
  if (out.size() == 1) {
    out[0].refs = std::move(group.refs);
  } else {
    counters.add("surts_with_several_digests");
    split_by_time(group, out, counters);
  }
  counters.add("surts_merged");
  counters.add("surt_digest_groups", static_cast<int64_t>(out.size()));
  return out;
}

}  // namespace strata::merge
