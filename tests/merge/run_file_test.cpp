// Spilled run files (LZ4 frames, one per partition), the codec's string lengths and
// references read in place.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "merge/codec.hpp"
#include "merge/run_file.hpp"
#include "merge/sorter.hpp"
#include "testing/shared_data.hpp"

namespace strata::merge {
namespace {

std::string read_frame(const std::filesystem::path& file, uint64_t begin, uint64_t end,
                       size_t size) {
  RunFileReader reader(file, begin, end);
  std::string out(size, '\0');
  reader.read(out.data(), size);
  EXPECT_TRUE(reader.at_end());
  return out;
}

TEST(RunFile, FramesReadBackPerPartition) {
  auto file = strata::testing::scratch_dir() / "frames.run";
  std::string small, large(200'000, '\0');  // larger than a 64 KB block, written at once
  for (int i = 0; i < 5000; ++i) small += "record " + std::to_string(i % 97) + ";";
  for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<char>(i * 7919 % 251);
  std::vector<uint64_t> offsets{0};
  {
    RunFileWriter writer(file);
    for (size_t i = 0; i < small.size(); i += 37)
      writer.write(std::string_view(small).substr(i, 37));
    offsets.push_back(writer.end_frame());
    offsets.push_back(writer.end_frame());  // an empty partition
    writer.write(large);
    offsets.push_back(writer.end_frame());
    writer.close();
  }
  EXPECT_EQ(read_frame(file, offsets[0], offsets[1], small.size()), small);
  EXPECT_EQ(read_frame(file, offsets[1], offsets[2], 0), "");
  EXPECT_EQ(read_frame(file, offsets[2], offsets[3], large.size()), large);
  RunFileReader past(file, offsets[1], offsets[2]);
  char byte;
  EXPECT_THROW(past.read(&byte, 1), std::runtime_error);
  RunFileReader truncated(file, offsets[2], offsets[3] - 10);
  EXPECT_THROW(truncated.read(large.data(), large.size()), std::runtime_error);
}

// Every (key, value) added comes back from merge_partition under its key, whatever the
// budget: records spread over arena areas, larger than a chunk or than the whole arena.
std::map<std::string, std::multiset<std::string>> grouped(uint64_t budget, KeyOrder order) {
  RunSet runs(strata::testing::scratch_dir() / "runs", "t", 2, order);
  std::filesystem::create_directories(strata::testing::scratch_dir() / "runs");
  SpillBuffer buffer(runs, budget);
  for (int i = 0; i < 3000; ++i)
    buffer.add("key" + std::to_string(i % 700),
               std::string(i % 500 == 0 ? 70000 : i % 50, static_cast<char>('a' + i % 26)));
  buffer.finish();
  struct Collect : GroupVisitor {
    std::map<std::string, std::multiset<std::string>> seen;
    std::string key;
    void begin(std::string_view k) override {
      key = k;
      EXPECT_FALSE(seen.count(key));  // each key once
    }
    void value(std::string_view v, bool) override { seen[key].emplace(v); }
    void end() override {}
  } collect;
  for (size_t p = 0; p < runs.partitions(); ++p) merge_partition(runs, p, collect);
  return collect.seen;
}

TEST(SpillBuffer, GivesBackEveryValueGroupedByKeyInMemoryOrSpilled) {
  auto in_memory = grouped(uint64_t{1} << 30, KeyOrder::hashed);
  EXPECT_EQ(in_memory.size(), 700u);
  EXPECT_EQ(grouped(20000, KeyOrder::hashed), in_memory);
  EXPECT_EQ(grouped(300000, KeyOrder::lexicographic), in_memory);
}

// Enough entries for radix passes within radix buckets, and one key with many values (a
// bucket of one rank): keys come back once each, in rank order, and a key's values in order
// of their first byte.
TEST(SpillBuffer, LargeBuffersComeBackInRankThenValueTagOrder) {
  RunSet runs(strata::testing::scratch_dir() / "runs", "r", 1, KeyOrder::hashed);
  SpillBuffer buffer(runs, uint64_t{1} << 30);
  const std::string tags = "rbsa";
  for (int i = 0; i < 200000; ++i)
    buffer.add("key" + std::to_string(i % 20000), std::string(1, tags[i / 20000 % 4]) + "v");
  for (int i = 0; i < 1000; ++i) buffer.add("hot", std::string(1, tags[i % 4]) + "v");
  buffer.finish();
  struct Check : GroupVisitor {
    const RunSet* runs;
    std::set<std::string> keys;
    uint64_t last_rank = 0;
    char last_tag = 0;
    size_t values = 0;
    void begin(std::string_view key) override {
      EXPECT_TRUE(keys.emplace(key).second);
      uint64_t rank = runs->place(key).rank;
      EXPECT_GE(rank, last_rank);
      last_rank = rank, last_tag = 0;
    }
    void value(std::string_view v, bool) override {
      EXPECT_GE(v[0], last_tag);
      last_tag = v[0], ++values;
    }
    void end() override {}
  } check;
  check.runs = &runs;
  merge_partition(runs, 0, check);
  EXPECT_EQ(check.keys.size(), 20001u);
  EXPECT_EQ(check.values, 201000u);
}

TEST(EncodedReference, InPlaceViewsTheCallersBytesAndCopiesOwnTheirs) {
  EncodedReference owned(
      testing::ref("(a,)/x.png", "http://a/x.png", "http://a/", "20080101000000", "alt text"));
  std::string bytes(owned.bytes());
  auto in_place = EncodedReference::in_place(bytes);
  EXPECT_EQ(in_place.bytes().data(), bytes.data());
  EXPECT_EQ(in_place.imgAlt, "alt text");
  EXPECT_EQ(in_place.imgAlt.data() - bytes.data(), owned.imgAlt.data() - owned.bytes().data());
  EncodedReference view_copy(in_place);
  EXPECT_EQ(view_copy.bytes().data(), bytes.data());
  EncodedReference owned_copy(owned);
  EXPECT_NE(owned_copy.bytes().data(), owned.bytes().data());
  EXPECT_EQ(owned_copy.bytes(), owned.bytes());
  EXPECT_EQ(owned_copy.pageUrl, "http://a/");
  EXPECT_THROW(EncodedReference::in_place(std::string_view(bytes).substr(0, 10)),
               std::runtime_error);
}

TEST(EncodedCapture, ViewsEveryFieldAndReencodesChangedViews) {
  ImageCapture capture = testing::capture("(a,)/x.png", "http://a/x.png", "20080101000000", "d1");
  capture.offset = 123, capture.width = 640, capture.warcDigest = "sha1:x", capture.inline_ = true;
  EncodedCapture encoded{Record(capture)};
  EXPECT_EQ(encoded.imgUrl, capture.imgUrl);
  EXPECT_EQ(encoded.digest, "d1");
  EXPECT_EQ(encoded.offset, 123u);
  EXPECT_EQ(encoded.width, 640);
  EXPECT_EQ(encoded.warcDigest, "sha1:x");
  EXPECT_TRUE(encoded.inline_);
  CaptureView changed = encoded;
  changed.timestamp = "20090101000000";
  EncodedCapture again = encode(changed);
  Record back;
  decode(again.bytes(), back);
  capture.timestamp = "20090101000000";
  EXPECT_EQ(std::get<ImageCapture>(back).timestamp, capture.timestamp);
  EXPECT_EQ(again.bytes(), EncodedCapture(Record(capture)).bytes());
  EXPECT_THROW(EncodedCapture::in_place(encoded.bytes().substr(0, 20)), std::runtime_error);
  std::string reference_bytes;
  encode(Record(testing::ref("(a,)/x.png", "http://a/x.png", "http://a/", "20080101000000", "")),
         reference_bytes);
  EXPECT_THROW(EncodedCapture{reference_bytes}, std::runtime_error);
}

TEST(EncodedRevisit, ViewsEveryField) {
  ImageRevisit revisit;
  revisit.imgSurt = "(a,)/x.png", revisit.timestamp = "20090101000000", revisit.length = 7;
  revisit.warcDigest = "sha1:x", revisit.refersToSurt = "(b,)/y.png", revisit.mimeReported = "m";
  EncodedRevisit encoded{Record(revisit)};
  EXPECT_EQ(encoded.imgSurt, revisit.imgSurt);
  EXPECT_EQ(encoded.timestamp, revisit.timestamp);
  EXPECT_EQ(encoded.length, 7u);
  EXPECT_EQ(encoded.warcDigest, "sha1:x");
  EXPECT_EQ(encoded.refersToSurt, "(b,)/y.png");
  EXPECT_EQ(encoded.mimeReported, "m");
  EXPECT_THROW(EncodedCapture{encoded.bytes()}, std::runtime_error);
}

TEST(Codec, ShortAndLongStringsRoundTrip) {
  std::string long_alt(300, 'a');  // a length above 254 takes a marker byte and a u32
  PageReference ref =
      testing::ref("(a,)/x.png", "http://a/x.png", "http://a/", "20080101000000", long_alt);
  ref.imgTitle = std::string(254, 't');
  std::string bytes;
  encode(Record(ref), bytes);
  Record back;
  decode(bytes, back);
  const auto& decoded = std::get<PageReference>(back);
  EXPECT_EQ(decoded.imgAlt, long_alt);
  EXPECT_EQ(decoded.imgTitle, ref.imgTitle);
  EXPECT_EQ(decoded.pageUrl, "http://a/");
  EXPECT_EQ(EncodedReference(bytes).imgAlt, long_alt);
  EXPECT_THROW(decode(std::string_view(bytes).substr(0, 40), back), std::runtime_error);
}

}  // namespace
}  // namespace strata::merge
