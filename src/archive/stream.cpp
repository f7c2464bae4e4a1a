#include "archive/stream.hpp"

#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace strata::archive {
namespace {

constexpr size_t kInputBlock = 1 << 20;
constexpr size_t kOutputStep = 256 << 10;
constexpr uint64_t kSeekSkip = 256 << 10;    // plain files: seek over longer skips
constexpr size_t kMaxDictionary = 16 << 20;  // bigger "dictionaries" are treated as junk
constexpr uint32_t kZstdMagic = 0xFD2FB528;
constexpr uint32_t kZstdDictFrame = 0x184D2A5D;
// Whole-member decoding: below this much buffered input the buffer is refilled before a
// member is tried; a member is tried with the usual output room, then once with the large
// room (longer members stream through zlib, so at most the large room is decoded twice).
constexpr size_t kWholeMemberInput = kInputBlock / 4;
constexpr size_t kWholeMemberLargeOutput = 4 << 20;

uint32_t le32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // x86/arm little-endian hosts only
}

}  // namespace

struct Stream::Codecs {
  z_stream z{};
  bool z_ready = false;
  libdeflate_decompressor* whole = nullptr;
  ZSTD_DCtx* zstd = nullptr;
  ~Codecs() {
    if (z_ready) inflateEnd(&z);
    libdeflate_free_decompressor(whole);
    ZSTD_freeDCtx(zstd);
  }
};

Stream::Stream(std::unique_ptr<Input> input, StreamProblem problem, uint64_t origin)
    : input_(std::move(input)),
      problem_(std::move(problem)),
      in_(kInputBlock),
      in_offset_(origin),
      codecs_(std::make_unique<Codecs>()) {
  detect_codec();
  if (codec_ == Codec::plain) base_ = origin;  // decoded offsets are file offsets
}

Stream::~Stream() = default;

void Stream::detect_codec() {
  fill_input(4);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(in_.data() + in_pos_);
  size_t n = in_end_ - in_pos_;
  if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
    codec_ = Codec::gzip;
    inflateInit2(&codecs_->z, 31);
    codecs_->z_ready = true;
    codecs_->whole = libdeflate_alloc_decompressor();
  } else if (n >= 4 && (le32(in_.data() + in_pos_) == kZstdMagic ||
                        (le32(in_.data() + in_pos_) & 0xFFFFFFF0u) == 0x184D2A50u)) {
    codec_ = Codec::zstd;
    codecs_->zstd = ZSTD_createDCtx();
  }
}

bool Stream::fill_input(size_t need) {
  if (in_end_ - in_pos_ >= need) return true;
  if (in_pos_ > 0) {
    std::memmove(in_.data(), in_.data() + in_pos_, in_end_ - in_pos_);
    in_end_ -= in_pos_;
    in_offset_ += in_pos_;
    in_pos_ = 0;
  }
  if (need > in_.size()) in_.resize(need);
  while (in_end_ < need && !input_eof_) {
    size_t got = input_->read(in_.data() + in_end_, in_.size() - in_end_);
    if (got == 0) input_eof_ = true;
    in_end_ += got;
  }
  return in_end_ - in_pos_ >= need;
}

void Stream::grow_output(size_t min_free) {
  // Compact only once half the buffer is read, else grow: the reader looks 64 KiB ahead and
  // small gzip members are decoded one step each, so compacting whenever a step wanted room
  // moved those unread bytes again for every member.
  if (pos_ > 0 && pos_ >= end_ / 2) {
    std::memmove(out_.data(), out_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    base_ += pos_;
    pos_ = 0;
  }
  if (out_.size() - end_ < min_free) out_.resize(end_ + std::max(min_free, kOutputStep));
}

std::string_view Stream::peek(size_t want) {
  if (end_ - pos_ < want) fill(want);
  return {out_.data() + pos_, end_ - pos_};
}

uint64_t Stream::skip(uint64_t n) {
  // Plain files: a long skip past the buffered bytes seeks instead of reading.
  uint64_t buffered = end_ - pos_;
  if (codec_ == Codec::plain && n - std::min(n, buffered) >= kSeekSkip && !done_) {
    uint64_t target = position() + n;
    uint64_t size = input_->size();
    if (size > 0 && target <= size && input_->seek(target)) {
      base_ = target;
      pos_ = end_ = 0;
      in_offset_ = target;
      in_pos_ = in_end_ = 0;
      return n;
    }
  }
  uint64_t done = 0;
  while (done < n) {
    if (pos_ == end_) {
      auto view = peek(static_cast<size_t>(std::min<uint64_t>(n - done, kInputBlock)));
      if (view.empty()) break;
    }
    size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, end_ - pos_));
    pos_ += take;
    done += take;
  }
  return done;
}

