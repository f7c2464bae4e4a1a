#include "core/table.hpp"

#include <gtest/gtest.h>

#include "core/counters.hpp"
#include "core/problems.hpp"
#include "core/report.hpp"

namespace strata {
namespace {

TEST(Table, AlignsFirstColumnLeftAndOthersRight) {
  Table table({"stage", "count"});
  table.add_row({"records", "81,440"});
  table.add_row({"images analysed", "7"});
  EXPECT_EQ(table.render("  "),
            "  stage             count\n"
            "  records          81,440\n"
            "  images analysed       7\n");
}

TEST(Table, CountsUtf8CharactersNotBytes) {
  Table table;
  table.add_row({"caf\xc3\xa9", "1"});
  table.add_row({"cafe!", "22"});
  EXPECT_EQ(table.render(), "caf\xc3\xa9    1\ncafe!  22\n");
}

TEST(Table, FormatsCountsAndNumbers) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(81440), "81,440");
  EXPECT_EQ(format_count(-1234567), "-1,234,567");
  EXPECT_EQ(format_number(100.0), "100");
  EXPECT_EQ(format_number(0.42137), "0.421");
  EXPECT_EQ(format_number(12.345), "12.3");
  EXPECT_EQ(format_number(-45.67), "-45.7");
  EXPECT_EQ(format_number(1234.56), "1234.6");
}

TEST(Counters, TextIsAnAlignedTable) {
  Counters c;
  c.add("records", 81440);
  c.add("images_found", 7);
  EXPECT_EQ(c.to_text(), "  images_found       7\n  records       81,440\n");
}

TEST(Report, SectionsTablesAndLists) {
  const Json report = {
      {"collection", "crawl-2008"},
      {"archives", 16},
      {"summary", {{"records read", 81440}, {"share", 0.4213}, {"skipped", nullptr}}},
      {"rows", Json::array({{{"stage", "a"}, {"count", 5}}, {{"stage", "bb"}, {"count", 1234}}})},
      {"first", Json::array({"a.warc:10: bad_header"})},
      {"empty", Json::object()}};
  EXPECT_EQ(report_text(report),
            "collection  crawl-2008\n"
            "archives            16\n"
            "summary:\n"
            "  records read  81,440\n"
            "  share          0.421\n"
            "  skipped            -\n"
            "rows:\n"
            "  stage  count\n"
            "  a          5\n"
            "  bb     1,234\n"
            "first:\n"
            "  a.warc:10: bad_header\n"
            "empty: -\n");
}

TEST(Report, ProblemsAsASection) {
  ProblemLog log;
  log.report({"a.warc", 10, "bad_header", "x"});
  log.report({"b.arc", 20, "truncated", ""});
  const Json problems = problems_json(log, 1);
  EXPECT_EQ(problems["total"], 2);
  EXPECT_EQ(problems["by_kind"]["bad_header"], 1);
  EXPECT_EQ(problems["first"], Json::array({"a.warc:10: bad_header: x"}));
  EXPECT_EQ(problems["more"], 1);
  EXPECT_EQ(problems_json(ProblemLog())["total"], 0);
  EXPECT_NE(problem_report(log).find("a.warc:10: bad_header: x"), std::string::npos);
}

}  // namespace
}  // namespace strata
