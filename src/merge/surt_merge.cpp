#include "merge/surt_merge.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/timestamp.hpp"
#include "merge/order.hpp"

namespace strata::merge {
namespace {

// Counter names counted per key or record: built once, not per call.
const std::string kRevisitsUnresolved = "revisits_unresolved",
                  kRevisitsWithoutCaptures = "revisits_without_captures",
                  kRevisitsResolved = "revisits_resolved",
                  kReferencesWithoutImages = "references_without_images",
                  kCapturesWithoutPages = "captures_without_pages",
                  kSurtsWithoutPages = "surts_without_pages",
                  kSurtsWithSeveralDigests = "surts_with_several_digests",
                  kSurtsMerged = "surts_merged", kSurtDigestGroups = "surt_digest_groups";

// Keeps captures with a digest; job 2 cannot place the others.
template <typename C>
void drop_captures_without_digest(std::vector<C>& images, Counters& counters) {
  auto end =
      std::remove_if(images.begin(), images.end(), [](const C& c) { return c.digest.empty(); });
  if (end != images.end()) counters.add("images_without_digest", images.end() - end);
  images.erase(end, images.end());
}

// A copy of `original` with the revisit's time and collection (the bytes, and so the record
// to replay, are the original's).
template <typename V>
ImageCapture revisited(const ImageCapture& original, const V& revisit) {
  ImageCapture copy = original;
  copy.timestamp = revisit.timestamp;
  copy.collection = revisit.collection;
  return copy;
}

template <typename V>
EncodedCapture revisited(const EncodedCapture& original, const V& revisit) {
  CaptureView copy = original;
  copy.timestamp = revisit.timestamp;
  copy.collection = revisit.collection;
  return encode(copy);
}

// A resolved revisit becomes a copy of the oldest capture with the same WARC payload digest,
// appended to `images` (in no particular order: documents sort their captures). Returns how
// many were resolved. `by_warc_digest`: the caller's, reused across SURTs (no allocation each).
template <typename C, typename V>
size_t resolve_revisits(std::vector<C>& images, const std::vector<V>& revisits,
                        std::vector<std::pair<std::string_view, size_t>>& by_warc_digest) {
  if (revisits.empty()) return 0;
  size_t captures = images.size();
  // Room first: views into the captures must stay valid while resolved ones are appended.
  images.reserve(captures + revisits.size());
  // (warcDigest, index) sorted by digest, then oldest capture first: a SURT has a few
  // captures, and sorting them (a few hundred bytes each in run_merge) or a hash map's nodes
  // showed in profiles.
  by_warc_digest.clear();
  for (size_t i = 0; i < captures; ++i)
    if (!images[i].warcDigest.empty()) by_warc_digest.emplace_back(images[i].warcDigest, i);
  std::sort(by_warc_digest.begin(), by_warc_digest.end(), [&images](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return capture_before(images[a.second], images[b.second]);
  });
  auto digest_below = [](const auto& entry, std::string_view digest) {
    return entry.first < digest;
  };
  for (const auto& revisit : revisits) {
    std::string_view digest = revisit.warcDigest;
    auto it = std::lower_bound(by_warc_digest.begin(), by_warc_digest.end(), digest, digest_below);
    if (digest.empty() || it == by_warc_digest.end() || it->first != digest) continue;
    images.push_back(revisited(images[it->second], revisit));
  }
  return images.size() - captures;
}

// Whether every capture has the first one's digest (most SURTs).
template <typename C>
bool one_digest(const std::vector<C>& images) {
  return std::all_of(images.begin(), images.end(),
                     [&images](const C& c) { return c.digest == images.front().digest; });
}

int64_t epoch_or_zero(std::string_view ts, Counters& counters) {
  auto epoch = timestamp_to_epoch(ts);
  if (!epoch) counters.add("invalid_timestamps");
  return epoch.value_or(0);
}

}  // namespace

template <typename R, typename C, typename V>
BasicSurtMerger<R, C, V>::~BasicSurtMerger() {
  const std::pair<const std::string&, int64_t> counts[] = {
      {kRevisitsResolved, counts_.revisits_resolved},
      {kRevisitsUnresolved, counts_.revisits_unresolved},
      {kRevisitsWithoutCaptures, counts_.revisits_without_captures},
      {kReferencesWithoutImages, counts_.references_without_images},
      {kCapturesWithoutPages, counts_.captures_without_pages},
      {kSurtsWithoutPages, counts_.surts_without_pages},
      {kSurtsWithSeveralDigests, counts_.surts_with_several_digests},
      {kSurtsMerged, counts_.surts_merged},
      {kSurtDigestGroups, counts_.surt_digest_groups}};
  for (const auto& [name, n] : counts)
    if (n) counters_.add(name, n);
}

template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::reset() {
  images_.clear();
  revisits_.clear();
  prepared_ = false;
  captures_ = refs_ = 0;
  groups_.clear();
  caps_.clear();
  times_.clear();
}

template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::add(Record&& record) {
  if (auto* ref = std::get_if<PageReference>(&record)) return add_reference(R(std::move(*ref)));
  if (std::holds_alternative<DroppedReferences>(record)) return;  // job 2 notes only
  if (auto* capture = std::get_if<ImageCapture>(&record))
    return add_capture(C(std::move(*capture)));
  add_revisit(V(std::move(std::get<ImageRevisit>(record))));
}

template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::add_revisit(V&& revisit) {
  if (prepared_) throw std::logic_error("merge: a revisit after the references of its SURT");
  revisits_.push_back(std::move(revisit));
}

template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::prepare() {
  prepared_ = true;
  drop_captures_without_digest(images_, counters_);
  auto resolved = static_cast<int64_t>(resolve_revisits(images_, revisits_, by_warc_digest_));
  counts_.revisits_resolved += resolved;
  // A key without image captures: the original is not an indexed image (below the size
  // gate, not an image, never captured), as opposed to a capture of another digest.
  (images_.empty() ? counts_.revisits_without_captures : counts_.revisits_unresolved) +=
      static_cast<int64_t>(revisits_.size()) - resolved;
  captures_ = images_.size();
  if (images_.empty()) return;
  if (one_digest(images_))
    file_under_one_digest();
  else
    file_by_digest();
  while (caps_.size() < groups_.size()) caps_.emplace_back(max_refs_);
}

// The captures go to their group as a whole (no capture moved one by one).
template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::file_under_one_digest() {
  auto& group = groups_.emplace_back();
  group.digest = images_.front().digest;
  group.captures = std::move(images_);
  images_.clear();
}

template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::file_by_digest() {
  std::vector<std::string_view> digests;
  for (const auto& capture : images_) digests.push_back(capture.digest);
  std::sort(digests.begin(), digests.end());
  digests.erase(std::unique(digests.begin(), digests.end()), digests.end());
  for (auto digest : digests) groups_.emplace_back().digest = digest;
  // Looked up in groups_ (own copies): moving a capture can change what a view into it sees.
  auto by_digest = [](const BasicDigestGroup<R, C>& g, std::string_view d) { return g.digest < d; };
  for (auto& capture : images_) {
    size_t d = std::lower_bound(groups_.begin(), groups_.end(), capture.digest, by_digest) -
               groups_.begin();
    times_.push_back({epoch_or_zero(capture.timestamp, counters_), d});
    groups_[d].captures.push_back(std::move(capture));
  }
  std::sort(times_.begin(), times_.end());
  images_.clear();
}

// The digest whose capture is closest in seconds to `when`; ties go to the earlier capture,
// and equal capture times to the smaller digest.
template <typename R, typename C, typename V>
size_t BasicSurtMerger<R, C, V>::closest_digest(int64_t when) const {
  auto after = std::lower_bound(times_.begin(), times_.end(), TimedDigest{when, 0});
  if (after == times_.begin()) return after->digest;
  auto before = std::lower_bound(times_.begin(), times_.end(), TimedDigest{(after - 1)->epoch, 0});
  if (after == times_.end()) return before->digest;
  return when - before->epoch <= after->epoch - when ? before->digest : after->digest;
}

template <typename R, typename C, typename V>
bool BasicSurtMerger<R, C, V>::skip_reference_without_images() {
  if (!prepared_) prepare();
  if (!groups_.empty()) return false;
  ++refs_;  // counted in finish()
  return true;
}

template <typename R, typename C, typename V>
void BasicSurtMerger<R, C, V>::add_reference(R&& ref) {
  if (skip_reference_without_images()) return;
  ++refs_;
  size_t d = groups_.size() == 1 ? 0 : closest_digest(epoch_or_zero(ref.pageTimestamp, counters_));
  caps_[d].add(std::move(ref));
}

template <typename R, typename C, typename V>
std::span<BasicDigestGroup<R, C>> BasicSurtMerger<R, C, V>::finish() {
  if (!prepared_) prepare();
  if (groups_.empty()) {
    counts_.references_without_images += static_cast<int64_t>(refs_);
    return {};
  }
  if (refs_ == 0) {
    counts_.captures_without_pages += static_cast<int64_t>(captures_);
    ++counts_.surts_without_pages;
    return {};
  }
  counts_.surts_with_several_digests += groups_.size() > 1;
  for (size_t d = 0; d < groups_.size(); ++d) {
    groups_[d].refs = caps_[d].take_unsorted(groups_[d].dropped_refs);
    if (groups_[d].dropped_refs == 0) continue;
    counters_.add("reference_lists_capped");
    counters_.add("references_dropped", static_cast<int64_t>(groups_[d].dropped_refs));
  }
  ++counts_.surts_merged;
  counts_.surt_digest_groups += static_cast<int64_t>(groups_.size());
  return groups_;
}

template class BasicSurtMerger<PageReference>;
template class BasicSurtMerger<EncodedReference, EncodedCapture, EncodedRevisit>;

std::vector<DigestGroup> merge_surt(SurtGroup& group, Counters& counters, size_t max_refs) {
  SurtMerger merger(counters, max_refs);
  for (auto& capture : group.images) merger.add(Record(std::move(capture)));
  for (auto& revisit : group.revisits) merger.add(Record(std::move(revisit)));
  for (auto& ref : group.refs) merger.add(Record(std::move(ref)));
  std::span<DigestGroup> groups = merger.finish();
  for (auto& digest_group : groups) {
    std::sort(digest_group.captures.begin(), digest_group.captures.end(), capture_before);
    sort_references(digest_group.refs);
  }
  return {std::make_move_iterator(groups.begin()), std::make_move_iterator(groups.end())};
}

}  // namespace strata::merge
