#pragma once
// Job 1 (key = image SURT): resolve revisits, drop SURTs without images or without pages,
// and split the references of a SURT between its digests by time (paper §5.2).
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/counters.hpp"
#include "merge/groups.hpp"
#include "merge/reference_cap.hpp"

namespace strata::merge {

// Job 1 for one SURT, fed every capture and revisit first, then the references one by one:
// each reference goes straight to its digest's ReferenceCap, so a hugely popular SURT never
// holds all its references. R, C, V: PageReference, ImageCapture and ImageRevisit, or
// EncodedReference, EncodedCapture and EncodedRevisit in run_merge (captures and references
// pass through job 1 without being decoded or encoded again).
inline constexpr size_t kTypicalCapturesPerSurt = 4;

template <typename R, typename C = ImageCapture, typename V = ImageRevisit>
class BasicSurtMerger {
 public:
  BasicSurtMerger(Counters& counters, size_t max_refs = kMaxReferencesPerKey)
      : counters_(counters), max_refs_(max_refs) {}
  // Adds the per-SURT counts to `counters` (kept in plain integers until then: a Counters
  // lookup per SURT showed in profiles).
  ~BasicSurtMerger();
  BasicSurtMerger(const BasicSurtMerger&) = delete;
  BasicSurtMerger& operator=(const BasicSurtMerger&) = delete;
  // Starts a new SURT.
  void reset();
  // Throws std::logic_error for a capture or revisit after the first reference.
  void add(Record&& record);
  void add_capture(C&& capture) { emplace_capture(std::move(capture)); }
  // The capture C(args...), built where the merger keeps it.
  template <typename... Args>
  void emplace_capture(Args&&... args) {
    if (prepared_) throw std::logic_error("merge: a capture after the references of its SURT");
    // Room for a SURT's captures and resolved revisits at once: growing 1, 2, 4 moved each (a
    // few hundred bytes in run_merge) up to twice.
    if (images_.capacity() == 0) images_.reserve(kTypicalCapturesPerSurt);
    images_.emplace_back(std::forward<Args>(args)...);
  }
  void add_revisit(V&& revisit);
  void add_reference(R&& ref);
  // The reference R(args...), built where its cap keeps it when the SURT has one digest.
  template <typename... Args>
  void emplace_reference(Args&&... args) {
    if (skip_reference_without_images()) return;
    if (groups_.size() != 1) return add_reference(R(std::forward<Args>(args)...));
    ++refs_;
    caps_[0].emplace(std::forward<Args>(args)...);
  }
  // Counts a reference without taking it when the SURT has no capture to file it under, so
  // that the caller need not decode it (about half of job 1's references); false otherwise.
  bool skip_reference_without_images();
  // One group per digest found under the SURT, sorted by digest; empty when the SURT lacks
  // captures or references. Counts what it drops (names in docs/merge.md). A group's
  // captures and references come in no particular order (build_documents sorts them, and job 2
  // sorts those of a digest found under several SURTs again).
  // Valid until reset(): the merger keeps the groups' storage for the next SURT (a vector
  // allocated and freed per SURT showed in profiles).
  std::span<BasicDigestGroup<R, C>> finish();

 private:
  struct TimedDigest {
    int64_t epoch;
    size_t digest;  // index into groups_
    bool operator<(const TimedDigest& o) const {
      return epoch != o.epoch ? epoch < o.epoch : digest < o.digest;
    }
  };
  void prepare();
  void file_under_one_digest();
  void file_by_digest();
  size_t closest_digest(int64_t when) const;

  // Counted per SURT, added to Counters once (names in docs/merge.md).
  struct PerSurtCounts {
    int64_t references_without_images = 0, captures_without_pages = 0, surts_without_pages = 0,
            surts_with_several_digests = 0, surts_merged = 0, surt_digest_groups = 0,
            revisits_resolved = 0, revisits_unresolved = 0, revisits_without_captures = 0;
  };

  Counters& counters_;
  PerSurtCounts counts_;
  size_t max_refs_;
  std::vector<C> images_;  // until prepare() files them into groups_
  std::vector<V> revisits_;
  bool prepared_ = false;
  uint64_t captures_ = 0, refs_ = 0;
  std::vector<BasicDigestGroup<R, C>> groups_;  // sorted by digest
  std::vector<BasicReferenceCap<R>> caps_;      // one per group
  std::vector<TimedDigest> times_;              // every capture, when the SURT has several digests
  std::vector<std::pair<std::string_view, size_t>> by_warc_digest_;  // resolve_revisits' scratch
};

using SurtMerger = BasicSurtMerger<PageReference>;

// The whole SURT at once (tests, Hadoop Streaming reducer); captures and references sorted
// (order.hpp).
std::vector<DigestGroup> merge_surt(SurtGroup& group, Counters& counters,
                                    size_t max_refs = kMaxReferencesPerKey);

}  // namespace strata::merge
