#include "analyze/run.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <fstream>

#include "analyze/record.hpp"
#include "analyze/thumbnail_store.hpp"
#include "archive_images.hpp"
#include "core/json.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

std::string sha256_hex(std::string_view data) {
  unsigned char md[32];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

std::vector<AnalysisRecord> read_records(const fs::path& file) {
  std::vector<AnalysisRecord> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    AnalysisRecord r;
    if (from_json(Json::parse(line), r)) out.push_back(r);
  }
  return out;
}

// Documents pointing at the images of a real archive (each twice, plus one record that is
// not there and a line without a digest): one record per digest, thumbnails stored, and a
// second run analyses nothing again.
TEST(RunAnalysis, DocumentsFromRealArchiveOncePerDigestAcrossRuns) {
  STRATA_REQUIRE_SHARED();
  const fs::path dir = strata::testing::scratch_dir();
  auto images = test::archive_images(
      "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz");
  std::erase_if(images, [](const auto& image) { return !image.mime.starts_with("image/"); });
  ASSERT_GE(images.size(), 20u);
  std::set<std::string> digests;
  {
    std::ofstream docs(dir / "documents.jsonl");
    for (int round = 0; round < 2; ++round)
      for (const auto& image : images) {
        Json doc;
        doc["imgDigest"] = sha256_hex(image.bytes);
        doc["imgFile"] = image.file;
        doc["imgOffset"] = image.offset;
        digests.insert(doc["imgDigest"].get<std::string>());
        docs << doc.dump() << "\n";
      }
    docs << R"({"imgDigest":")" << std::string(64, 'f') << R"(","imgFile":")" << images[0].file
         << R"(","imgOffset":1})"
         << "\n";
    docs << R"({"imgUrl":"no digest"})"
         << "\n";
  }
  RunOptions options;
  options.documents = dir / "documents.jsonl";
  options.out = dir / "index";
  const Counters first = run_analysis(options);
  EXPECT_EQ(first.get("documents_invalid"), 1);
  EXPECT_EQ(first.get("bytes_missing"), 1);
  EXPECT_EQ(first.get("images"), int64_t(digests.size()));
  EXPECT_EQ(first.get("already_analysed"), int64_t(images.size() * 2 - digests.size()));
  const auto records = read_records(dir / "index/analysis.jsonl");
  ASSERT_EQ(records.size(), digests.size() + 1);
  const ThumbnailStore store(dir / "index/thumbs");
  int ok = 0;
  for (const auto& r : records) {
    if (r.missing_bytes) {
      EXPECT_FALSE(visible_under_safe_search(r));  // unclassified: hidden
      continue;
    }
    if (r.status != DecodeStatus::ok) continue;
    ++ok;
    EXPECT_TRUE(store.contains(r.digest));
    EXPECT_EQ(store.root() / r.thumbnail, store.path_for(r.digest));
    EXPECT_TRUE(r.phash.has_value());
    EXPECT_TRUE(r.pdq.has_value());
    if (first.get("model_missing") == 0) {
      EXPECT_TRUE(r.nsfw.has_value());
    }
  }
  EXPECT_EQ(ok, int(digests.size()));
  // Second run: the cache (analysis.jsonl) means nothing is analysed twice; the missing one
  // is tried again (its archive may be found now) without a second line for it.
  const Counters second = run_analysis(options);
  EXPECT_EQ(second.get("images"), 0);
  EXPECT_EQ(second.get("already_analysed"), int64_t(images.size() * 2));
  EXPECT_EQ(second.get("bytes_missing"), 1);
  EXPECT_EQ(read_records(dir / "index/analysis.jsonl").size(), records.size());
}

TEST(NsfwModel, FoundOnlyWhereItsModelJsonIsAndTheMessageSaysWhatToDo) {
  const fs::path models = strata::testing::scratch_dir() / "nsfwjs";
  fs::create_directories(models / "mobilenet_v2");
  EXPECT_FALSE(nsfw_model_dir(models, ""));
  std::ofstream(models / "mobilenet_v2" / "model.json") << "{}";
  EXPECT_EQ(nsfw_model_dir(models, ""), models / "mobilenet_v2");
  EXPECT_EQ(nsfw_model_dir(models, "mobilenet_v2"), models / "mobilenet_v2");
  EXPECT_FALSE(nsfw_model_dir(models, "inception_v3"));
  const std::string message = missing_model_message(models, "inception_v3");
  for (const char* needle : {"inception_v3", "scripts/setup-npm", "--models", "--no-nsfw"})
    EXPECT_NE(message.find(needle), std::string::npos) << needle;
}

// Safe search: shows classified safe images; hides unsafe ones and unclassified ones.
TEST(SafeSearch, HidesUnsafeAndUnclassifiedShowsSafe) {
  AnalysisRecord safe, unsafe, borderline, failed;
  safe.nsfw = NsfwScores{{0.01f, 0.0f, 0.97f, 0.01f, 0.01f}};
  unsafe.nsfw = NsfwScores{{0.0f, 0.1f, 0.05f, 0.8f, 0.05f}};
  // Arquivo's rule raised porn + hentai 0.4 to 0.51 and hid it; the calibrated policy shows it.
  borderline.nsfw = NsfwScores{{0.1f, 0.1f, 0.2f, 0.3f, 0.3f}};
  failed.status = DecodeStatus::corrupt;
  EXPECT_TRUE(visible_under_safe_search(safe));
  EXPECT_FALSE(visible_under_safe_search(unsafe));
  EXPECT_TRUE(visible_under_safe_search(borderline));
  EXPECT_FALSE(visible_under_safe_search(failed));
  EXPECT_EQ(safe_search_value(failed), -1.0);
  // And through the JSON the index reads.
  AnalysisRecord back;
  ASSERT_TRUE(from_json(Json::parse(to_json(unsafe).dump()), back));
  EXPECT_FALSE(visible_under_safe_search(back));
  ASSERT_TRUE(from_json(Json::parse(to_json(safe).dump()), back));
  EXPECT_TRUE(visible_under_safe_search(back));
  EXPECT_EQ(to_json(borderline)["nsfw"].get<float>(), 0.51f);  // Arquivo's value, kept
  EXPECT_EQ(to_json(borderline)["safe"].get<bool>(), true);
  EXPECT_LE(to_json(borderline)["safeSearchScore"].get<float>(), 0.48f);
}

// Detail and size travel through analysis.jsonl; a tiny icon's scores do not hide it.
TEST(SafeSearch, DetailAndSizeRoundTripAndDecide) {
  AnalysisRecord icon;
  icon.digest = std::string(64, 'a');
  icon.status = DecodeStatus::ok;
  icon.width = 16;
  icon.height = 16;
  icon.nsfw = NsfwScores{{0.0f, 0.0f, 0.07f, 0.93f, 0.0f}};  // a real pictogram's scores
  icon.detail = 0.38f;
  AnalysisRecord back;
  ASSERT_TRUE(from_json(Json::parse(to_json(icon).dump()), back));
  EXPECT_EQ(back.detail, icon.detail);
  EXPECT_TRUE(visible_under_safe_search(back));
  back.width = back.height = 400;
  EXPECT_FALSE(visible_under_safe_search(back));
  back.detail = 0.0f;  // flat
  EXPECT_TRUE(visible_under_safe_search(back));
}

}  // namespace
}  // namespace strata::analyze
