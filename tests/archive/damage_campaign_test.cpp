// The damaged-archive campaign: seeded damage (testing/archive_damage.hpp) to real files from
// ../shared, each variant read back. Every record of the undamaged file whose bytes the
// damage did not touch must come back at its new offset with the same URI and payload, and
// every damage must be reported. Prints a summary; passes at >= 99 % of variants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "archive/reader.hpp"
#include "testing/archive_damage.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

using testing::DamageKind;

struct RecordTruth {
  testing::RecordSpan span;
  std::string uri;
  size_t payload_hash = 0;
};

struct Reading {
  std::vector<RecordTruth> records;
  size_t problems = 0;
  int64_t problems_counted = 0;  // the reader's "problems" counter
};

Reading read_memory(const std::string& bytes, const std::string& name) {
  Reading out;
  ProblemSink sink = [&out](const Problem&) { ++out.problems; };
  auto reader = ArchiveReader::open_memory(bytes, name, {}, sink);
  std::string payload;
  while (reader->next()) {
    reader->read_payload(payload);
    reader->finish_record();
    const Record& r = reader->record();
    out.records.push_back({{r.offset, r.length}, r.target_uri, std::hash<std::string>()(payload)});
  }
  out.problems_counted = reader->counters().get("problems");
  return out;
}

struct Source {
  std::string name;
  std::string bytes;
  bool arc = false;
  int variants = 0;
  std::vector<RecordTruth> truth;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool is_gzip(const std::string& bytes) {
  return bytes.size() > 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b';
}

struct Tally {
  int variants = 0, failing = 0, unreported = 0, invisible = 0;
  size_t expected = 0, recovered = 0;
  std::map<std::string, int> failing_by_kind;
  std::vector<std::string> failures;  // the first few, in detail
};

bool same_records(const std::vector<RecordTruth>& got, const std::vector<RecordTruth>& want) {
  return std::equal(got.begin(), got.end(), want.begin(), want.end(),
                    [](const auto& a, const auto& b) {
                      return a.uri == b.uri && a.payload_hash == b.payload_hash;
                    });
}

// One variant: damages `src` with `kind` and checks what comes back.
void run_variant(const Source& src, DamageKind kind, uint64_t seed, Tally& tally) {
  std::mt19937_64 rng(seed);
  std::vector<testing::RecordSpan> spans;
  for (const auto& r : src.truth) spans.push_back(r.span);
  testing::ArchiveLayout layout{src.bytes, is_gzip(src.bytes), src.arc, spans};
  auto damage = testing::make_damage(layout, kind, rng);
  if (!damage) return;
  Reading got = read_memory(damage->apply(src.bytes), src.name);
  std::multimap<uint64_t, const RecordTruth*> by_offset;
  for (const auto& r : got.records) by_offset.emplace(r.span.offset, &r);
  ++tally.variants;
  EXPECT_EQ(got.problems_counted, static_cast<int64_t>(got.problems))
      << src.name << " seed " << seed;
  int missing = 0;
  std::string first_missing;
  for (const auto& want : src.truth) {
    auto at = damage->moved(want.span);
    if (!at) continue;
    ++tally.expected;
    bool found = false;
    for (auto [it, end] = by_offset.equal_range(*at); it != end && !found; ++it)
      found = it->second->uri == want.uri && it->second->payload_hash == want.payload_hash;
    tally.recovered += found;
    if (!found && missing++ == 0) first_missing = want.uri + " at " + std::to_string(*at);
  }
  // Damage that changes nothing a reader returns (a CR/LF less at a block's end, a header
  // value other than the URI altered) cannot be seen without digests and needs no report.
  bool invisible = same_records(got.records, src.truth);
  tally.invisible += got.problems == 0 && invisible;
  tally.unreported += got.problems == 0 && !invisible;
  if (missing == 0 && (got.problems > 0 || invisible)) return;
  ++tally.failing;
  ++tally.failing_by_kind[std::string(to_string(kind))];
  if (tally.failures.size() < 20) {
    std::ostringstream line;
    line << src.name << " seed " << seed << " " << to_string(kind) << " [" << damage->begin << ","
         << damage->end << ")+" << damage->replacement.size() << ": " << missing << " missing ("
         << first_missing << "), " << got.problems << " problems";
    tally.failures.push_back(line.str());
  }
}

std::vector<Source> campaign_sources() {
  struct File {
    const char* path;
    int variants;
  };
  const File files[] = {
      {"archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz", 50},
      {"archives/archivesunleashed__aut/src/test/resources/arc/example.arc.gz", 40},
      {"archives/webrecorder__replayweb.page/mkdocs/site/docs/examples/netpreserve-twitter.warc",
       30},
      {"archives/archivesunleashed__aut/src/test/resources/warc/issue-493.warc", 30},
      {"archives/webrecorder__pywb/sample_archive/warcs/iana.warc.gz", 30},
      {"archives/iipc__webarchive-commons/src/test/resources/org/archive/format/warc/"
       "IAH-urls-wget.warc",
       20},
      {"archives/internetarchive__CDX-Writer/tests/small_warcs/uncompressed.arc", 10},
  };
  std::vector<Source> sources;
  for (const File& f : files) {
    std::filesystem::path path = testing::shared_data(f.path);
    std::string name = path.filename().string();
    sources.push_back({name, slurp(path), name.find(".arc") != std::string::npos, f.variants, {}});
  }
  // aut's two gzip files decompressed: plain WARC 0.17 and plain ARC with 300 records.
  sources.push_back({"example.warc", testing::gunzip_all(sources[0].bytes), false, 30, {}});
  sources.push_back({"example.arc", testing::gunzip_all(sources[1].bytes), true, 30, {}});
  return sources;
}

TEST(DamageCampaign, RecordsOutsideTheDamageAreRecovered) {
  STRATA_REQUIRE_SHARED();
  std::vector<Source> sources = campaign_sources();
  Tally tally;
  uint64_t seed = 19;
  for (Source& src : sources) {
    ASSERT_FALSE(src.bytes.empty()) << src.name;
    Reading clean = read_memory(src.bytes, src.name);
    ASSERT_EQ(clean.problems, 0u) << src.name << " must read cleanly undamaged";
    src.truth = std::move(clean.records);
    for (int i = 0, made = 0; made < src.variants && i < 4 * src.variants; ++i) {
      DamageKind kind = testing::kAllDamageKinds[i % std::size(testing::kAllDamageKinds)];
      int before = tally.variants;
      run_variant(src, kind, ++seed, tally);
      made += tally.variants - before;
    }
  }
  std::printf(
      "damage campaign: %d variants, %zu records expected, %zu recovered, %d variants failing, "
      "%d unreported, %d with damage invisible to a reader\n",
      tally.variants, tally.expected, tally.recovered, tally.failing, tally.unreported,
      tally.invisible);
  for (const auto& [kind, n] : tally.failing_by_kind)
    std::printf("  failing %s: %d\n", kind.c_str(), n);
  for (const auto& line : tally.failures) std::printf("  %s\n", line.c_str());
  EXPECT_GE(tally.variants, 200);
  EXPECT_LE(tally.failing * 100, tally.variants)
      << "fewer than 99 % of variants fully recovered and reported";
}

}  // namespace
}  // namespace strata::archive
