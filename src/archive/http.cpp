#include "archive/http.hpp"

#include <brotli/decode.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace strata::archive {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool starts_with_method(std::string_view line) {
  size_t sp = line.find(' ');
  if (sp == std::string_view::npos || sp == 0 || sp > 16) return false;
  for (size_t i = 0; i < sp; ++i)
    if (!std::isupper(static_cast<unsigned char>(line[i]))) return false;
  return line.find(" HTTP/") != std::string_view::npos;
}

// "HTTP/1.1 200 OK", "HTTP/1.0 200Ok", "HTTP/1.1 404": the first 3-digit run after the version.
int parse_status(std::string_view line) {
  size_t sp = line.find_first_of(" \t");
  if (sp == std::string_view::npos) return 0;
  std::string_view rest = trim(line.substr(sp));
  if (rest.size() < 3) return 0;
  int status = 0;
  for (int i = 0; i < 3; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(rest[i]))) return 0;
    status = status * 10 + (rest[i] - '0');
  }
  if (rest.size() > 3 && std::isdigit(static_cast<unsigned char>(rest[3]))) return 0;
  return status >= 100 ? status : 0;
}

// End of the head: after the first empty line (CRLF CRLF or bare LF LF), or npos.
size_t head_end(std::string_view data) {
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    if (nl == std::string_view::npos) return std::string_view::npos;
    std::string_view line = data.substr(pos, nl - pos);
    if ((line.empty() || line == "\r") && pos > 0) return nl + 1;
    pos = nl + 1;
  }
  return std::string_view::npos;
}

