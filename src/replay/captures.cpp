#include "replay/captures.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <tuple>

#include "archive/locate.hpp"
#include "archive/reader.hpp"
#include "cdx/cdxj.hpp"
#include "core/timestamp.hpp"
#include "url/url.hpp"

namespace strata::replay {
namespace {

Capture capture_of(const archive::Record& r, std::string key) {
  Capture c;
  c.url = r.target_uri;
  c.urlkey = url::cdx_surt(r.target_uri);
  c.timestamp = r.date;
  c.mime = cdx::mime_field(r);
  c.status = r.http.present && r.http.status > 0 ? std::to_string(r.http.status) : "";
  c.digest = r.payload_digest.starts_with("sha1:") ? r.payload_digest.substr(5) : r.payload_digest;
  c.length = r.length;
  c.offset = r.location();
  c.filename = std::filesystem::path(archive::container_of(key)).filename().string();
  c.archive = std::move(key);
  c.revisit = r.type == archive::RecordType::revisit;
  c.metadata = r.type == archive::RecordType::metadata;
  return c;
}

// Reads one container file (a WARC/ARC, or a WACZ and its members); `keys` maps each
// location to read ("x.warc.gz", "x.wacz#archive/a.warc.gz") to its archive key.
void add_container(const std::string& container, const std::map<std::string, std::string>& keys,
                   std::vector<Capture>& out, const ProblemSink& problems) {
  auto reader = archive::ArchiveReader::open(container, {}, problems);
  while (reader->next()) {
    const archive::Record& r = reader->record();
    auto key = keys.find(r.file);
    if (key == keys.end() || !cdx::indexed(r) || r.date.empty()) continue;
    reader->finish_record();  // Record::length is final once the record is consumed
    out.push_back(capture_of(reader->record(), key->second));
  }
}

int64_t seconds(std::string_view ts) {
  return timestamp_to_epoch(ts).value_or(0);
}

bool error_status(const Capture& c) {
  return c.status.size() == 3 && (c.status[0] == '4' || c.status[0] == '5');
}

// Lower is better to replay: content before a metadata record sharing its URL and time (a
// book chapter and its description), then a success before an error.
int replay_rank(const Capture& c) {
  return (c.metadata ? 2 : 0) + (error_status(c) ? 1 : 0);
}

}  // namespace

CaptureIndex CaptureIndex::build(const std::vector<ArchiveSource>& archives, ProblemSink problems) {
  std::map<std::string, std::map<std::string, std::string>> containers;
  for (const auto& a : archives) containers[archive::container_of(a.file)][a.file] = a.key;
  CaptureIndex index;
  for (const auto& [container, keys] : containers)
    add_container(container, keys, index.captures_, problems);
  std::stable_sort(index.captures_.begin(), index.captures_.end(),
                   [](const Capture& a, const Capture& b) {
                     return std::tie(a.urlkey, a.timestamp) < std::tie(b.urlkey, b.timestamp);
                   });
  for (size_t i = 0; i < index.captures_.size(); ++i)
    if (!index.captures_[i].revisit && !index.captures_[i].digest.empty())
      index.by_digest_.emplace_back(index.captures_[i].digest, i);
  std::sort(index.by_digest_.begin(), index.by_digest_.end());
  return index;
}

std::span<const Capture> CaptureIndex::exact(std::string_view urlkey) const {
  auto first = std::lower_bound(
      captures_.begin(), captures_.end(), urlkey,
      [](const Capture& c, std::string_view k) { return std::string_view(c.urlkey) < k; });
  auto last = std::upper_bound(
      first, captures_.end(), urlkey,
      [](std::string_view k, const Capture& c) { return k < std::string_view(c.urlkey); });
  return {first, last};
}

std::span<const Capture> CaptureIndex::between(std::string_view first,
                                               std::string_view last) const {
  auto before = [](const Capture& c, std::string_view k) { return std::string_view(c.urlkey) < k; };
  auto begin = std::lower_bound(captures_.begin(), captures_.end(), first, before);
  auto end = std::lower_bound(begin, captures_.end(), last, before);
  return {begin, end};
}

const Capture* CaptureIndex::original_of(const Capture& revisit) const {
  auto first = std::lower_bound(by_digest_.begin(), by_digest_.end(),
                                std::make_pair(revisit.digest, size_t{0}));
  const Capture* best = nullptr;
  int64_t best_gap = 0;
  for (auto it = first; it != by_digest_.end() && it->first == revisit.digest; ++it) {
    const Capture& c = captures_[it->second];
    int64_t gap = std::llabs(seconds(c.timestamp) - seconds(revisit.timestamp));
    bool better = !best || (c.url == revisit.url && best->url != revisit.url) ||
                  ((c.url == revisit.url) == (best->url == revisit.url) && gap < best_gap);
    if (better) best = &c, best_gap = gap;
  }
  return best;
}

const Capture* nearest(std::span<const Capture> captures, std::string_view timestamp) {
  const int64_t want = seconds(timestamp);
  const Capture* best = nullptr;
  int64_t best_gap = 0;
  for (const Capture& c : captures) {
    int64_t gap = std::llabs(seconds(c.timestamp) - want);
    bool better = !best || replay_rank(c) < replay_rank(*best) ||
                  (replay_rank(c) == replay_rank(*best) && gap < best_gap);
    if (better) best = &c, best_gap = gap;
  }
  return best;
}

}  // namespace strata::replay
