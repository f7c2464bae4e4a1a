// WHATWG HTML "prescan a byte stream to determine its encoding" (13.2.3.2), byte for byte.
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "extract/charset.hpp"

namespace strata::extract {
namespace {

bool is_space(char c) {
  return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20;
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
}

bool ifind_at(std::string_view s, size_t pos, std::string_view lower_prefix) {
  if (pos > s.size() || s.size() - pos < lower_prefix.size()) return false;
  for (size_t i = 0; i < lower_prefix.size(); ++i)
    if (lower(s[pos + i]) != lower_prefix[i]) return false;
  return true;
}

struct Attribute {
  std::string name, value;
};

class Prescanner {
 public:
  explicit Prescanner(std::string_view bytes) : s_(bytes) {}

  std::string run() {
    for (pos_ = 0; pos_ < s_.size(); ++pos_) {
      if (ifind_at(s_, pos_, "<!--")) {
        size_t end = s_.find("-->", pos_ + 2);
        if (end == std::string_view::npos) return "";
        pos_ = end + 2;
      } else if (ifind_at(s_, pos_, "<meta") && pos_ + 5 < s_.size() &&
                 (is_space(s_[pos_ + 5]) || s_[pos_ + 5] == '/')) {
        pos_ += 6;
        if (std::string found = meta(); !found.empty()) return found;
        if (pos_ >= s_.size()) return "";
      } else if (s_[pos_] == '<' && pos_ + 1 < s_.size() &&
                 (is_alpha(s_[pos_ + 1]) ||
                  (s_[pos_ + 1] == '/' && pos_ + 2 < s_.size() && is_alpha(s_[pos_ + 2])))) {
        if (!skip_tag()) return "";
      } else if (ifind_at(s_, pos_, "<!") || ifind_at(s_, pos_, "</") || ifind_at(s_, pos_, "<?")) {
        size_t end = s_.find('>', pos_ + 2);
        if (end == std::string_view::npos) return "";
        pos_ = end;
      }
    }
    return "";
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }

  // Skips an ordinary tag's name and attributes; false at the end of input.
  bool skip_tag() {
    while (!at_end() && !is_space(s_[pos_]) && s_[pos_] != '>') ++pos_;
    if (at_end()) return false;
    while (get_attribute()) {
    }
    return !at_end();
  }

  std::string meta() {
    std::set<std::string> seen;
    bool got_pragma = false;
    std::optional<bool> need_pragma;
    std::string charset;
    while (auto attr = get_attribute()) {
      if (!seen.insert(attr->name).second) continue;
      if (attr->name == "http-equiv") {
        got_pragma = got_pragma || attr->value == "content-type";
      } else if (attr->name == "content" && charset.empty()) {
        std::string label = extract_from_content(attr->value);
        if (!label.empty()) {
          charset = encoding_for_label(label);
          need_pragma = true;
        }
      } else if (attr->name == "charset") {
        charset = encoding_for_label(attr->value);
        need_pragma = false;
      }
    }
    if (at_end() || !need_pragma || (*need_pragma && !got_pragma) || charset.empty()) return "";
    if (charset == "UTF-16BE" || charset == "UTF-16LE") return "UTF-8";
    if (charset == "x-user-defined") return "windows-1252";
    return charset;
  }

  // "get an attribute"; nullopt when there is none (or the input ended).
  std::optional<Attribute> get_attribute() {
    while (!at_end() && (is_space(s_[pos_]) || s_[pos_] == '/')) ++pos_;
    if (at_end() || s_[pos_] == '>') return std::nullopt;
    Attribute attr;
    for (;; ++pos_) {
      if (at_end()) return std::nullopt;
      char c = s_[pos_];
      if (c == '=' && !attr.name.empty()) {
        ++pos_;
        return value(std::move(attr));
      }
      if (is_space(c)) break;
      if (c == '/' || c == '>') return attr;
      attr.name.push_back(lower(c));
    }
    while (!at_end() && is_space(s_[pos_])) ++pos_;
    if (at_end()) return std::nullopt;
    if (s_[pos_] != '=') return attr;
    ++pos_;
    return value(std::move(attr));
  }

  std::optional<Attribute> value(Attribute attr) {
    while (!at_end() && is_space(s_[pos_])) ++pos_;
    if (at_end()) return std::nullopt;
    char c = s_[pos_];
    if (c == '"' || c == '\'') {
      for (++pos_; !at_end(); ++pos_) {
        if (s_[pos_] == c) {
          ++pos_;
          return attr;
        }
        attr.value.push_back(lower(s_[pos_]));
      }
      return std::nullopt;
    }
    if (c == '>') return attr;
    for (; !at_end(); ++pos_) {
      if (is_space(s_[pos_]) || s_[pos_] == '>') return attr;
      attr.value.push_back(lower(s_[pos_]));
    }
    return std::nullopt;
  }

  // "algorithm for extracting a character encoding from a meta element".
  static std::string extract_from_content(std::string_view s) {
    size_t pos = 0;
    while (true) {
      size_t found = s.find("charset", pos);
      if (found == std::string_view::npos) return "";
      pos = found + 7;
      while (pos < s.size() && is_space(s[pos])) ++pos;
      if (pos >= s.size() || s[pos] != '=') continue;
      ++pos;
      while (pos < s.size() && is_space(s[pos])) ++pos;
      if (pos >= s.size()) return "";
      if (s[pos] == '"' || s[pos] == '\'') {
        size_t end = s.find(s[pos], pos + 1);
        if (end == std::string_view::npos) return "";
        return std::string(s.substr(pos + 1, end - pos - 1));
      }
      size_t end = pos;
      while (end < s.size() && !is_space(s[end]) && s[end] != ';') ++end;
      return std::string(s.substr(pos, end - pos));
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::string prescan_meta_charset(std::string_view bytes, size_t limit) {
  return Prescanner(bytes.substr(0, limit)).run();
}

}  // namespace strata::extract