std::optional<std::string> Stream::read_at(uint64_t pos, size_t n) {
  if (codec_ != Codec::plain || !input_->seeks_back_cheaply()) return std::nullopt;
  uint64_t resume = in_offset_ + in_end_;  // plain bytes are read past in_ (see fill)
  if (!input_->seek(pos)) return std::nullopt;
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n)
    if (size_t more = input_->read(out.data() + got, n - got))
      got += more;
    else
      break;
  out.resize(got);
  if (!input_->seek(resume)) done_ = true;
  return out;
}

bool Stream::fill(size_t want) {
  while (end_ - pos_ < want && !done_) {
    if (codec_ == Codec::plain) {
      grow_output(std::max(want - (end_ - pos_), kInputBlock));
      size_t avail = in_end_ - in_pos_;
      if (avail > 0) {  // bytes read while detecting the codec
        size_t take = std::min(avail, out_.size() - end_);
        std::memcpy(out_.data() + end_, in_.data() + in_pos_, take);
        in_pos_ += take;
        end_ += take;
        continue;
      }
      size_t got = input_->read(out_.data() + end_, out_.size() - end_);
      if (got == 0) done_ = true;
      end_ += got;
      in_offset_ += got;
    } else if (codec_ == Codec::gzip) {
      decode_gzip_step();
    } else {
      decode_zstd_step();
    }
  }
  return end_ - pos_ >= want;
}

// Finds the next member magic; reports the bytes skipped once per run of junk.
bool Stream::start_member(const char* magic, size_t magic_len) {
  if (!fill_input(magic_len)) {
    if (in_end_ > in_pos_)
      problem_(compressed_position(), "junk_after_last_member",
               std::to_string(in_end_ - in_pos_) + " trailing bytes");
    done_ = true;
    return false;
  }
  if (std::memcmp(in_.data() + in_pos_, magic, magic_len) == 0) {
    members_.push_back({base_ + end_, compressed_position()});
    in_member_ = true;
    quiet_junk_ = false;
    return true;
  }
  uint64_t junk_start = compressed_position();
  for (;;) {
    auto* hit = static_cast<const char*>(
        memmem(in_.data() + in_pos_ + 1, in_end_ - in_pos_ - 1, magic, magic_len));
    if (hit) {
      in_pos_ = static_cast<size_t>(hit - in_.data());
      break;
    }
    in_pos_ = in_end_ - (magic_len - 1);
    if (!fill_input(kInputBlock)) {
      if (in_end_ - in_pos_ < magic_len) {
        in_pos_ = in_end_;
        break;
      }
    }
  }
  if (!quiet_junk_)
    problem_(junk_start, "junk_between_members",
             std::to_string(compressed_position() - junk_start) + " bytes skipped");
  return false;
}

void Stream::member_failed(const char* kind, const std::string& detail) {
  Member& m = members_.back();
  if (!m.broken) ++broken_members_;
  m.broken = true;
  m.disk_end = compressed_position();
  uint64_t disk_start = m.disk_start;  // `m` dangles after the push_back below
  in_member_ = false;
  problem_(disk_start, kind, detail);
  quiet_junk_ = true;
  members_.push_back({base_ + end_, compressed_position()});  // marks the break
  members_.back().disk_end = compressed_position();
  // Resume the search for the next member just after the start of the broken one.
  uint64_t resume = disk_start + 1;
  if (resume >= in_offset_ && resume <= in_offset_ + in_end_) {
    in_pos_ = static_cast<size_t>(resume - in_offset_);
  } else if (input_->seek(resume)) {
    in_offset_ = resume;
    in_pos_ = in_end_ = 0;
    input_eof_ = false;
  }
}

