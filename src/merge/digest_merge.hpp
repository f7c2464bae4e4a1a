#pragma once
// Job 2 (key = image digest): turns every capture and reference of one image into the
// documents the index stores (paper Algorithm 5; modes of paper §4.1).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/counters.hpp"
#include "merge/document.hpp"
#include "merge/groups.hpp"
#include "merge/reference_cap.hpp"

namespace strata::merge {

enum class Mode {
  compact,  // one document per digest: oldest page + every distinct description (default)
  legacy,   // one document per digest: oldest page and only its descriptions
  full,     // one document per (digest, page capture)
};

bool parse_mode(const std::string& text, Mode& out);
const char* to_string(Mode mode);

inline constexpr size_t kMaxDescriptions = 50;  // per field, like Arquivo's Solr script
inline constexpr size_t kMaxCaptureTimes = 1000;

// Job 2's input for one digest, streamed: captures are kept, references go through a
// ReferenceCap, DroppedReferences notes from job 1 are counted with them. R, C: PageReference
// and ImageCapture, or EncodedReference and EncodedCapture in run_merge.
template <typename R, typename C = ImageCapture>
class BasicDigestCollector {
 public:
  explicit BasicDigestCollector(size_t max_refs = kMaxReferencesPerKey) : cap_(max_refs) {}
  void reset(std::string_view digest);
  void add(Record&& record);
  void add_capture(C&& capture) { group_.captures.push_back(std::move(capture)); }
  // The capture C(args...), built where the group keeps it.
  template <typename... Args>
  void emplace_capture(Args&&... args) {
    group_.captures.emplace_back(std::forward<Args>(args)...);
  }
  void add_reference(R&& ref) { cap_.add(std::move(ref)); }
  // The reference R(args...), built where the cap keeps it.
  template <typename... Args>
  void emplace_reference(Args&&... args) {
    cap_.emplace(std::forward<Args>(args)...);
  }
  // The group with its kept references, sorted; counts references dropped here.
  BasicDigestGroup<R, C>& finish(Counters& counters);

 private:
  BasicDigestGroup<R, C> group_;
  BasicReferenceCap<R> cap_;
  uint64_t noted_ = 0;
};

using DigestCollector = BasicDigestCollector<PageReference>;

// What the caller of DocumentBuilder::build knows of its group's references: `sorted` when
// they come from BasicDigestCollector::finish (ReferenceCap::take sorts them), else `unknown`
// (build checks the order and sorts them when needed).
enum class ReferenceOrder { unknown, sorted };

// Builds one group's documents at a time into documents it keeps, so that their strings and
// vectors (capture times, descriptions, tags, collections) keep their room from one group to
// the next: allocating them per document showed in profiles. Doc: ImageDocument, or
// DocumentView (views into the group's records, valid while they are).
template <typename Doc>
class DocumentBuilder {
 public:
  // The group's documents sorted by id, valid until the next call; none when the group has no
  // capture or no reference.
  template <typename R, typename C>
  std::span<Doc> build(BasicDigestGroup<R, C>& group, Mode mode, Counters& counters,
                       ReferenceOrder order = ReferenceOrder::unknown);

 private:
  std::vector<Doc> docs_;
};

// DocumentBuilder's documents for one group, as a vector of their own.
template <typename Doc = ImageDocument, typename R, typename C>
std::vector<Doc> build_documents(BasicDigestGroup<R, C>& group, Mode mode, Counters& counters);

// The id of a full-mode document: digest/pageTimestamp/fnv1a64(pageUrl) in hex.
std::string full_document_id(const std::string& digest, std::string_view page_timestamp,
                             std::string_view page_url);

}  // namespace strata::merge
