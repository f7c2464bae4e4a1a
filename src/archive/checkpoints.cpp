#include "archive/checkpoints.hpp"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <list>
#include <mutex>

namespace strata::archive {
namespace {

constexpr size_t kWindow = 32 << 10;  // deflate's largest back-reference distance
constexpr size_t kBuffer = 64 << 10;
constexpr size_t kCacheBytes = 256 << 20;  // checkpoint windows kept in memory, all files

// The last 32 KiB of the current gzip member's output. Only this member's: a resumed raw
// inflate must reject a distance reaching before the member start exactly as the full decode
// does ("invalid distance too far back"), instead of reading the previous member's bytes.
class Ring {
 public:
  void append(const unsigned char* p, size_t n) {
    if (n >= kWindow) {
      p += n - kWindow;
      n = kWindow;
    }
    size_t first = std::min(n, kWindow - pos_);
    std::memcpy(buf_.data() + pos_, p, first);
    std::memcpy(buf_.data(), p + first, n - first);
    pos_ = (pos_ + n) % kWindow;
    filled_ = std::min(kWindow, filled_ + n);
  }
  void clear() { pos_ = filled_ = 0; }
  bool empty() const { return filled_ == 0; }
  std::string window() const {
    if (filled_ < kWindow) return buf_.substr(0, filled_);
    return buf_.substr(pos_) + buf_.substr(0, pos_);
  }