// Most WARC members are one small record: libdeflate decodes a member that is wholly
// buffered in one call, ~2x faster than zlib's streaming inflate, with no per-member state
// to reset. It leaves the stream untouched when it fails (a member longer than the buffers,
// a truncated or corrupt one), and zlib then decodes that member from its start and reports
// what is wrong with it.
bool Stream::decode_whole_member() {
  if (!codecs_->whole) return false;
  if (in_end_ - in_pos_ < kWholeMemberInput && !input_eof_) fill_input(kInputBlock);
  for (size_t room : {kOutputStep, kWholeMemberLargeOutput}) {
    grow_output(room);
    size_t used_in = 0, used_out = 0;
    auto rc =
        libdeflate_gzip_decompress_ex(codecs_->whole, in_.data() + in_pos_, in_end_ - in_pos_,
                                      out_.data() + end_, out_.size() - end_, &used_in, &used_out);
    if (rc == LIBDEFLATE_SUCCESS) {
      in_pos_ += used_in;
      end_ += used_out;
      members_.back().disk_end = compressed_position();
      in_member_ = false;
      return true;
    }
    if (rc != LIBDEFLATE_INSUFFICIENT_SPACE) return false;
  }
  return false;
}

bool Stream::decode_gzip_step() {
  if (!in_member_) {
    if (!start_member("\x1f\x8b\x08", 3)) return false;
    if (decode_whole_member()) return true;
    inflateReset(&codecs_->z);
  }
  // Without input left the decoder may still hold output: the member is truncated only when
  // it cannot make progress.
  bool have_input = in_pos_ < in_end_ || fill_input(1);
  grow_output(kOutputStep);
  z_stream& z = codecs_->z;
  z.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
  z.avail_in = static_cast<uInt>(std::min<size_t>(in_end_ - in_pos_, 1u << 30));
  z.next_out = reinterpret_cast<Bytef*>(out_.data() + end_);
  z.avail_out = static_cast<uInt>(std::min<size_t>(out_.size() - end_, 1u << 30));
  uInt avail_in = z.avail_in;
  int rc = inflate(&z, Z_NO_FLUSH);
  in_pos_ += avail_in - z.avail_in;
  size_t old_end = end_;
  end_ = reinterpret_cast<char*>(z.next_out) - out_.data();
  if (!have_input && rc != Z_STREAM_END && end_ == old_end) {
    member_failed("truncated_gzip_member", "file ends inside a gzip member");
    done_ = true;
    return false;
  }
  if (rc == Z_STREAM_END) {
    members_.back().disk_end = compressed_position();
    in_member_ = false;
  } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_in == 0)) {
    member_failed("corrupt_gzip_member", z.msg ? z.msg : "inflate error");
  }
  return true;
}

std::string zstd_dictionary_content(std::string_view content) {
  if (content.size() < 4 || le32(content.data()) != kZstdMagic) return std::string(content);
  unsigned long long n = ZSTD_getFrameContentSize(content.data(), content.size());
  std::string dict;
  if (n != ZSTD_CONTENTSIZE_ERROR && n != ZSTD_CONTENTSIZE_UNKNOWN && n <= kMaxDictionary) {
    dict.resize(n);
    size_t got = ZSTD_decompress(dict.data(), n, content.data(), content.size());
    if (ZSTD_isError(got)) dict.clear();
  }
  return dict;
}

bool Stream::load_zstd_dictionary(std::string_view content) {
  if (codec_ != Codec::zstd) return false;
  const std::string dict = zstd_dictionary_content(content);
  return !dict.empty() &&
         !ZSTD_isError(ZSTD_DCtx_loadDictionary(codecs_->zstd, dict.data(), dict.size()));
}

bool Stream::handle_zstd_skippable() {
  if (!fill_input(8)) return false;
  uint32_t magic = le32(in_.data() + in_pos_);
  uint64_t size = le32(in_.data() + in_pos_ + 4);
  if (magic == kZstdDictFrame && size <= kMaxDictionary && fill_input(8 + size)) {
    if (!load_zstd_dictionary(std::string_view(in_.data() + in_pos_ + 8, size)))
      problem_(compressed_position(), "bad_zstd_dictionary", "dictionary frame not usable");
    in_pos_ += 8 + size;
    return true;
  }
  // Other skippable frames carry nothing for us: skip them without buffering them.
  uint64_t left = 8 + size;
  while (left > 0) {
    if (in_pos_ == in_end_ && !fill_input(1)) break;
    size_t take = static_cast<size_t>(std::min<uint64_t>(left, in_end_ - in_pos_));
    in_pos_ += take;
    left -= take;
  }
  return true;
}

