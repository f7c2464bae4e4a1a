#include "sample/writer.hpp"

#include <algorithm>
#include <cstdio>

#include "archive/warc_writer.hpp"
#include "core/timestamp.hpp"
#include "sample/assets.hpp"
#include "sample/html.hpp"

namespace strata::sample {
namespace {

using archive::RecordType;
using archive::WarcRecordSpec;
using archive::WarcWriter;

// Deterministic record ids need WarcRecordSpec::record_id; older writers draw random ones.
template <typename Spec>
void set_record_id(Spec& spec, const std::string& id) {
  if constexpr (requires { spec.record_id; }) spec.record_id = id;
}

std::string http_date(int64_t t) {
  // RFC 7231 form is not needed by any reader; ISO keeps it simple and deterministic.
  return timestamp_to_iso8601(timestamp_from_epoch(t));
}

std::string host_of(const std::string& url) {
  size_t p = url.find("://") + 3;
  return url.substr(p, url.find('/', p) - p);
}

std::string path_of(const std::string& url) {
  size_t p = url.find('/', url.find("://") + 3);
  return p == std::string::npos ? "/" : url.substr(p);
}

struct Job {
  const World& w;
  const std::filesystem::path& dir;
  int crawl;
  int shard;
  const Crawl& cr;
  WriteResult result;

  std::string ua() const {
    return cr.browsertrix ? "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
                            "Gecko) Chrome/120.0 Safari/537.36"
                          : "Mozilla/5.0 (compatible; heritrix/3.4.0 +http://arquivo.pt)";
  }

  void put(WarcWriter& out, WarcRecordSpec spec, const std::string& id, Location* where) {
    set_record_id(spec, id);
    auto written = out.write(spec);
    ++result.records;
    if (where) where->offset = written.offset, where->length = written.length;
  }

  void request(WarcWriter& out, const std::string& url, int64_t t) {
    WarcRecordSpec spec;
    spec.type = RecordType::request;
    spec.target_uri = url;
    spec.date = timestamp_from_epoch(t);
    spec.block = "GET " + path_of(url) + " HTTP/1.1\r\nHost: " + host_of(url) +
                 "\r\nUser-Agent: " + ua() + "\r\nAccept: */*\r\nConnection: close\r\n\r\n";
    put(out, std::move(spec), record_id(w.options.seed, "request", url, crawl), nullptr);
  }

  std::string http_head(const std::string& type, size_t length, int64_t t) const {
    return "HTTP/1.1 200 OK\r\nDate: " + http_date(t) + "\r\nServer: Apache\r\nContent-Type: " +
           type + "\r\nContent-Length: " + std::to_string(length) + "\r\n\r\n";
  }

  Location response(WarcWriter& out, const std::string& file, const std::string& url, int64_t t,
                    const std::string& type, const std::string& body) {
    request(out, url, t);
    WarcRecordSpec spec;
    spec.type = RecordType::response;
    spec.target_uri = url;
    spec.date = timestamp_from_epoch(t);
    spec.block = http_head(type, body.size(), t) + body;
    Location where{file, 0, 0};
    put(out, std::move(spec), record_id(w.options.seed, "response", url, crawl), &where);
    return where;
  }

  void image(WarcWriter& out, const std::string& file, int id) {
    const ImageUrl& u = w.images[static_cast<size_t>(id)];
    int64_t t = u.capture[static_cast<size_t>(crawl)];
    const Asset& a = w.assets[static_cast<size_t>(u.asset[static_cast<size_t>(crawl)])];
    CaptureEvent ev{id, crawl, false, -1, {file, 0, 0}};
    for (int c = 0; c < crawl; ++c)
      if (u.capture[static_cast<size_t>(c)] && u.asset[static_cast<size_t>(c)] == u.asset[static_cast<size_t>(crawl)]) {
        ev.revisit = true, ev.refers_to_crawl = c;
        break;
      }
    if (!ev.revisit) {
      ev.where = response(out, file, u.url, t, u.mime_reported, a.image.bytes);
    } else {
      request(out, u.url, t);
      int64_t orig = u.capture[static_cast<size_t>(ev.refers_to_crawl)];
      WarcRecordSpec spec;
      spec.type = RecordType::revisit;
      spec.target_uri = u.url;
      spec.date = timestamp_from_epoch(t);
      spec.block = http_head(u.mime_reported, a.image.bytes.size(), t);
      spec.refers_to = record_id(w.options.seed, "response", u.url, ev.refers_to_crawl);
      spec.refers_to_target_uri = u.url;
      spec.refers_to_date = timestamp_from_epoch(orig);
      spec.payload_digest = archive::http_payload_digest("\r\n\r\n" + a.image.bytes);
      put(out, std::move(spec), record_id(w.options.seed, "revisit", u.url, crawl), &ev.where);
    }
    result.captures.push_back(ev);
  }