 private:
  std::string buf_ = std::string(kWindow, '\0');
  size_t pos_ = 0, filled_ = 0;
};

bool starts_gzip_member(Input& input, z_stream& z, std::vector<unsigned char>& in) {
  if (z.avail_in < 2) {
    std::memmove(in.data(), z.next_in, z.avail_in);
    size_t got = input.read(reinterpret_cast<char*>(in.data()) + z.avail_in, in.size() - 2);
    z.next_in = in.data();
    z.avail_in += static_cast<uInt>(got);
  }
  return z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b;
}

void build_gzip(Input& input, CheckpointIndex& index, uint64_t spacing) {
  z_stream z{};
  inflateInit2(&z, 31);
  std::vector<unsigned char> in(kBuffer), out(kBuffer);
  Ring ring;
  uint64_t total_in = 0, total_out = 0, last = 0;
  bool at_end = false;
  for (;;) {
    // At the end of the input inflate still runs: it may hold output of a truncated stream.
    if (z.avail_in == 0 && !at_end) {
      size_t got = input.read(reinterpret_cast<char*>(in.data()), in.size());
      at_end = got == 0;
      z.next_in = in.data();
      z.avail_in = static_cast<uInt>(got);
    }
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    uInt avail_in = z.avail_in;
    int rc = inflate(&z, Z_BLOCK);
    size_t produced = out.size() - z.avail_out;
    total_in += avail_in - z.avail_in;
    total_out += produced;
    ring.append(out.data(), produced);
    if (rc == Z_STREAM_END) {
      if (!starts_gzip_member(input, z, in)) break;  // the end, or junk after the members
      inflateReset(&z);
      ring.clear();
      if (total_out - last >= spacing) {  // a member start: no window needed
        index.points.push_back({total_out, total_in, 0, {}});
        last = total_out;
      }
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && !at_end) continue;  // wants more input
    if (rc != Z_OK) break;  // damage or truncation: the index reaches as far as the data was good
    // At a block boundary that is not the end of the member's last block, past some output
    // of this member (a point with an empty window is a member start).
    if ((z.data_type & 128) && !(z.data_type & 64) && !ring.empty() &&
        total_out - last >= spacing) {
      index.points.push_back({total_out, total_in, z.data_type & 7, ring.window()});
      last = total_out;
    }
  }
  inflateEnd(&z);
  index.decoded_size = total_out;
}

bool load_dictionary(ZSTD_DCtx* dctx, const std::string& content) {
  const std::string dict = zstd_dictionary_content(content);
  return !dict.empty() && !ZSTD_isError(ZSTD_DCtx_loadDictionary(dctx, dict.data(), dict.size()));
}

void build_zstd(Input& input, CheckpointIndex& index, uint64_t spacing) {
  index.zstd_dictionary = read_zstd_dictionary_frame(input);
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (!input.seek(0) ||
      (!index.zstd_dictionary.empty() && !load_dictionary(dctx, index.zstd_dictionary))) {
    ZSTD_freeDCtx(dctx);
    return;
  }
  std::vector<char> in(kBuffer), out(kBuffer);
  // Only whole frames count: how much of a damaged or truncated frame zstd returns depends on
  // the caller's buffer sizes and the context's history (single-pass decoding when the output
  // holds the declared content size), so a reader resumed elsewhere could not match it.
  uint64_t total_in = 0, total_out = 0, last = 0, frames_end = 0;
  ZSTD_inBuffer src{in.data(), 0, 0};
  bool at_end = false;
  for (;;) {
    // At the end of the input the decoder still runs while it flushes output it holds.
    if (src.pos == src.size && !at_end) {
      src.size = input.read(in.data(), in.size());
      src.pos = 0;
      at_end = src.size == 0;
    }
    ZSTD_outBuffer dst{out.data(), out.size(), 0};
    size_t before = src.pos;
    size_t rc = ZSTD_decompressStream(dctx, &dst, &src);
    total_in += src.pos - before;
    total_out += dst.pos;
    if (ZSTD_isError(rc) || (at_end && dst.pos == 0)) break;
    if (rc != 0) continue;
    frames_end = total_out;
    if (total_out - last >= spacing) {  // a frame ended: the next one starts here
      index.points.push_back({total_out, total_in, 0, {}});
      last = total_out;
    }
  }
  ZSTD_freeDCtx(dctx);
  index.decoded_size = frames_end;
}

// The "seek" of a decoded input (`pos` is its position): forward only, by decoding.
bool skip_forward(Input& input, const uint64_t& pos, uint64_t offset) {
  char sink[1 << 16];
  while (pos < offset)
    if (input.read(sink, static_cast<size_t>(std::min<uint64_t>(offset - pos, sizeof sink))) == 0)
      return false;
  return pos == offset;
}

// The most a decoded input may return now: it ends at the index's decoded_size, where the
// full decode met the end or damage (the resumed raw inflate does not check the member's
// CRC, so it would read on past a damaged trailer).
size_t until_end(uint64_t end, uint64_t pos, size_t n) {
  return static_cast<size_t>(std::min<uint64_t>({n, end - std::min(pos, end), 1u << 30}));
}

// Decoded gzip from a checkpoint: raw deflate primed with the checkpoint's bits and window
// up to the end of that member, then member after member.
class GzipDecodedInput final : public Input {
 public:
  GzipDecodedInput(std::unique_ptr<Input> file, const CheckpointIndex& index,
                   const Checkpoint& point, std::string& error)
      : file_(std::move(file)), in_(kBuffer), end_(index.decoded_size), pos_(point.decoded) {
    raw_ = !point.window.empty();
    inflateInit2(&z_, raw_ ? -15 : 31);
    uint64_t start = point.compressed - (point.bits ? 1 : 0);
    if (!file_->seek(start)) {
      error = "cannot seek to the checkpoint";
      return;
    }
    if (point.bits) {
      unsigned char byte = 0;
      if (file_->read(reinterpret_cast<char*>(&byte), 1) != 1) {
        error = "cannot read the checkpoint";
        return;
      }
      inflatePrime(&z_, point.bits, byte >> (8 - point.bits));
    }
    if (raw_)
      inflateSetDictionary(&z_, reinterpret_cast<const Bytef*>(point.window.data()),
                           static_cast<uInt>(point.window.size()));
    ok_ = true;
  }
  ~GzipDecodedInput() override { inflateEnd(&z_); }
  bool ok() const { return ok_; }

