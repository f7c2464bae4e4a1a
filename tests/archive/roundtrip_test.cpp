// Round trips through the other containers the reader accepts: a real per-record gzip WARC is
// transcoded by the test into a zstd WARC (IIPC proposal: one frame per record, with and
// without a dictionary in a 0x184D2A5D skippable frame) and packed into a WACZ; reading
// either back must give the same records, digests and payloads as the original, and the
// offsets/lengths reported for them must locate each record again (read_record_at).
#define ZDICT_STATIC_LINKING_ONLY
#include <gtest/gtest.h>
#include <zdict.h>
#include <zip.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "core/digest.hpp"
#include "read_helpers.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

using test::read_all;
using test::Summary;

constexpr const char* kExample =
    "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz";

// The decoded bytes of the one gzip member `member`.
std::string gunzip(std::string_view member) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 31), Z_OK);
  std::string out;
  char buf[1 << 16];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(member.data()));
  z.avail_in = static_cast<uInt>(member.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  EXPECT_EQ(rc, Z_STREAM_END);
  EXPECT_EQ(z.avail_in, 0u) << "member has trailing bytes";
  inflateEnd(&z);
  return out;
}

void put_le32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

struct Frame {
  uint64_t offset = 0, length = 0;
};

struct ZstdWarc {
  std::string bytes;
  std::vector<Frame> frames;  // one per record, in order
};

enum class Dict { none, raw, compressed };

// One zstd frame per record; optionally a dictionary trained on the records, stored raw or
// zstd-compressed in a skippable frame 0x184D2A5D at the start of the file.
ZstdWarc to_zstd(const std::vector<std::string>& records, Dict dict_mode, int level = 3,
                 bool checksum = true) {
  ZstdWarc out;
  std::string dict;
  if (dict_mode != Dict::none) {
    std::string samples;
    std::vector<size_t> sizes;
    for (const auto& r : records) {  // the heads are what repeats; keeps training fast
      size_t n = std::min<size_t>(r.size(), 4096);
      samples.append(r, 0, n);
      sizes.push_back(n);
    }
    dict.resize(64 << 10);
    size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(), sizes.data(),
                                     static_cast<unsigned>(sizes.size()));
    EXPECT_FALSE(ZDICT_isError(n)) << ZDICT_getErrorName(n);
    dict.resize(n);
    std::string content = dict;
    if (dict_mode == Dict::compressed) {
      content.resize(ZSTD_compressBound(dict.size()));
      size_t c = ZSTD_compress(content.data(), content.size(), dict.data(), dict.size(), 19);
      EXPECT_FALSE(ZSTD_isError(c));
      content.resize(c);
    }
    put_le32(out.bytes, 0x184D2A5D);
    put_le32(out.bytes, static_cast<uint32_t>(content.size()));
    out.bytes += content;
  }
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  if (!dict.empty()) ZSTD_CCtx_loadDictionary(cctx, dict.data(), dict.size());
  for (const auto& r : records) {
    std::string frame(ZSTD_compressBound(r.size()), '\0');
    size_t n = ZSTD_compress2(cctx, frame.data(), frame.size(), r.data(), r.size());
    EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    frame.resize(n);
    out.frames.push_back({out.bytes.size(), frame.size()});
    out.bytes += frame;
  }
  ZSTD_freeCCtx(cctx);
  return out;
}

// The original file and each record's raw bytes (the decoded gzip member).
struct Original {
  std::filesystem::path path;
  Summary summary;
  std::vector<std::string> raw;
};

const Original& original() {
  static const Original data = [] {
    Original o;
    o.path = testing::shared_data(kExample);
    o.summary = read_all(o.path);
    std::string file = testing::read_file(o.path);
    for (const Record& r : o.summary.records)
      o.raw.push_back(gunzip(std::string_view(file).substr(r.offset, r.length)));
    return o;
  }();
  return data;
}

