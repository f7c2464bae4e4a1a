#include "extract/data_uri.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>

namespace strata::extract {
namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::string trim_lower(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), lower);
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    int hi = i + 2 < text.size() && text[i] == '%' ? hex_value(text[i + 1]) : -1;
    int lo = hi >= 0 ? hex_value(text[i + 2]) : -1;
    if (lo >= 0) {
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;  // '-' and '_': URL-safe alphabet, seen in the wild
  if (c == '/' || c == '_') return 63;
  return -1;
}

std::optional<std::string> base64_decode(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size() / 4 * 3 + 3, max_bytes));
  uint32_t buffer = 0;
  int bits = 0;
  bool padding = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    int value = base64_value(c);
    if (value < 0 || padding) return std::nullopt;  // data after padding is invalid
    buffer = (buffer << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (out.size() >= max_bytes) return std::nullopt;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  if (bits >= 6) return std::nullopt;  // a single dangling character encodes nothing
  return out;
}

}  // namespace

bool is_data_uri(std::string_view uri) {
  while (!uri.empty() && std::isspace(static_cast<unsigned char>(uri.front())))
    uri.remove_prefix(1);
  return uri.size() >= 5 && trim_lower(uri.substr(0, 5)) == "data:";
}

std::optional<DataUri> parse_data_uri(std::string_view uri, const DataUriLimits& limits) {
  while (!uri.empty() && std::isspace(static_cast<unsigned char>(uri.front())))
    uri.remove_prefix(1);
  if (!is_data_uri(uri)) return std::nullopt;
  size_t comma = uri.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  std::string header = percent_decode(uri.substr(5, comma - 5));
  std::string_view payload = uri.substr(comma + 1);
  if (payload.size() / 3 > limits.max_bytes + 1024) return std::nullopt;  // hopeless early
  DataUri result;
  size_t semicolon = header.find(';');
  result.mime = trim_lower(std::string_view(header).substr(0, semicolon));
  if (result.mime.empty() || result.mime.find('/') == std::string::npos) result.mime = "text/plain";
  for (size_t pos = semicolon; pos != std::string::npos; pos = header.find(';', pos + 1)) {
    size_t next = header.find(';', pos + 1);
    if (trim_lower(std::string_view(header).substr(pos + 1, next - pos - 1)) == "base64")
      result.base64 = true;
  }
  std::string decoded = percent_decode(payload);
  if (result.base64) {
    auto bytes = base64_decode(decoded, limits.max_bytes);
    if (!bytes) return std::nullopt;
    result.bytes = std::move(*bytes);
  } else {
    if (decoded.size() > limits.max_bytes) return std::nullopt;
    result.bytes = std::move(decoded);
  }
  return result;
}

}  // namespace strata::extract
