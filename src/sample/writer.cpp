#include "sample/writer.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>

#include "core/digest.hpp"
#include "core/timestamp.hpp"
#include "sample/crawler.hpp"
#include "sample/gzip_file.hpp"
#include "sample/html.hpp"

namespace strata::sample {
namespace {

std::string host_of(const std::string& url) {
  size_t p = url.find("://") + 3;
  return url.substr(p, url.find('/', p) - p);
}

std::string path_of(const std::string& url) {
  size_t p = url.find('/', url.find("://") + 3);
  return p == std::string::npos ? "/" : url.substr(p);
}

// A stable public-looking IPv4 address per host (Heritrix records the address it fetched from).
std::string ip_of(const std::string& host) {
  uint32_t h = static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(host.data()), static_cast<uInt>(host.size())));
  return std::to_string(80 + (h >> 24) % 120) + "." + std::to_string((h >> 16) & 0xff) + "." +
         std::to_string((h >> 8) & 0xff) + "." + std::to_string(1 + (h & 0xff) % 254);
}

std::string http_head(const std::string& type, size_t length, int64_t t) {
  return "HTTP/1.1 200 OK\r\nDate: " + http_date(t) +
         "\r\nServer: Apache\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(length) + "\r\nConnection: close\r\n\r\n";
}

// A payload in pieces (an asset's file around its marker), written without joining them.
using Body = std::array<Piece, 3>;

size_t size_of(const Body& body) {
  return body[0].bytes.size() + body[1].bytes.size() + body[2].bytes.size();
}

// An asset's bytes: the file's shared pieces deflated once, the marker compressed per record.
Body body_of(const Asset& a) {
  std::array<std::string_view, 3> p = a.pieces();
  return {Piece{p[0], &(*a.deflated)[0]}, Piece{p[1]}, Piece{p[2], &(*a.deflated)[1]}};
}

using FileName = std::shared_ptr<const std::string>;

// One fetch: what the crawler asked for and what it got.
struct Fetch {
  const std::string& url;
  int64_t t;
  const std::string& referer;  // empty for seeds
  const std::string& page_id;  // Browsertrix: the page being loaded
  bool page;                   // a page (document) rather than an embedded image
};

struct Job {
  const World& w;
  const std::filesystem::path& dir;
  int crawl;
  int shard;
  const Crawl& cr;
  WriteResult result;
  // Reused for record ids and block digests (a new EVP context per record costs more).
  mutable Hasher sha256{DigestAlgorithm::kSha256};
  std::set<std::string> resolved{};  // Heritrix: hosts with a dns: record in this job

  Crawler crawler() const { return cr.browsertrix ? Crawler::browsertrix : Crawler::heritrix; }
  std::string id(const char* what, const std::string& url, int in_crawl) const {
    return record_id(sha256, w.options.seed, what, url, in_crawl);
  }

  Member put(GzipMemberFile& out, const WarcFields& f, std::string_view head,
             const Body& body = {}) {
    ++result.records;
    std::string warc = warc_head(crawler(), f, head.size() + size_of(body));
    return out.write({Piece{warc}, Piece{head}, body[0], body[1], body[2], Piece{"\r\n\r\n"}});
  }

  WarcFields fields(const char* type, const Fetch& fetch) const {
    WarcFields f;
    f.type = type;
    f.uri = fetch.url;
    f.date = fetch.t;
    if (cr.browsertrix) {
      f.page_id = fetch.page_id;
      f.resource_type = fetch.page ? "document" : "image";
    }
    return f;
  }

  // Browsertrix digests every record (sha256); Heritrix only the payload of responses.
  void digests(WarcFields& f, std::string_view head, const Body& body,
               const std::string& payload_digest) const {
    f.payload_digest = payload_digest;
    if (!cr.browsertrix) return;
    sha256.update(head);
    for (const Piece& piece : body) sha256.update(piece.bytes);
    f.block_digest = "sha256:" + sha256.finish_hex();
  }

  std::string request_block(const Fetch& fetch) const {
    std::string host = host_of(fetch.url), path = path_of(fetch.url);
    std::string referer = fetch.referer.empty() ? "" : "Referer: " + fetch.referer + "\r\n";
    if (cr.browsertrix)
      return "GET " + path + " HTTP/1.1\r\nHost: " + host +
             "\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
             "Gecko) Chrome/120.0 Safari/537.36\r\nAccept: */*\r\n" +
             referer + "\r\n";
    return "GET " + path +
           " HTTP/1.0\r\nUser-Agent: Mozilla/5.0 (compatible; heritrix/3.4.0 "
           "+http://arquivo.pt)\r\nFrom: archive@arquivo.pt\r\nConnection: close\r\n" +
           referer + "Host: " + host + "\r\n\r\n";
  }