void expect_same_record(const Record& a, const Record& b, size_t i) {
  EXPECT_EQ(a.type, b.type) << i;
  EXPECT_EQ(a.type_name, b.type_name) << i;
  EXPECT_EQ(a.version, b.version) << i;
  EXPECT_EQ(a.target_uri, b.target_uri) << i;
  EXPECT_EQ(a.date, b.date) << i;
  EXPECT_EQ(a.date_raw, b.date_raw) << i;
  EXPECT_EQ(a.record_id, b.record_id) << i;
  EXPECT_EQ(a.content_type, b.content_type) << i;
  EXPECT_EQ(a.block_digest, b.block_digest) << i;
  EXPECT_EQ(a.payload_digest, b.payload_digest) << i;
  EXPECT_EQ(a.content_length, b.content_length) << i;
  EXPECT_EQ(a.headers, b.headers) << i;
  EXPECT_EQ(a.http.present, b.http.present) << i;
  EXPECT_EQ(a.http.status, b.http.status) << i;
  EXPECT_EQ(a.http.mime, b.http.mime) << i;
}

// Same records and payloads as the original, in the same order.
void expect_same_as_original(const Summary& s) {
  const Original& o = original();
  ASSERT_EQ(s.records.size(), o.summary.records.size());
  for (size_t i = 0; i < s.records.size(); ++i) {
    expect_same_record(s.records[i], o.summary.records[i], i);
    EXPECT_TRUE(s.payloads[i] == o.summary.payloads[i]) << "payload of record " << i;
  }
  for (const auto& p : s.problems) ADD_FAILURE() << to_string(p);
  EXPECT_TRUE(s.usable);
}

TEST(RoundTrip, OriginalIsPerRecordGzip) {
  STRATA_REQUIRE_SHARED();
  const Original& o = original();
  ASSERT_EQ(o.summary.records.size(), 822u);
  EXPECT_TRUE(o.summary.problems.empty());
  // The raw records are what the reader saw: head, Content-Length bytes, separator.
  for (size_t i = 0; i < o.raw.size(); ++i) {
    const Record& r = o.summary.records[i];
    ASSERT_TRUE(o.raw[i].starts_with("WARC/0.17\r\n")) << i;
    size_t head = o.raw[i].find("\r\n\r\n") + 4;
    EXPECT_EQ(o.raw[i].size(), head + r.content_length + 4) << i;
    EXPECT_TRUE(o.raw[i].ends_with("\r\n\r\n")) << i;
  }
}

class ZstdRoundTrip : public ::testing::TestWithParam<Dict> {};

TEST_P(ZstdRoundTrip, SameRecordsPayloadsAndLocations) {
  STRATA_REQUIRE_SHARED();
  const Original& o = original();
  ZstdWarc z = to_zstd(o.raw, GetParam());
  auto path = testing::scratch_dir() / "example.warc.zst";
  testing::write_file(path, z.bytes);
  Summary s = read_all(path);
  expect_same_as_original(s);
  ASSERT_EQ(s.records.size(), z.frames.size());
  for (size_t i = 0; i < s.records.size(); ++i) {
    EXPECT_EQ(s.records[i].file, path.string());
    EXPECT_EQ(s.records[i].offset, z.frames[i].offset) << i;
    EXPECT_EQ(s.records[i].length, z.frames[i].length) << i;
    EXPECT_EQ(s.records[i].decoded_offset, 0u) << i;
  }
  // Every record can be replayed from its offset alone (the dictionary is found at the start).
  ProblemLog problems;
  for (size_t i = 0; i < s.records.size(); ++i) {
    auto one = read_record_at(path.string(), s.records[i].offset, {}, problems.sink());
    ASSERT_TRUE(one) << i;
    expect_same_record(one->record(), o.summary.records[i], i);
    EXPECT_EQ(one->record().offset, z.frames[i].offset) << i;
    std::string payload;
    one->read_payload(payload);
    EXPECT_TRUE(payload == o.summary.payloads[i]) << "replayed payload of record " << i;
    one->finish_record();
    EXPECT_EQ(one->record().length, z.frames[i].length) << i;
    EXPECT_FALSE(one->next());
  }
  for (const auto& p : problems.kept()) ADD_FAILURE() << to_string(p);
}