  size_t read(char* out, size_t n) override {
    n = until_end(end_, pos_, n);
    while (ok_ && !done_ && n > 0) {
      // At the end of the file inflate still runs: it may hold output of a truncated stream.
      if (z_.avail_in == 0) refill();
      z_.next_out = reinterpret_cast<Bytef*>(out);
      z_.avail_out = static_cast<uInt>(n);
      int rc = inflate(&z_, Z_NO_FLUSH);
      size_t produced = n - z_.avail_out;
      pos_ += produced;
      if (rc == Z_STREAM_END) {
        next_member();
      } else if (rc == Z_BUF_ERROR && z_.avail_in == 0) {
        done_ = at_end_;  // wants more input, if there is any
      } else if (rc != Z_OK) {
        error_ = z_.msg ? z_.msg : "inflate error";
        done_ = true;
      }
      if (produced > 0) return produced;
    }
    return 0;
  }
  bool seek(uint64_t offset) override { return skip_forward(*this, pos_, offset); }
  uint64_t size() const override { return 0; }

 private:
  bool refill() {
    size_t got = file_->read(reinterpret_cast<char*>(in_.data()), in_.size());
    z_.next_in = in_.data();
    z_.avail_in = static_cast<uInt>(got);
    at_end_ = got == 0;
    return got > 0;
  }
  void next_member() {
    if (raw_) {  // the gzip trailer (CRC, size) follows the raw deflate data
      for (int skip = 8; skip > 0;) {
        if (z_.avail_in == 0 && !refill()) {
          done_ = true;  // a truncated trailer
          return;
        }
        uInt take = std::min<uInt>(z_.avail_in, static_cast<uInt>(skip));
        z_.next_in += take;
        z_.avail_in -= take;
        skip -= static_cast<int>(take);
      }
      raw_ = false;
      inflateReset2(&z_, 31);
    } else {
      inflateReset(&z_);
    }
  }

  std::unique_ptr<Input> file_;
  z_stream z_{};
  std::vector<unsigned char> in_;
  const uint64_t end_;  // the index's decoded_size
  uint64_t pos_;
  bool raw_ = false, ok_ = false, done_ = false, at_end_ = false;
};

class ZstdDecodedInput final : public Input {
 public:
  ZstdDecodedInput(std::unique_ptr<Input> file, const CheckpointIndex& index,
                   const Checkpoint& point, std::string& error)
      : file_(std::move(file)),
        in_(kBuffer),
        end_(index.decoded_size),
        pos_(point.decoded),
        dctx_(ZSTD_createDCtx()) {
    if (!index.zstd_dictionary.empty() && !load_dictionary(dctx_, index.zstd_dictionary)) {
      error = "zstd dictionary not usable";
      return;
    }
    if (!file_->seek(point.compressed)) {
      error = "cannot seek to the checkpoint";
      return;
    }
    ok_ = true;
  }
  ~ZstdDecodedInput() override { ZSTD_freeDCtx(dctx_); }
  bool ok() const { return ok_; }

  size_t read(char* out, size_t n) override {
    n = until_end(end_, pos_, n);
    while (ok_ && !done_ && n > 0) {
      // At the end of the file the decoder still runs while it flushes output it holds.
      if (src_.pos == src_.size && !at_end_) {
        src_ = {in_.data(), file_->read(in_.data(), in_.size()), 0};
        at_end_ = src_.size == 0;
      }
      ZSTD_outBuffer dst{out, n, 0};
      size_t rc = ZSTD_decompressStream(dctx_, &dst, &src_);
      pos_ += dst.pos;
      if (ZSTD_isError(rc)) {
        error_ = ZSTD_getErrorName(rc);
        done_ = true;
      } else if (at_end_ && dst.pos == 0) {
        done_ = true;
      }
      if (dst.pos > 0) return dst.pos;
    }
    return 0;
  }
  bool seek(uint64_t offset) override { return skip_forward(*this, pos_, offset); }
  uint64_t size() const override { return 0; }

