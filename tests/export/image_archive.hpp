#pragma once
// The export tests' index: kImages small images, each the payload of a response record in one
// WARC (with a revisit of every hundredth, which the documents resolve to the response), one
// image document each ("lisboa" in every alt text, classified safe), plus one document whose
// archive is missing (an export must skip it and say so).
#include <filesystem>
#include <string>
#include <vector>

#include "archive/locate.hpp"
#include "archive/warc_writer.hpp"
#include "core/digest.hpp"
#include "index/writer.hpp"

namespace strata::exporter::testing {

inline constexpr int kImages = 10'000;

struct ImageArchive {
  std::filesystem::path index, warc;
  std::vector<std::string> digests;  // of image i
};

inline std::string image_bytes(int i) {
  std::string gif = "GIF89a";
  gif += static_cast<char>(i & 0xFF);
  gif += static_cast<char>(i >> 8);
  gif += std::string(200 + i % 300, static_cast<char>('a' + i % 26)) + std::to_string(i);
  return gif;
}

inline std::string image_url(int i) {
  return "http://arquivo.example.pt/img/" + std::to_string(i) + ".gif";
}

inline merge::ImageDocument image_doc(int i, const std::string& file, uint64_t offset) {
  merge::ImageDocument d;
  d.id = d.imgDigest = sha256_hex(image_bytes(i));
  d.imgUrl = image_url(i);
  d.imgMimeType = "image/gif";
  d.imgWidth = 100 + i % 50;
  d.imgHeight = 80;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = "2010010100" + std::to_string(1000 + i % 5000);
  d.imgAlt = {"lisboa " + std::to_string(i), "ponte, \"25 de Abril\""};
  d.imgFile = file;
  d.imgOffset = offset;
  d.pageUrl = "http://arquivo.example.pt/page/" + std::to_string(i / 10) + ".html";
  d.pageTitle = "Página " + std::to_string(i / 10);
  d.pageHost = "arquivo.example.pt";
  d.pageCrawlTimestamp = d.imgCrawlTimestamp;
  d.collection = {"teste"};
  return d;
}

inline ImageArchive make_image_archive(const std::filesystem::path& dir) {
  ImageArchive a{dir / "index", dir / "images.warc.gz", {}};
  std::filesystem::create_directories(dir);
  std::vector<uint64_t> offsets;
  {
    archive::WarcWriter warc(a.warc);
    for (int i = 0; i < kImages; ++i) {
      const std::string body = image_bytes(i);
      const std::string date = image_doc(i, "", 0).imgCrawlTimestamp;
      const auto rec =
          warc.write_response(image_url(i), date,
                              "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: " +
                                  std::to_string(body.size()) + "\r\n\r\n" + body);
      if (i % 100 == 0)
        warc.write_revisit(image_url(i), "20200101000000",
                           "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\n\r\n", rec, image_url(i),
                           date, sha1_warc_digest(body));
      a.digests.push_back(sha256_hex(body));
      offsets.push_back(rec.offset);
    }
  }
  // Registered as the documents are added: the archive must be complete by then.
  const std::string key = archive::archive_key(a.warc);
  index::IndexWriter w(a.index);
  w.set_moderate([](const merge::ImageDocument&, index::Moderation& m) { m.safe = 0.1; });
  w.begin();
  for (int i = 0; i < kImages; ++i) w.add(image_doc(i, key, offsets[i]));
  w.add(image_doc(kImages, "/nowhere/gone.warc.gz", 0));  // an archive that is not there
  w.commit();
  return a;
}

}  // namespace strata::exporter::testing
