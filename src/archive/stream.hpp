#pragma once
// The decoded byte stream of one archive file: plain, gzip (one or many members) or zstd
// (one frame per record, optional dictionary). It keeps, for every gzip member / zstd frame,
// where it starts and ends in the compressed file, so a record can be located on disk by the
// member it starts in. Corrupt members are reported and skipped: decoding resumes at the next
// member magic, and the point of the break is remembered so a record never runs across it.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archive/input.hpp"

namespace strata::archive {

enum class Codec { plain, gzip, zstd };

// (compressed offset, kind, detail)
using StreamProblem = std::function<void(uint64_t, const char*, const std::string&)>;

class Stream {
 public:
  // `origin` is the compressed offset the input is positioned at (non-zero for replay).
  Stream(std::unique_ptr<Input> input, StreamProblem problem, uint64_t origin = 0);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Codec codec() const { return codec_; }
  // Loads a zstd dictionary (the content of a 0x184D2A5D frame: raw or zstd-compressed) for
  // a stream positioned after that frame (replay); false when it is not usable.
  bool load_zstd_dictionary(std::string_view content);
  // At least `want` decoded bytes from the current position unless the stream ends first.
  std::string_view peek(size_t want);
  void consume(size_t n) { pos_ += n; }
  // Skips n decoded bytes (may stop early at the end); returns how many were skipped.
  uint64_t skip(uint64_t n);
  uint64_t position() const { return base_ + pos_; }  // decoded offset
  uint64_t compressed_position() const { return in_offset_ + in_pos_; }
  uint64_t input_size() const { return input_->size(); }  // 0 when unknown
  // Plain files: up to n bytes at decoded offset `pos`, read aside (the position is kept);
  // nullopt when compressed or the input cannot seek (back, cheaply).
  std::optional<std::string> read_at(uint64_t pos, size_t n);
  bool at_end() { return peek(1).empty(); }

  // Location of decoded offset `pos` on disk: start of its member (or `pos` for plain).
  uint64_t disk_offset(uint64_t pos) const;
  // True when `pos` is the first byte of a member (always true for plain).
  bool member_starts_at(uint64_t pos) const;
  // Compressed end of the member holding decoded offset `pos`, or 0 while still open.
  uint64_t disk_end(uint64_t pos) const;
  // Decoded offset of the first break (end of a corrupt member) after `pos`, or UINT64_MAX.
  uint64_t next_break(uint64_t pos) const;
  // Decoded offsets of member starts in (from, to).
  std::vector<uint64_t> member_starts_between(uint64_t from, uint64_t to) const;
  // Members wholly before `pos` are forgotten (bounded memory on long files).
  void forget_before(uint64_t pos);

 private:
  struct Member {
    uint64_t decoded_start;
    uint64_t disk_start;
    uint64_t disk_end = 0;  // 0 while open
    bool broken = false;
  };

  void detect_codec();
  bool fill(size_t want);
  bool fill_input(size_t need);
  void grow_output(size_t min_free);
  bool decode_gzip_step();
  bool decode_whole_member();
  bool decode_zstd_step();
  bool start_member(const char* magic, size_t magic_len);
  bool handle_zstd_skippable();
  void member_failed(const char* kind, const std::string& detail);
  const Member* member_of(uint64_t pos) const;
  // The first member starting after `pos`.
  std::deque<Member>::const_iterator members_after(uint64_t pos) const;

  std::unique_ptr<Input> input_;
  StreamProblem problem_;
  Codec codec_ = Codec::plain;
  bool input_eof_ = false;
  bool done_ = false;
  // compressed input buffer
  std::vector<char> in_;
  size_t in_pos_ = 0, in_end_ = 0;
  uint64_t in_offset_ = 0;  // file offset of in_[0]
  // decoded output buffer
  std::vector<char> out_;
  size_t pos_ = 0, end_ = 0;
  uint64_t base_ = 0;  // decoded offset of out_[0]
  // A deque: the reader forgets the oldest member at every record, and a vector's front
  // erase moved the ~100 members decoded ahead each time.
  std::deque<Member> members_;
  size_t broken_members_ = 0;  // of members_
  bool in_member_ = false;
  bool quiet_junk_ = false;  // the bytes after a corrupt member were already reported
  struct Codecs;
  std::unique_ptr<Codecs> codecs_;
};

// The content of the dictionary frame (0x184D2A5D) at the current position of `input`, or ""
// when there is none; the position of `input` is unspecified afterwards.
std::string read_zstd_dictionary_frame(Input& input);
// The dictionary a 0x184D2A5D frame's content holds (raw, or decompressed when it is a zstd
// frame); "" when not usable.
std::string zstd_dictionary_content(std::string_view content);

}  // namespace strata::archive