bool Stream::decode_zstd_step() {
  if (!in_member_) {
    if (fill_input(4) && (le32(in_.data() + in_pos_) & 0xFFFFFFF0u) == 0x184D2A50u)
      return handle_zstd_skippable();
    if (!start_member("\x28\xb5\x2f\xfd", 4)) return false;
  }
  bool have_input = in_pos_ < in_end_ || fill_input(1);  // see decode_gzip_step
  grow_output(kOutputStep);
  ZSTD_inBuffer in{in_.data() + in_pos_, in_end_ - in_pos_, 0};
  ZSTD_outBuffer out{out_.data() + end_, out_.size() - end_, 0};
  size_t rc = ZSTD_decompressStream(codecs_->zstd, &out, &in);
  in_pos_ += in.pos;
  end_ += out.pos;
  if (!have_input && !ZSTD_isError(rc) && rc != 0 && out.pos == 0) {
    member_failed("truncated_zstd_frame", "file ends inside a zstd frame");
    done_ = true;
    return false;
  }
  if (ZSTD_isError(rc)) {
    ZSTD_DCtx_reset(codecs_->zstd, ZSTD_reset_session_only);
    member_failed("corrupt_zstd_frame", ZSTD_getErrorName(rc));
  } else if (rc == 0) {
    members_.back().disk_end = compressed_position();
    in_member_ = false;
  }
  return true;
}

std::string read_zstd_dictionary_frame(Input& input) {
  auto read_all = [&input](char* out, size_t n) {
    size_t done = 0;
    while (done < n) {
      size_t got = input.read(out + done, n - done);
      if (got == 0) break;
      done += got;
    }
    return done;
  };
  char head[8];
  if (read_all(head, 8) != 8 || le32(head) != kZstdDictFrame) return {};
  uint32_t size = le32(head + 4);
  if (size > kMaxDictionary) return {};
  std::string content(size, '\0');
  if (read_all(content.data(), size) != size) return {};
  return content;
}

std::deque<Stream::Member>::const_iterator Stream::members_after(uint64_t pos) const {
  // Look-ups are nearly always about the record being read, whose members are the oldest
  // kept (forget_before): a few steps from the front find them without the binary search
  // over the ~100 members decoded ahead (~2 % of reading small records).
  constexpr int kFrontSteps = 4;
  auto it = members_.begin();
  for (int step = 0; step < kFrontSteps && it != members_.end(); ++step, ++it)
    if (pos < it->decoded_start) return it;
  return std::upper_bound(it, members_.end(), pos,
                          [](uint64_t p, const Member& m) { return p < m.decoded_start; });
}

const Stream::Member* Stream::member_of(uint64_t pos) const {
  auto it = members_after(pos);
  if (it == members_.begin()) return nullptr;
  return &*(it - 1);
}

uint64_t Stream::disk_offset(uint64_t pos) const {
  if (codec_ == Codec::plain) return pos;
  const Member* m = member_of(pos);
  return m ? m->disk_start : 0;
}

bool Stream::member_starts_at(uint64_t pos) const {
  if (codec_ == Codec::plain) return true;
  const Member* m = member_of(pos);
  return m && m->decoded_start == pos;
}

uint64_t Stream::disk_end(uint64_t pos) const {
  if (codec_ == Codec::plain) return pos + 1;
  const Member* m = member_of(pos);
  return m ? m->disk_end : 0;
}

uint64_t Stream::next_break(uint64_t pos) const {
  if (broken_members_ == 0) return UINT64_MAX;  // nearly always: skip the scan per record
  // Members before the one holding `pos` are followed by members starting at or before it.
  auto it = members_after(pos);
  if (it != members_.begin()) --it;
  for (; it != members_.end() && it + 1 != members_.end(); ++it)
    if (it->broken && (it + 1)->decoded_start > pos) return (it + 1)->decoded_start;
  return UINT64_MAX;
}

std::vector<uint64_t> Stream::member_starts_between(uint64_t from, uint64_t to) const {
  std::vector<uint64_t> starts;
  for (auto it = members_after(from); it != members_.end() && it->decoded_start < to; ++it)
    starts.push_back(it->decoded_start);
  return starts;
}

void Stream::forget_before(uint64_t pos) {
  size_t drop = 0;
  while (drop + 1 < members_.size() && members_[drop + 1].decoded_start <= pos &&
         members_[drop].disk_end != 0)
    ++drop;
  // Keep one member before `pos` so disk_offset(pos) still resolves.
  for (size_t i = 0; i < drop; ++i) broken_members_ -= members_[i].broken ? 1 : 0;
  if (drop > 0) members_.erase(members_.begin(), members_.begin() + static_cast<long>(drop));
}

}  // namespace strata::archive
