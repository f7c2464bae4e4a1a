#include "export/wacz_check.hpp"

#include <zip.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

#include "archive/reader.hpp"
#include "core/digest.hpp"
#include "core/json.hpp"

namespace strata::exporter {
namespace {

struct Entry {
  uint64_t size = 0;
  bool stored = false;
  zip_uint64_t index = 0;
};

class Wacz {
 public:
  explicit Wacz(const std::filesystem::path& path) {
    int error = 0;
    zip_.reset(zip_open(path.c_str(), ZIP_RDONLY, &error));
    if (!zip_) return;
    for (zip_int64_t i = 0, n = zip_get_num_entries(zip_.get(), 0); i < n; ++i) {
      zip_stat_t st;
      if (zip_stat_index(zip_.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
      entries_[st.name] = {st.size, st.comp_method == ZIP_CM_STORE, static_cast<zip_uint64_t>(i)};
    }
  }
  bool open() const { return zip_ != nullptr; }
  const std::map<std::string, Entry>& entries() const { return entries_; }
  const Entry* find(const std::string& name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  // The entry's bytes through `take` in pieces; false when it cannot be read whole.
  template <typename Take>
  bool read(const Entry& e, Take take) const {
    std::unique_ptr<zip_file_t, decltype(&zip_fclose)> f(zip_fopen_index(zip_.get(), e.index, 0),
                                                         zip_fclose);
    if (!f) return false;
    char buf[1 << 16];
    uint64_t total = 0;
    for (zip_int64_t n; (n = zip_fread(f.get(), buf, sizeof buf)) > 0;)
      take(std::string_view(buf, static_cast<size_t>(n))), total += static_cast<uint64_t>(n);
    return total == e.size;
  }
  std::string text(const Entry& e) const {
    std::string out;
    read(e, [&](std::string_view piece) { out.append(piece); });
    return out;
  }
  std::string sha256(const Entry& e) const {
    Hasher h(DigestAlgorithm::kSha256);
    read(e, [&](std::string_view piece) { h.update(piece); });
    return h.finish_hex();
  }

 private:
  struct Close {
    void operator()(zip_t* z) const { zip_discard(z); }
  };
  std::unique_ptr<zip_t, Close> zip_;
  std::map<std::string, Entry> entries_;
};

using Problems = std::vector<std::string>;

void check_package(const Wacz& w, Problems& p) {
  const Entry* package = w.find("datapackage.json");
  const Entry* digest = w.find("datapackage-digest.json");
  if (!package || !digest) return p.push_back("datapackage.json or its digest file is missing");
  const Json dp = Json::parse(w.text(*package), nullptr, false);
  const Json dd = Json::parse(w.text(*digest), nullptr, false);
  if (!dp.is_object() || dp.value("profile", "") != "data-package" ||
      dp.value("wacz_version", "").rfind("1.1", 0) != 0 || !dp.contains("resources"))
    return p.push_back("datapackage.json is not a WACZ 1.1 data package");
  if (!dd.is_object() || dd.value("path", "") != "datapackage.json" ||
      dd.value("hash", "") != "sha256:" + w.sha256(*package))
    p.push_back("datapackage-digest.json does not hold datapackage.json's sha256");
  std::map<std::string, bool> listed;
  for (const auto& r : dp["resources"]) {
    const std::string path = r.value("path", "");
    listed[path] = true;
    const Entry* e = w.find(path);
    if (!e) {
      p.push_back("resource " + path + " is not in the file");
    } else if (r.value("bytes", uint64_t{0}) != e->size ||
               r.value("hash", "") != "sha256:" + w.sha256(*e)) {
      p.push_back("resource " + path + ": bytes or sha256 do not match");
    }
  }
  for (const auto& [name, e] : w.entries())
    if (!listed.count(name) && name.rfind("datapackage", 0) != 0)
      p.push_back(name + " is not listed in datapackage.json");
}

void check_pages(const Wacz& w, Problems& p) {
  const Entry* pages = w.find("pages/pages.jsonl");
  if (!pages) return p.push_back("pages/pages.jsonl is missing");
  std::istringstream in(w.text(*pages));
  std::string line;
  std::getline(in, line);
  if (Json::parse(line, nullptr, false).value("format", "") != "json-pages-1.0")
    p.push_back("pages/pages.jsonl does not start with a json-pages-1.0 header");
  while (std::getline(in, line)) {
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("url") || !j.contains("ts"))
      return p.push_back("pages/pages.jsonl: a page without url or ts: " + line);
  }
}

// Where each record of the WACZ's archives starts ("wacz#archive/x.warc.gz" and offset) and
// its URL, read in one pass.
std::map<std::pair<std::string, uint64_t>, std::string> record_starts(
    const std::filesystem::path& wacz) {
  std::map<std::pair<std::string, uint64_t>, std::string> starts;
  auto reader = archive::ArchiveReader::open(wacz, {}, [](const Problem&) {});
  while (reader->next())
    starts[{reader->record().file, reader->record().location()}] = reader->record().target_uri;
  return starts;
}

void check_index(const Wacz& w, const std::filesystem::path& path, Problems& p) {
  const Entry* index = w.find("indexes/index.cdx");
  if (!index) index = w.find("indexes/index.cdxj");
  if (!index) return p.push_back("indexes/index.cdx is missing");
  const auto starts = record_starts(path);
  std::istringstream in(w.text(*index));
  std::string line, previous;
  while (std::getline(in, line)) {
    if (line < previous) p.push_back("indexes/index.cdx is not sorted at: " + line);
    previous = line;
    const auto brace = line.find('{');
    const Json j =
        brace == std::string::npos ? Json() : Json::parse(line.substr(brace), nullptr, false);
    if (!j.is_object()) {
      p.push_back("indexes/index.cdx: not a CDXJ line: " + line);
      continue;
    }
    const std::string file = path.string() + "#archive/" + j.value("filename", "");
    const std::string offset = j.value("offset", "");
    const auto it = starts.find({file, std::strtoull(offset.c_str(), nullptr, 10)});
    if (it == starts.end() || it->second != j.value("url", ""))
      p.push_back("indexes/index.cdx: no record for " + j.value("url", "") + " at " + file + ":" +
                  offset);
  }
}

}  // namespace

std::vector<std::string> check_wacz(const std::filesystem::path& wacz) {
  Problems p;
  const Wacz w(wacz);
  if (!w.open()) return {"not a ZIP file: " + wacz.string()};
  bool warc = false;
  for (const auto& [name, e] : w.entries()) {
    if (name.rfind("archive/", 0) != 0) continue;
    warc |= name.ends_with(".warc") || name.ends_with(".warc.gz");
    if (!e.stored) p.push_back(name + " is compressed: WACZ archive/ entries must be stored");
  }
  if (!warc) p.push_back("no archive/*.warc or *.warc.gz");
  check_package(w, p);
  check_pages(w, p);
  check_index(w, wacz, p);
  return p;
}

}  // namespace strata::exporter