INSTANTIATE_TEST_SUITE_P(Dictionaries, ZstdRoundTrip,
                         ::testing::Values(Dict::none, Dict::raw, Dict::compressed),
                         [](const auto& param_info) {
                           switch (param_info.param) {
                             case Dict::none:
                               return std::string("NoDictionary");
                             case Dict::raw:
                               return std::string("RawDictionary");
                             case Dict::compressed:
                               return std::string("CompressedDictionary");
                           }
                           return std::string();
                         });

TEST(ZstdRoundTrip, DictionaryShrinksTheFile) {
  STRATA_REQUIRE_SHARED();
  const Original& o = original();
  EXPECT_LT(to_zstd(o.raw, Dict::raw).bytes.size(), to_zstd(o.raw, Dict::none).bytes.size());
}

// A large, very compressible last record: the decoder holds the whole frame while its output
// is drained in steps, which must not be mistaken for a truncated frame.
TEST(ZstdRoundTrip, LargeRecordsAtTheEnd) {
  std::string big(3 << 20, 'a');
  for (size_t i = 0; i < big.size(); i += 4097) big[i] = static_cast<char>('a' + i % 26);
  std::vector<std::string> raw;
  std::vector<std::string> blocks = {"small", big, big.substr(0, 300000)};
  for (size_t i = 0; i < blocks.size(); ++i)
    raw.push_back("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://x/" +
                  std::to_string(i) + "\r\nContent-Length: " + std::to_string(blocks[i].size()) +
                  "\r\n\r\n" + blocks[i] + "\r\n\r\n");
  for (bool checksum : {true, false}) {  // without one, the frame ends with its last block
    ZstdWarc z = to_zstd(raw, Dict::none, 1, checksum);
    ProblemLog problems;
    auto reader = ArchiveReader::open_memory(z.bytes, "big.warc.zst", {}, problems.sink());
    size_t n = 0;
    while (reader->next()) {
      ASSERT_LT(n, blocks.size());
      std::string block;
      EXPECT_EQ(reader->read_block(block, 8 << 20), PayloadStatus::ok);
      EXPECT_TRUE(block == blocks[n]) << n;
      reader->finish_record();
      EXPECT_EQ(reader->record().offset, z.frames[n].offset);
      EXPECT_EQ(reader->record().length, z.frames[n].length);
      ++n;
    }
    EXPECT_EQ(n, blocks.size());
    for (const auto& p : problems.kept()) ADD_FAILURE() << to_string(p);
  }
}

// WACZ 1.1: archive/data.warc.gz, datapackage.json, indexes/index.cdx, pages/pages.jsonl.
void write_wacz(const std::filesystem::path& path,
                const std::vector<std::pair<std::string, std::string>>& entries,
                bool deflate_archives) {
  testing::write_zip(path, entries, deflate_archives);
}

std::vector<std::pair<std::string, std::string>> wacz_entries(const std::string& warc) {
  const Original& o = original();
  std::string cdx = " CDX N b a m s k r M S V g\n";
  std::string pages;
  for (const Record& r : o.summary.records) {
    if (r.type != RecordType::response) continue;
    cdx += r.target_uri + " " + r.date + " " + r.target_uri + " " +
           (r.http.mime.empty() ? "-" : r.http.mime) + " " + std::to_string(r.http.status) + " " +
           (r.payload_digest.empty() ? "-" : r.payload_digest.substr(5)) + " - - " +
           std::to_string(r.length) + " " + std::to_string(r.offset) + " data.warc.gz\n";
    if (r.http.mime == "text/html" && pages.size() < 4096)
      pages += "{\"url\": \"" + r.target_uri + "\", \"ts\": \"" + r.date_raw + "\"}\n";
  }
  std::string datapackage =
      "{\n  \"profile\": \"data-package\",\n  \"wacz_version\": \"1.1.1\",\n"
      "  \"resources\": [\n    {\"name\": \"data.warc.gz\", \"path\": \"archive/data.warc.gz\", "
      "\"bytes\": " +
      std::to_string(warc.size()) + "}\n  ]\n}\n";
  return {{"datapackage.json", datapackage},
          {"pages/pages.jsonl", "{\"format\": \"json-pages-1.0\", \"id\": \"pages\"}\n" + pages},
          {"indexes/index.cdx", cdx},
          {"archive/data.warc.gz", warc}};
}