  // What follows a response or revisit: the request, and for Heritrix a metadata record.
  void after(GzipMemberFile& out, const Fetch& fetch, const std::string& response_id) {
    WarcFields req = fields("request", fetch);
    req.id = id("request", fetch.url, crawl);
    req.concurrent_to = response_id;
    req.content_type = "application/http; msgtype=request";
    std::string block = request_block(fetch);
    static const std::string kEmptySha256 = "sha256:" + sha256_hex("");
    digests(req, block, {}, cr.browsertrix ? kEmptySha256 : "");
    put(out, req, block);
    if (cr.browsertrix) return;
    WarcFields meta = fields("metadata", fetch);
    meta.id = id("metadata", fetch.url, crawl);
    meta.concurrent_to = response_id;
    meta.content_type = "application/warc-fields";
    std::string via = fetch.referer.empty() ? "" : "via: " + fetch.referer + "\r\n";
    put(out, meta, via + "hopsFromSeed: " + (fetch.page ? "L" : "E") + "\r\n");
  }

  // Heritrix writes the DNS lookup of a host (a `dns:` response, text/dns) before its first
  // fetch from that host in the crawl.
  void resolve(GzipMemberFile& out, const Fetch& fetch) {
    std::string host = host_of(fetch.url);
    if (cr.browsertrix || !resolved.insert(host).second) return;
    WarcFields f;
    f.type = "response";
    f.uri = "dns:" + host;
    f.date = fetch.t;
    f.ip = ip_of("resolver." + cr.collection);  // the crawler's DNS server
    f.id = id("dns", host, crawl);
    f.content_type = "text/dns";
    put(out, f,
        timestamp_from_epoch(fetch.t) + "\n" + host + ".\t300\tIN\tA\t" + ip_of(host) + "\n");
  }

  Location response(GzipMemberFile& out, const FileName& file, const Fetch& fetch,
                    const std::string& type, const Body& body, const std::string& payload_digest) {
    resolve(out, fetch);
    WarcFields f = fields("response", fetch);
    f.id = id("response", fetch.url, crawl);
    f.content_type = "application/http; msgtype=response";
    if (!cr.browsertrix) f.ip = ip_of(host_of(fetch.url));
    std::string head = http_head(type, size_of(body), fetch.t);
    digests(f, head, body, payload_digest);
    Member m = put(out, f, head, body);
    after(out, fetch, f.id);
    return Location{file, m.offset, m.length};
  }

  std::string payload_digest(const Asset& a) const {
    return cr.browsertrix ? "sha256:" + a.sha256 : "sha1:" + a.sha1;
  }

  // The earlier crawl by the same crawler that fetched these bytes from `u` (crawlers
  // deduplicate against their own earlier captures, in their own digest form), or -1.
  int original_crawl(const ImageUrl& u) const {
    for (int c = 0; c < crawl; ++c) {
      size_t i = static_cast<size_t>(c);
      if (u.capture[i] && u.asset[i] == u.asset[static_cast<size_t>(crawl)] &&
          w.crawls[i].browsertrix == cr.browsertrix)
        return c;
    }
    return -1;
  }

  Location revisit(GzipMemberFile& out, const FileName& file, const Fetch& fetch, const ImageUrl& u,
                   const Asset& a, int original) {
    resolve(out, fetch);
    WarcFields f = fields("revisit", fetch);
    f.id = id("revisit", fetch.url, crawl);
    f.content_type = "application/http; msgtype=response";
    if (!cr.browsertrix) f.ip = ip_of(host_of(fetch.url));
    f.refers_to_uri = u.url;
    f.refers_to_date = u.capture[static_cast<size_t>(original)];
    std::string head = http_head(u.mime_reported, a.size(), fetch.t);
    digests(f, head, {}, payload_digest(a));
    Member m = put(out, f, head);
    after(out, fetch, f.id);
    return Location{file, m.offset, m.length};
  }

  void image(GzipMemberFile& out, const FileName& file, int image_id, const Fetch& page) {
    const ImageUrl& u = w.images[static_cast<size_t>(image_id)];
    size_t c = static_cast<size_t>(crawl);
    const Asset& a = w.assets[static_cast<size_t>(u.asset[c])];
    Fetch fetch{u.url, u.capture[c], page.url, page.page_id, false};
    CaptureEvent ev{image_id, crawl, false, original_crawl(u), {}};
    ev.revisit = ev.refers_to_crawl >= 0;
    ev.where = ev.revisit
                   ? revisit(out, file, fetch, u, a, ev.refers_to_crawl)
                   : response(out, file, fetch, u.mime_reported, body_of(a), payload_digest(a));
    result.captures.push_back(std::move(ev));
  }

  std::string file_name(bool late) const {
    char buf[200];
    std::string ts = timestamp_from_epoch(cr.start);
    if (cr.browsertrix)
      std::snprintf(buf, sizeof buf, "%s/rec-%s-%05d%s.warc.gz", cr.collection.c_str(), ts.c_str(),
                    shard, late ? "-late" : "");
    else
      std::snprintf(buf, sizeof buf, "%s/%s-%s-%05d-%s.warc.gz", cr.collection.c_str(),
                    cr.collection.c_str(), ts.c_str(), shard, late ? "late" : "crawler");
    return buf;
  }