  std::string file_name(bool late) const {
    char buf[160];
    std::string ts = timestamp_from_epoch(cr.start);
    if (cr.browsertrix)
      std::snprintf(buf, sizeof buf, "%s/rec-%s-%05d%s.warc.gz", cr.collection.c_str(), ts.c_str(), shard, late ? "-late" : "");
    else
      std::snprintf(buf, sizeof buf, "%s/%s-%s-%05d-%s.warc.gz", cr.collection.c_str(), cr.collection.c_str(), ts.c_str(), shard, late ? "late" : "crawler");
    return buf;
  }

  void warcinfo(WarcWriter& out, const std::string& file) {
    std::vector<archive::Header> fields = {
        {"software", cr.browsertrix ? "Browsertrix-Crawler 1.0.4 (with warcio.js 2.2.1)"
                                    : "Heritrix/3.4.0 http://crawler.archive.org"},
        {"format", "WARC File Format 1.1"},
        {"conformsTo", "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
        {"isPartOf", cr.collection},
        {"description", "strata sample, seed " + std::to_string(w.options.seed)},
        {"robots", "obey"}};
    WarcRecordSpec spec;
    spec.type = RecordType::warcinfo;
    spec.date = timestamp_from_epoch(cr.start);
    std::string name = std::filesystem::path(file).filename().string();
    spec.extra_headers.emplace_back("WARC-Filename", name);
    for (const auto& [k, v] : fields) spec.block += k + ": " + v + "\r\n";
    put(out, std::move(spec), record_id(w.options.seed, "warcinfo", name, crawl), nullptr);
  }

  void run() {
    std::string main_name = file_name(false), late_name = file_name(true);
    std::filesystem::create_directories(dir / cr.collection);
    WarcWriter main(dir / main_name), late(dir / late_name);
    warcinfo(main, main_name);
    warcinfo(late, late_name);
    int shards = shard_count(w);
    std::vector<char> done(w.images.size(), 0);
    for (size_t s = static_cast<size_t>(shard); s < w.sites.size(); s += static_cast<size_t>(shards)) {
      const Site& site = w.sites[s];
      if (crawl < site.first_crawl || crawl > site.last_crawl) continue;
      auto capture = [&](int id) {
        if (id < 0) return;
        const ImageUrl& u = w.images[static_cast<size_t>(id)];
        int64_t t = u.capture[static_cast<size_t>(crawl)];
        if (!t) return;
        if (done[static_cast<size_t>(id)]) return;
        done[static_cast<size_t>(id)] = 1;
        if (u.late) image(late, late_name, id);
        else image(main, main_name, id);
      };
      for (int pid : site.pages) {
        const Page& p = w.pages[static_cast<size_t>(pid)];
        RenderedPage html = render_page(w, p, crawl);
        Location where = response(main, main_name, p.url, p.time[static_cast<size_t>(crawl)], html.content_type, html.body);
        result.pages.push_back(PageEvent{pid, crawl, where});
        for (const Slot& slot : p.slots) {
          capture(slot.image);
          capture(slot.full);
        }
      }
      for (int id : site.orphans) capture(id);
    }
    main.flush();
    late.flush();
    result.files = {main_name, late_name};
    result.bytes = main.bytes_written() + late.bytes_written();
  }
};

}  // namespace

int shard_count(const World& w) {
  return static_cast<int>(std::clamp<size_t>(w.sites.size() / 25, 1, 256));
}

WriteResult write_job(const World& w, const std::filesystem::path& dir, int crawl, int shard) {
  Job job{w, dir, crawl, shard, w.crawls[static_cast<size_t>(crawl)], {}};
  job.run();
  return std::move(job.result);
}

std::string record_id(uint64_t seed, const std::string& what, const std::string& url, int crawl) {
  std::string h = sha256_hex(std::to_string(seed) + "|" + what + "|" + url + "|" + std::to_string(crawl));
  return "<urn:uuid:" + h.substr(0, 8) + "-" + h.substr(8, 4) + "-4" + h.substr(13, 3) + "-a" +
         h.substr(17, 3) + "-" + h.substr(20, 12) + ">";
}

}  // namespace strata::sample
