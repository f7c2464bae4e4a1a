#pragma once
// Compact binary form of extraction records for spill files and in-memory runs: a type byte,
// then every field (strings as length + bytes, the length one byte when below 255, integers
// little-endian as in memory).
// Several times faster to write and read than JSON; never leaves one merge run.
// The type bytes sort captures and revisits before references and notes: the sorter orders
// the values of a key by their first byte, so reducers know every capture of a key before
// the first reference arrives and can stream the references (reference_cap.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "merge/groups.hpp"

namespace strata::merge {

enum RecordTag : char {
  kCaptureTag = 'a',
  kRevisitTag = 'b',
  kDocumentsTag = 'd',  // not a record: finished document lines from job 1 (pipeline.cpp)
  kReferenceTag = 'r',
  kDroppedTag = 's'
};

// Appends the encoded record to `out`.
void encode(const Record& record, std::string& out);
// The encoded record's size, and the encoding written in place (exactly that many bytes).
size_t encoded_size(const Record& record);
void encode(const Record& record, char* out);
// The encoding written in place when it fits in `room` bytes (phase 1: one pass, no sizing
// first): its size, or 0 when it needs more room (the bytes written are then never read).
size_t encode(const Record& record, char* out, size_t room);
// Where `key` starts in the record's encoding when it is the record's own imgSurt (its first
// field: captures, references, revisits without refersToSurt), so that phase 1 stores the SURT
// key once; kKeyApart (sorter.hpp) otherwise.
size_t key_offset(const Record& record, const std::string& key);
// Throws std::runtime_error on truncated or unknown input.
void decode(std::string_view bytes, Record& out);

// The fields of a PageReference, read in place from its encoded bytes (no copy, no
// allocation): what the reducers of run_merge work on.
struct ReferenceView {
  std::string_view imgSurt, imgUrl, imgUrlTokens, imgAlt, imgTitle, imgCaption, tag, pageUrl,
      pageTimestamp, pageTitle, pageUrlTokens, pageHost;
  int imagesInPage = 0;
  std::string_view collection, file;
  uint64_t offset = 0, length = 0;
  bool inline_ = false;
  std::string_view position;
  std::string_view book;
  std::string_view pageSketch;
};

// The fields of an ImageCapture, read in place likewise.
struct CaptureView {
  std::string_view imgSurt, imgUrl, timestamp, collection, file;
  uint64_t offset = 0, length = 0;
  std::string_view recordType;
  int status = 0;
  std::string_view mimeReported, mimeDetected;
  int width = 0, height = 0;
  std::string_view digest;
  uint64_t size = 0;
  std::string_view warcDigest;
  bool inline_ = false;
};

// The fields of an ImageRevisit, read in place likewise.
struct RevisitView {
  std::string_view imgSurt, imgUrl, timestamp, collection, file;
  uint64_t offset = 0, length = 0;
  std::string_view warcDigest, refersToUrl, refersToSurt, refersToDate, mimeReported;
};

// An encoded record (tag byte first), its fields viewed in place: in bytes it owns, or, made
// by in_place(), in the caller's (no copy, no allocation: run_merge's reducers on in-memory
// runs). Moving keeps the views valid; a copy owns its bytes when the original does.
// View: ReferenceView, CaptureView or RevisitView.
template <typename View>
class Encoded : public View {
 public:
  // Throws std::runtime_error when `bytes` is not a whole encoded record of this kind.
  explicit Encoded(std::string_view bytes) : Encoded(bytes, true) {}
  // Copies `bytes` when `copy`, else views them in place (in_place()); lets a container build
  // the record where it keeps it (emplace_back: a move is a few hundred bytes).
  Encoded(std::string_view bytes, bool copy);
  // A PageReference for ReferenceView, an ImageCapture for CaptureView, an ImageRevisit for
  // RevisitView.
  explicit Encoded(const Record& record);
  // `bytes` must outlive the record and its copies.
  static Encoded in_place(std::string_view bytes) { return {bytes, false}; }
  // Takes over `size` encoded bytes (no copy).
  static Encoded adopt(std::unique_ptr<char[]> bytes, size_t size);
  Encoded(const Encoded& other) : Encoded(other.bytes(), other.owned_ != nullptr) {}
  Encoded& operator=(const Encoded& other);
  Encoded(Encoded&&) = default;
  Encoded& operator=(Encoded&&) = default;
  std::string_view bytes() const { return bytes_; }

 private:
  void read_fields();

  std::unique_ptr<char[]> owned_;
  std::string_view bytes_;
};

using EncodedReference = Encoded<ReferenceView>;
using EncodedCapture = Encoded<CaptureView>;
using EncodedRevisit = Encoded<RevisitView>;

// The encoded form of a capture given as views (a resolved revisit: a capture with another
// time and collection).
EncodedCapture encode(const CaptureView& capture);

}  // namespace strata::merge