void parse_header_lines(std::string_view head, HttpHead& out, HeaderPool* pool) {
  size_t pos = head.find('\n');
  while (pos != std::string_view::npos && pos + 1 < head.size()) {
    size_t start = pos + 1;
    pos = head.find('\n', start);
    std::string_view line =
        head.substr(start, (pos == std::string_view::npos ? head.size() : pos) - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if ((line[0] == ' ' || line[0] == '\t') && !out.headers.empty()) {  // folded line
      out.headers.back().second += " ";
      out.headers.back().second += trim(line);
      continue;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // garbage line: ignored like browsers do
    add_header(out.headers, pool, trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
}

// One chunk-size line at `pos`: 1-16 hex digits, optional extension; size and line length.
bool chunk_line(std::string_view in, size_t pos, uint64_t& size, size_t& line_len) {
  size_t i = pos, digits = 0;
  size = 0;
  while (i < in.size() && std::isxdigit(static_cast<unsigned char>(in[i]))) {
    if (++digits > 16) return false;
    char c = in[i++];
    size = size * 16 + static_cast<uint64_t>(std::isdigit(static_cast<unsigned char>(c))
                                                 ? c - '0'
                                                 : (std::tolower(c) - 'a' + 10));
  }
  if (digits == 0) return false;
  while (i < in.size() && (in[i] == ' ' || in[i] == '\t')) ++i;
  if (i < in.size() && in[i] == ';') {
    size_t nl = in.find('\n', i);
    if (nl == std::string_view::npos || nl - i > 1024) return false;
    i = nl;
  }
  if (i < in.size() && in[i] == '\r') ++i;
  if (i >= in.size() || in[i] != '\n') return false;
  line_len = i + 1 - pos;
  return true;
}

template <typename Step>
DecodeResult run_decoder(std::string& out, size_t cap, Step step) {
  out.clear();
  for (;;) {
    if (out.size() >= cap) return DecodeResult::oversized;
    size_t old = out.size();
    out.resize(std::min(cap, std::max<size_t>(old * 2, 64 << 10)));
    size_t produced = 0;
    int state = step(out.data() + old, out.size() - old, produced);  // 1 done, 0 more, -1 err
    out.resize(old + produced);
    if (state < 0) return DecodeResult::failed;
    if (state > 0) return DecodeResult::ok;
  }
}

DecodeResult inflate_all(std::string_view in, std::string& out, size_t cap, int window_bits) {
  z_stream z{};
  if (inflateInit2(&z, window_bits) != Z_OK) return DecodeResult::failed;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  auto result = run_decoder(out, cap, [&](char* buf, size_t n, size_t& produced) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = static_cast<uInt>(n);
    int rc = inflate(&z, Z_NO_FLUSH);
    produced = n - z.avail_out;
    if (rc == Z_STREAM_END) return 1;
    if (rc == Z_OK) return 0;
    if (rc == Z_BUF_ERROR && z.avail_out == 0) return 0;
    return -1;
  });
  inflateEnd(&z);
  return result;
}

DecodeResult brotli_all(std::string_view in, std::string& out, size_t cap) {
  BrotliDecoderState* s = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  const uint8_t* next_in = reinterpret_cast<const uint8_t*>(in.data());
  size_t avail_in = in.size();
  auto result = run_decoder(out, cap, [&](char* buf, size_t n, size_t& produced) {
    uint8_t* next_out = reinterpret_cast<uint8_t*>(buf);
    size_t avail_out = n;
    auto rc = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    produced = n - avail_out;
    if (rc == BROTLI_DECODER_RESULT_SUCCESS) return 1;
    if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) return 0;
    return -1;
  });
  BrotliDecoderDestroyInstance(s);
  return result;
}

DecodeResult zstd_all(std::string_view in, std::string& out, size_t cap) {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  auto result = run_decoder(out, cap, [&](char* buf, size_t n, size_t& produced) {
    ZSTD_outBuffer output{buf, n, 0};
    size_t rc = ZSTD_decompressStream(ctx, &output, &input);
    produced = output.pos;
    if (ZSTD_isError(rc)) return -1;
    if (rc == 0 && input.pos == input.size) return 1;
    if (output.pos < n && input.pos == input.size) return -1;  // truncated frame
    return 0;
  });
  ZSTD_freeDCtx(ctx);
  return result;
}

DecodeResult decode_one(std::string_view coding, std::string_view in, std::string& out,
                        size_t cap) {
  if (coding == "gzip" || coding == "x-gzip") return inflate_all(in, out, cap, 31);
  if (coding == "deflate") {  // zlib-wrapped per RFC, raw deflate in practice: try both
    auto r = inflate_all(in, out, cap, 15);
    return r == DecodeResult::failed ? inflate_all(in, out, cap, -15) : r;
  }
  if (coding == "br") return brotli_all(in, out, cap);
  if (coding == "zstd") return zstd_all(in, out, cap);
  return DecodeResult::failed;
}

}  // namespace

void split_content_type(std::string_view value, std::string& mime, std::string& charset) {
  size_t semi = value.find(';');
  mime = lower(trim(value.substr(0, semi)));
  charset.clear();
  while (semi != std::string_view::npos) {
    std::string_view rest = value.substr(semi + 1);
    semi = rest.find(';');
    std::string_view param = trim(rest.substr(0, semi));
    if (param.size() > 8 && strncasecmp(param.data(), "charset=", 8) == 0) {
      std::string_view cs = trim(param.substr(8));
      if (cs.size() >= 2 && (cs.front() == '"' || cs.front() == '\''))
        cs = cs.substr(1, cs.size() - 2);
      charset = lower(cs);
      break;
    }
    value = rest;
  }
}

size_t parse_http_head(std::string_view data, bool whole, HttpHead& head, HeaderPool* pool) {
  head.clear();
  size_t nl = data.find('\n');
  std::string_view first = data.substr(0, nl);
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  bool response = first.size() >= 5 && strncasecmp(first.data(), "HTTP/", 5) == 0;
  if (!response && !starts_with_method(first)) return 0;
  size_t end = head_end(data);
  if (end == std::string_view::npos) {
    if (!whole) return 0;
    end = data.size();  // revisit blocks often hold only the head, without the blank line
  }
  head.present = true;
  head.status_line = first;
  if (response) head.status = parse_status(first);
  parse_header_lines(data.substr(0, end), head, pool);
  split_content_type(head.header("Content-Type"), head.mime, head.charset);
  return end;
}

DechunkResult dechunk(std::string_view in, std::string& out) {
  out.clear();
  size_t pos = 0;
  bool first = true;
  while (pos < in.size()) {
    uint64_t size = 0;
    size_t line_len = 0;
    if (!chunk_line(in, pos, size, line_len)) {
      if (first) return DechunkResult::invalid;
      return DechunkResult::truncated;
    }
    first = false;
    pos += line_len;
    if (size == 0) return DechunkResult::ok;  // trailers ignored
    if (size > in.size() - pos) {
      out.append(in.substr(pos));
      return DechunkResult::truncated;
    }
    out.append(in.substr(pos, size));
    pos += size;
    if (pos < in.size() && in[pos] == '\r') ++pos;
    if (pos < in.size() && in[pos] == '\n') ++pos;
  }
  return first ? DechunkResult::ok : DechunkResult::truncated;
}

bool looks_chunked(std::string_view body) {
  uint64_t size = 0;
  size_t line_len = 0;
  if (!chunk_line(body, 0, size, line_len) || line_len > 20 || size == 0) return false;
  size_t next = line_len + size;
  if (size > body.size() || next + 2 > body.size()) return false;
  if (body.substr(next, 2) != "\r\n") return false;
  next += 2;
  if (next == body.size()) return true;
  return chunk_line(body, next, size, line_len);
}

DecodeResult decode_content(std::string_view encodings, std::string_view in, std::string& out,
                            size_t cap) {
  std::string current(in), next;
  std::string list = lower(encodings);
  // Codings are listed in the order applied, so undo them from the last one.
  std::vector<std::string> codings;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string coding(trim(std::string_view(list).substr(start, comma - start)));
    if (!coding.empty() && coding != "identity" && coding != "none") codings.push_back(coding);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
    if (current.empty()) break;  // empty bodies (e.g. 304s) with a coding header
    auto r = decode_one(*it, current, next, cap);
    if (r != DecodeResult::ok) return r;
    current.swap(next);
  }
  out = std::move(current);
  return DecodeResult::ok;
}

}  // namespace strata::archive
