// The Hadoop Streaming steps of the cover (cover/streaming.hpp), run in process with a sort
// between jobs as Hadoop's shuffle: on every family of the generated cover world, the lines
// equal the single-machine cover's (the `strata cover --out` lines) and keep the proven optimum.
#include "cover/streaming.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "cover/documents.hpp"
#include "sample/cover_world.hpp"
#include "testing/shared_data.hpp"

namespace strata::cover {
namespace {

std::string sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string step(StreamingStage stage, const Expr& e, const StreamingOptions& o,
                 const std::string& input, Counters* counters = nullptr) {
  std::istringstream in(input);
  std::ostringstream out;
  const Counters c = run_streaming(stage, e, o, in, out);
  if (counters) *counters = c;
  return out.str();
}

// The three jobs, with LC_ALL=C sort between them; the values of reduce3's lines.
std::string streamed(const Expr& e, const StreamingOptions& o, const std::string& documents,
                     Counters& last) {
  std::string x = step(StreamingStage::map, e, o, documents);
  x = step(StreamingStage::reduce, e, o, sorted_lines(x));
  x = step(StreamingStage::reduce2, e, o, sorted_lines(step(StreamingStage::map2, e, o, x)));
  x = step(StreamingStage::reduce3, e, o, sorted_lines(step(StreamingStage::map3, e, o, x)), &last);
  std::string values;
  std::istringstream in(x);
  for (std::string line; std::getline(in, line);) values += line.substr(line.find('\t') + 1) + "\n";
  return sorted_lines(values);
}

// What `strata cover --docs --out` writes: items in id order, one line each.
std::string single_machine(const Expr& e, const sample::CoverFamily& f) {
  const Uses uses = attributes_used(e);
  std::map<std::string, uint64_t> phash(f.phashes.begin(), f.phashes.end());
  std::vector<Item> items;
  for (const auto& doc : f.documents) {  // sorted by id
    index::Moderation m;
    if (auto it = phash.find(doc.imgDigest); it != phash.end()) m.phash = it->second;
    items.push_back(item_from_document(doc, m, uses));
  }
  const CoverResult r = compute_cover(e, items);
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += cover_line(f.documents[i].id, f.documents[r.keeper[i]].id, r.covers[i],
                      f.documents[r.component[i]].id) +
           "\n";
  return sorted_lines(out);
}

TEST(CoverStreaming, EqualsTheSingleMachineCoverOnEveryGeneratedFamily) {
  const auto dir = testing::scratch_dir() / "cover-streaming";
  std::filesystem::create_directories(dir);
  for (const auto& f : sample::build_cover_world(77, 40)) {
    SCOPED_TRACE(f.name + ": " + f.expression);
    const ExprPtr e = parse(f.expression);
    std::string documents;
    for (const auto& d : f.documents) documents += merge::to_json(d).dump() + "\n";
    StreamingOptions o;
    o.analysis = (dir / (f.name + ".analysis.jsonl")).string();
    {
      std::ofstream a(o.analysis);
      for (const auto& [digest, h] : f.phashes) {
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
        a << Json{{"digest", digest}, {"status", "ok"}, {"phash", hex}}.dump() << "\n";
      }
    }
    Counters counters;
    const std::string lines = streamed(*e, o, documents, counters);
    EXPECT_EQ(lines, single_machine(*e, f));
    EXPECT_EQ(static_cast<size_t>(counters.get("kept")), f.optimum);
    EXPECT_EQ(counters.get("components_greedy"), 0);
  }
}

TEST(CoverStreaming, BadLinesAreCountedAndUnblockableBlocksKeepToTheBudget) {
  const ExprPtr e = parse("newer");
  StreamingOptions o;
  Counters c;
  const std::string mapped =
      step(StreamingStage::map, *e, o,
           "not json\n{\"type\":\"document\",\"id\":\"a\",\"imgDigest\":\"a\","
           "\"imgCrawlTimestamp\":\"20010101000000\"}\n",
           &c);
  EXPECT_EQ(c.get("lines_not_documents"), 1);
  EXPECT_EQ(c.get("documents"), 1);
  EXPECT_EQ(mapped.substr(0, 2), "*\t");
  std::string block;
  for (int k = 0; k < 30; ++k)
    block += "*\t{\"d\":{\"type\":\"document\",\"id\":\"d" + std::to_string(k) +
             "\",\"imgDigest\":\"d" + std::to_string(k) + "\"}}\n";
  o.cover.pair_budget = 100;  // 435 pairs
  EXPECT_THROW(step(StreamingStage::reduce, *e, o, block), CoverError);
  StreamingStage stage;
  EXPECT_FALSE(parse_streaming_stage("reduce4", stage));
  EXPECT_TRUE(parse_streaming_stage("reduce3", stage));
}

// Pages, job 0: references keyed by their record, bad lines counted; a page whose archive is
// gone goes on without text (counted), so job 1 tests it on its other attributes only.
TEST(CoverStreaming, PageJobZeroKeysPagesByRecordAndCountsWhatItSkips) {
  const ExprPtr e = parse("pageversions");
  StreamingOptions o;
  o.pages = true;
  Counters c;
  const std::string ref =
      R"({"type":"ref","file":"/nonexistent/a.warc.gz","offset":42,"pageUrl":"http://x.example/p",)"
      R"("pageTimestamp":"20010101000000","pageHost":"x.example","length":7})";
  const std::string mapped =
      step(StreamingStage::map0, *e, o,
           "not json\n" + ref + "\n" + ref +
               "\n{\"type\":\"ref\",\"offset\":1}\n{\"type\":\"document\"}\n",
           &c);
  EXPECT_EQ(c.get("lines_not_json"), 1);
  EXPECT_EQ(c.get("references_without_page"), 1);
  EXPECT_EQ(c.get("references"), 2);
  EXPECT_EQ(mapped.substr(0, mapped.find('\t')), "/nonexistent/a.warc.gz@42");
  Counters c0;
  const std::string blocks = step(StreamingStage::reduce0, *e, o, mapped, &c0);
  EXPECT_EQ(c0.get("pages"), 1);
  EXPECT_EQ(c0.get("pages_without_text"), 1);
  ASSERT_EQ(std::count(blocks.begin(), blocks.end(), '\n'), 1);  // one page, one block: its url
  EXPECT_EQ(blocks.find("\"t\""), std::string::npos);
  const std::string edges = step(StreamingStage::reduce, *e, o, blocks + "bad\n");
  EXPECT_EQ(edges, "20010101000000/http://x.example/p\t20010101000000/http://x.example/p\n");
}

}  // namespace
}  // namespace strata::cover