 private:
  std::unique_ptr<Input> file_;
  std::vector<char> in_;
  ZSTD_inBuffer src_{nullptr, 0, 0};
  const uint64_t end_;  // the index's decoded_size
  uint64_t pos_;
  ZSTD_DCtx* dctx_;
  bool ok_ = false, done_ = false, at_end_ = false;
};

}  // namespace

Codec sniff_codec(Input& input) {
  unsigned char magic[4] = {};
  size_t got = input.read(reinterpret_cast<char*>(magic), 4);
  uint32_t v = static_cast<uint32_t>(magic[0]) | static_cast<uint32_t>(magic[1]) << 8 |
               static_cast<uint32_t>(magic[2]) << 16 | static_cast<uint32_t>(magic[3]) << 24;
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Codec::gzip;
  if (got == 4 && (v == 0xFD2FB528u || (v & 0xFFFFFFF0u) == 0x184D2A50u)) return Codec::zstd;
  return Codec::plain;
}

size_t CheckpointIndex::memory() const {
  size_t bytes = sizeof(*this) + zstd_dictionary.size();
  for (const auto& p : points) bytes += sizeof(p) + p.window.size();
  return bytes;
}

const Checkpoint& CheckpointIndex::before(uint64_t decoded) const {
  auto it = std::upper_bound(points.begin(), points.end(), decoded,
                             [](uint64_t d, const Checkpoint& p) { return d < p.decoded; });
  return *(it - 1);
}

bool build_checkpoints(Input& input, CheckpointIndex& index, std::string& error, uint64_t spacing) {
  index = CheckpointIndex{};
  index.codec = sniff_codec(input);
  if (index.codec == Codec::plain || !input.seek(0)) {
    error = "not a gzip or zstd file";
    return false;
  }
  index.points.push_back({});
  spacing = std::max<uint64_t>(spacing, 1);
  if (index.codec == Codec::gzip)
    build_gzip(input, index, spacing);
  else
    build_zstd(input, index, spacing);
  return true;
}

std::unique_ptr<Input> decoded_input(std::unique_ptr<Input> file, const CheckpointIndex& index,
                                     const Checkpoint& point, std::string& error) {
  if (index.codec == Codec::gzip) {
    auto input = std::make_unique<GzipDecodedInput>(std::move(file), index, point, error);
    if (input->ok()) return input;
  } else if (index.codec == Codec::zstd) {
    auto input = std::make_unique<ZstdDecodedInput>(std::move(file), index, point, error);
    if (input->ok()) return input;
  } else {
    error = "not a gzip or zstd file";
  }
  return nullptr;
}

std::shared_ptr<const CheckpointIndex> cached_checkpoints(
    const std::string& cache_key, const std::function<std::unique_ptr<Input>()>& open,
    std::string& error) {
  using Entry = std::pair<std::string, std::shared_ptr<const CheckpointIndex>>;
  static std::mutex mutex;
  static std::list<Entry> recent;  // most recently used first
  static size_t bytes = 0;
  // One lock over the build too: a second reader of the same file waits instead of decoding
  // it again.
  std::lock_guard lock(mutex);
  for (auto it = recent.begin(); it != recent.end(); ++it)
    if (it->first == cache_key) {
      recent.splice(recent.begin(), recent, it);
      return it->second;
    }
  auto input = open();
  if (!input) {
    error = "cannot open the archive";
    return nullptr;
  }
  auto index = std::make_shared<CheckpointIndex>();
  if (!build_checkpoints(*input, *index, error)) return nullptr;
  bytes += index->memory();
  recent.emplace_front(cache_key, index);
  while (bytes > kCacheBytes && recent.size() > 1) {
    bytes -= recent.back().second->memory();
    recent.pop_back();
  }
  return index;
}

}  // namespace strata::archive
