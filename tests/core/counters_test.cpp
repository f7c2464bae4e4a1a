#include "core/counters.hpp"
#include "core/inputs.hpp"
#include "core/problems.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "testing/shared_data.hpp"

namespace strata {
namespace {

TEST(Counters, MergeAddsUp) {
  Counters a, b;
  a.add("records", 3);
  b.add("records", 2);
  b.add("failed");
  a.merge(b);
  EXPECT_EQ(a.get("records"), 5);
  EXPECT_EQ(a.get("failed"), 1);
  EXPECT_EQ(a.get("absent"), 0);
  EXPECT_EQ(a.to_json().dump(), R"({"failed":1,"records":5})");
}

TEST(ProblemLog, CountsByKindAndKeepsFirst) {
  ProblemLog log(1);
  auto sink = log.sink();
  sink({"a.warc", 10, "bad_header", "x"});
  sink({"a.warc", 20, "bad_header", "y"});
  EXPECT_EQ(log.total(), 2u);
  EXPECT_EQ(log.by_kind().get("bad_header"), 2);
  ASSERT_EQ(log.kept().size(), 1u);
  EXPECT_EQ(to_string(log.kept()[0]), "a.warc:10: bad_header: x");
}

TEST(Inputs, FilesDirectoriesAndListFiles) {
  auto dir = testing::scratch_dir();
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "a.warc.gz") << "x";
  std::ofstream(dir / "b.arc") << "x";
  std::ofstream(dir / "notes.txt") << "x";
  std::ofstream(dir / "list") << (dir / "b.arc").string() << "\n# comment\n";
  ProblemLog problems;
  auto found = expand_inputs({dir.string()}, problems.sink());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].filename(), "b.arc");
  EXPECT_EQ(found[1].filename(), "a.warc.gz");
  auto listed = expand_inputs({"@" + (dir / "list").string(), (dir / "missing.warc").string()},
                              problems.sink());
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(problems.by_kind().get("input_missing"), 1);
}

}  // namespace
}  // namespace strata
