#include "archive/record.hpp"

#include <strings.h>
#include <array>

namespace strata::archive {
namespace {

constexpr std::array<std::pair<RecordType, std::string_view>, 9> kNames{{
    {RecordType::warcinfo, "warcinfo"},
    {RecordType::response, "response"},
    {RecordType::resource, "resource"},
    {RecordType::request, "request"},
    {RecordType::revisit, "revisit"},
    {RecordType::metadata, "metadata"},
    {RecordType::conversion, "conversion"},
    {RecordType::continuation, "continuation"},
    {RecordType::unknown, "unknown"},
}};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

std::string_view find_header(const std::vector<Header>& headers, std::string_view name) {
  for (const auto& [key, value] : headers)
    if (iequals(key, name)) return value;
  return {};
}

}  // namespace

std::string_view to_string(RecordType type) {
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return "unknown";
}

RecordType record_type_from_string(std::string_view name) {
  for (const auto& [t, n] : kNames)
    if (iequals(n, name)) return t;
  return RecordType::unknown;
}

std::string_view HttpHead::header(std::string_view name) const {
  return find_header(headers, name);
}

std::string_view Record::header(std::string_view name) const {
  return find_header(headers, name);
}

void HttpHead::clear() {
  present = false;
  status = 0;
  for (std::string* s : {&status_line, &mime, &charset}) s->clear();
  headers.clear();
}

void Record::clear() {
  format = Format::warc;
  type = RecordType::unknown;
  for (std::string* s :
       {&version, &type_name, &target_uri, &date, &date_raw, &record_id, &content_type, &ip_address,
        &block_digest, &payload_digest, &refers_to, &refers_to_target_uri, &refers_to_date,
        &profile, &truncated, &warcinfo_id, &file})
    s->clear();
  headers.clear();
  content_length = offset = length = decoded_offset = 0;
  http.clear();
}

}  // namespace strata::archive