  std::string warcinfo_block() const {
    if (cr.browsertrix)
      return "software: Browsertrix-Crawler 1.0.4 (with warcio.js 2.2.1)\r\n"
             "format: WARC File Format 1.1\r\n";
    return "software: Heritrix/3.4.0 http://crawler.archive.org\r\n"
           "format: WARC File Format 1.0\r\n"
           "conformsTo: http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf\r\n"
           "isPartOf: " +
           cr.collection +
           "\r\n"
           "description: strata sample, seed " +
           std::to_string(w.options.seed) +
           "\r\n"
           "robots: obey\r\n";
  }

  void warcinfo(GzipMemberFile& out, const std::string& file) {
    WarcFields f;
    f.type = "warcinfo";
    f.date = cr.start;
    f.filename = std::filesystem::path(file).filename().string();
    f.id = id("warcinfo", f.filename, crawl);
    f.content_type = "application/warc-fields";
    put(out, f, warcinfo_block());
  }

  std::string page_id(const Page& p) const {
    std::string rid = id("page", p.url, crawl);
    return rid.substr(10, rid.size() - 11);  // the bare UUID
  }

  struct Files {
    GzipMemberFile& main;
    GzipMemberFile& late;
    const FileName& main_name;
    const FileName& late_name;
    std::vector<char> done;  // image URLs already fetched in this job
  };

  void capture(Files& files, int image_id, const Fetch& page) {
    size_t i = static_cast<size_t>(image_id);
    if (image_id < 0 || !w.images[i].capture[static_cast<size_t>(crawl)] || files.done[i]) return;
    files.done[i] = 1;
    bool late = w.images[i].late;
    image(late ? files.late : files.main, late ? files.late_name : files.main_name, image_id, page);
  }

  // Each page, then the images it pulls in; the site's unreferenced files after its home page.
  void write_site(Files& files, const Site& site) {
    static const std::string kNoReferer;
    for (int pid : site.pages) {
      const Page& p = w.pages[static_cast<size_t>(pid)];
      RenderedPage html = render_page(w, p, crawl);
      std::string pid_text = cr.browsertrix ? page_id(p) : "";
      Fetch fetch{p.url, p.time[static_cast<size_t>(crawl)], kNoReferer, pid_text, true};
      Location where = response(files.main, files.main_name, fetch, html.content_type,
                                Body{Piece{html.body}, {}, {}}, warc_digest(crawler(), html.body));
      result.pages.push_back(PageEvent{pid, crawl, where});
      for (const Slot& slot : p.slots) {
        capture(files, slot.image, fetch);
        capture(files, slot.full, fetch);
      }
      if (pid == site.pages.front())
        for (int id : site.orphans) capture(files, id, fetch);
    }
  }

  void run() {
    auto main_name = std::make_shared<const std::string>(file_name(false));
    auto late_name = std::make_shared<const std::string>(file_name(true));
    std::filesystem::create_directories(dir / cr.collection);
    // Bench mode trades ~15 % larger records for the fastest compression of their heads.
    Effort effort = w.options.fast ? Effort::fastest : Effort::fast;
    GzipMemberFile main(dir / *main_name, effort), late(dir / *late_name, effort);
    warcinfo(main, *main_name);
    warcinfo(late, *late_name);
    Files files{main, late, main_name, late_name, std::vector<char>(w.images.size(), 0)};
    size_t shards = static_cast<size_t>(shard_count(w));
    for (size_t s = static_cast<size_t>(shard); s < w.sites.size(); s += shards) {
      const Site& site = w.sites[s];
      if (crawl >= site.first_crawl && crawl <= site.last_crawl) write_site(files, site);
    }
    main.close();
    late.close();
    result.files = {*main_name, *late_name};
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

std::string record_id(Hasher& sha256, uint64_t seed, const std::string& what,
                      const std::string& url, int crawl) {
  // The hash of "seed|what|url|crawl", fed in parts.
  std::string seed_text = std::to_string(seed), crawl_text = std::to_string(crawl);
  for (std::string_view part :
       {std::string_view(seed_text), std::string_view("|"), std::string_view(what),
        std::string_view("|"), std::string_view(url), std::string_view("|"),
        std::string_view(crawl_text)})
    sha256.update(part);
  std::string h = sha256.finish_hex();
  // A version 4, variant 1 UUID: 8-4-4-4-12 hex digits, two of them fixed.
  std::string id = "<urn:uuid:";
  id.append(h, 0, 8).append("-").append(h, 8, 4).append("-4").append(h, 13, 3);
  id.append("-a").append(h, 17, 3).append("-").append(h, 20, 12).append(">");
  return id;
}

}  // namespace strata::sample