class WaczRoundTrip : public ::testing::TestWithParam<bool> {};

TEST_P(WaczRoundTrip, SameRecordsPayloadsAndLocations) {
  STRATA_REQUIRE_SHARED();
  const Original& o = original();
  bool deflated = GetParam();
  auto path = testing::scratch_dir() / "example.wacz";
  write_wacz(path, wacz_entries(testing::read_file(o.path)), deflated);
  Summary s = read_all(path);
  expect_same_as_original(s);
  std::string file = path.string() + "#archive/data.warc.gz";
  for (size_t i = 0; i < s.records.size(); ++i) {
    EXPECT_EQ(s.records[i].file, file) << i;
    EXPECT_EQ(s.records[i].offset, o.summary.records[i].offset) << i;
    EXPECT_EQ(s.records[i].length, o.summary.records[i].length) << i;
  }
  ProblemLog problems;
  size_t step = deflated ? 37 : 1;  // deflated entries replay by reading up to the offset
  for (size_t i = 0; i < s.records.size(); i += step) {
    auto one = read_record_at(file, s.records[i].offset, {}, problems.sink());
    ASSERT_TRUE(one) << i;
    expect_same_record(one->record(), o.summary.records[i], i);
    std::string payload;
    one->read_payload(payload);
    EXPECT_TRUE(payload == o.summary.payloads[i]) << "replayed payload of record " << i;
  }
  for (const auto& p : problems.kept()) ADD_FAILURE() << to_string(p);
}

INSTANTIATE_TEST_SUITE_P(Entries, WaczRoundTrip, ::testing::Values(false, true),
                         [](const auto& param_info) {
                           return std::string(param_info.param ? "Deflated" : "Stored");
                         });

TEST(WaczRoundTrip, ZstdEntryBesideGzipEntry) {
  STRATA_REQUIRE_SHARED();
  const Original& o = original();
  ZstdWarc z = to_zstd(o.raw, Dict::raw);
  auto entries = wacz_entries(testing::read_file(o.path));
  entries.emplace_back("archive/data2.warc.zst", z.bytes);
  auto path = testing::scratch_dir() / "two.wacz";
  write_wacz(path, entries, false);
  Summary s = read_all(path);
  for (const auto& p : s.problems) ADD_FAILURE() << to_string(p);
  size_t n = o.summary.records.size();
  ASSERT_EQ(s.records.size(), 2 * n);
  std::string zst_file = path.string() + "#archive/data2.warc.zst";
  for (size_t i = 0; i < n; ++i) {
    const Record& r = s.records[n + i];
    expect_same_record(r, o.summary.records[i], i);
    EXPECT_TRUE(s.payloads[n + i] == o.summary.payloads[i]) << i;
    EXPECT_EQ(r.file, zst_file);
    EXPECT_EQ(r.offset, z.frames[i].offset);
    EXPECT_EQ(r.length, z.frames[i].length);
  }
  ProblemLog problems;
  for (size_t i = 0; i < n; i += 41) {
    auto one = read_record_at(zst_file, z.frames[i].offset, {}, problems.sink());
    ASSERT_TRUE(one) << i;
    EXPECT_EQ(one->record().record_id, o.summary.records[i].record_id);
    std::string payload;
    one->read_payload(payload);
    EXPECT_TRUE(payload == o.summary.payloads[i]) << i;
  }
  for (const auto& p : problems.kept()) ADD_FAILURE() << to_string(p);
}

}  // namespace
}  // namespace strata::archive
