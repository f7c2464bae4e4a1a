// A page that references its image with an escape the captured URL does not have
// (`Mona_Lisa%2C_...` against `Mona_Lisa,_...`) still meets the capture: one document,
// with the page's description (docs/url.md, "join_surt").
#include <gtest/gtest.h>

#include <sstream>

#include "archive/warc_writer.hpp"
#include "core/json.hpp"
#include "extract/image_test_bytes.hpp"
#include "extract/stage.hpp"
#include "merge/folder.hpp"
#include "merge/pipeline.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCaptured =
    "https://upload.wikimedia.org/wikipedia/commons/e/ec/"
    "Mona_Lisa,_by_Leonardo_da_Vinci,_from_C2RMF_retouched.jpg";
constexpr const char* kReferenced =
    "https://upload.wikimedia.org/wikipedia/commons/e/ec/"
    "Mona_Lisa%2C_by_Leonardo_da_Vinci%2C_from_C2RMF_retouched.jpg";

std::vector<Json> documents_of(const fs::path& warc, const fs::path& work) {
  extract::ExtractOptions options;
  options.collection = "wiki";
  options.gates.min_side = 0;
  fs::create_directories(work / "extract");
  const auto extracted = extract::run_extraction({warc}, options, work / "extract", 1, {}, nullptr);
  EXPECT_EQ(extracted.unusable, 0u);
  std::vector<merge::Source> sources;
  for (const auto& file : merge::extraction_files(work / "extract"))
    sources.push_back(merge::jsonl_file_source(file));
  std::ostringstream out;
  merge::MergeOptions merge_options;
  merge_options.work_dir = work / "merge";
  merge::run_merge(sources, merge_options, out);
  std::vector<Json> docs;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) docs.push_back(Json::parse(line));
  return docs;
}

TEST(EquivalentUrls, PercentEncodedReferenceMeetsTheCapturedImage) {
  const fs::path work = strata::testing::scratch_dir();
  const fs::path warc = work / "mona.warc.gz";
  {
    archive::WarcWriter w(warc);
    w.write_response("https://en.wikipedia.org/wiki/Mona_Lisa", "20240101120000",
                     "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
                     "<html><head><title>Mona Lisa - Wikipedia</title></head><body>"
                     "<img src=\"" +
                         std::string(kReferenced) +
                         "\" alt=\"Mona Lisa, by Leonardo da Vinci\"></body></html>");
    w.write_response(
        kCaptured, "20240101120001",
        "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n" + extract::testbytes::png(400, 600));
  }
  const std::vector<Json> docs = documents_of(warc, work);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0]["imgUrl"], kCaptured);
  EXPECT_EQ(docs[0]["pageUrl"], "https://en.wikipedia.org/wiki/Mona_Lisa");
  EXPECT_EQ(docs[0]["imgAlt"], Json::array({"Mona Lisa, by Leonardo da Vinci"}));
  EXPECT_EQ(docs[0]["pageTitle"], "Mona Lisa - Wikipedia");
}

}  // namespace
}  // namespace strata
