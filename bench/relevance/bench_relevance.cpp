// bench_relevance --index DIR [--queries FILE] [--layout FILE] [--per-query [--urls]]
//                 [--no-collapse]
// Runs every judged query (bench/relevance/queries.jsonl) on an index of the real crawls
// (bench/relevance/run builds it) twice in the same run: Strata's ranking and Arquivo's
// formula (the baseline; Strata's results near-duplicate-collapsed, as served, Arquivo's
// not), and reports P@5, P@10, nDCG@10, repeated pictures and judged
// decorative images in the top 10s, and the queries answering no judged image, per query set
// (tune, heldout, all). docs/BENCHMARKS.md, "Relevance".
#include <CLI/CLI.hpp>

#include <cstdio>
#include <map>

#include "judged.hpp"
#include "scores.hpp"
#include "search/searcher.hpp"

using namespace strata;
using namespace strata::bench;

namespace {

struct Config {
  std::string index;
  std::string queries = "bench/relevance/queries.jsonl";
  std::string layout = "bench/relevance/layout.jsonl";
  bool per_query = false;
  bool urls = false;         // with --per-query: each hit's image URL on a line of its own
  bool no_collapse = false;  // Strata's ranking without its near-duplicate collapse
  bool fail_on_repeats = false;
};

std::vector<search::Hit> top10(Xapian::Database& db, const std::string& q, search::Ranking r,
                               bool collapse) {
  search::SearchRequest request;
  request.q = q;
  request.safe = false;  // relevance, not moderation: the kit indexes without the classifier
  request.max_items = 10;
  request.years_facet = false;
  request.ranking = r;
  request.collapse = collapse;
  return search::search(db, request).hits;
}

const char* name(search::Ranking r) {
  return r == search::Ranking::strata ? "strata" : "arquivo";
}

void print_scores(const std::string& set, search::Ranking r, const Scores& sum) {
  const Scores s = sum.averaged();
  std::printf("%-8s %-8s %3zu  %6.3f %6.3f %8.3f %9zu %7zu (%zu q) %11zu\n", set.c_str(), name(r),
              s.queries, s.p5, s.p10, s.ndcg10, s.repeated, s.layout, s.layout_queries,
              s.unanswered);
  for (const auto& q : s.unanswered_queries)
    std::printf("    answers no judged image: %s\n", q.c_str());
}

int grade_of(const JudgedQuery& q, const search::Hit& h) {
  auto it = q.grade.find(h.doc.imgUrl);
  return it == q.grade.end() ? 0 : it->second;
}

void print_query(const JudgedQuery& q, search::Ranking r, const std::vector<search::Hit>& hits,
                 bool urls) {
  std::printf("%s [%s] %s:", name(r), q.set.c_str(), q.query.c_str());
  for (const auto& h : hits) std::printf(" %d(%.1f)", grade_of(q, h), h.score);
  std::printf("\n");
  if (!urls) return;
  for (const auto& h : hits) std::printf("    %d %s\n", grade_of(q, h), h.doc.imgUrl.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  CLI::App app{"Ranking quality on judged queries over real crawls, Strata vs Arquivo's formula"};
  app.add_option("--index", c.index, "index of bench/relevance/archives.txt")->required();
  app.add_option("--queries", c.queries, "judged queries (JSONL)");
  app.add_option("--layout", c.layout, "images judged decorative (JSONL)");
  app.add_flag("--per-query", c.per_query, "print each query's grades (scores) in ranked order");
  app.add_flag("--urls", c.urls, "with --per-query, each hit's image URL");
  app.add_flag("--no-collapse", c.no_collapse, "Strata's ranking without near-duplicate collapse");
  app.add_flag("--fail-on-repeats", c.fail_on_repeats,
               "exit 3 when Strata's top 10 of a query shows a picture twice (issue 21)");
  CLI11_PARSE(app, argc, argv);
  try {
    Xapian::Database db(c.index);
    const auto queries = read_queries(c.queries);
    const auto layout = read_layout(c.layout);
    std::map<std::pair<std::string, search::Ranking>, Scores> sums;
    for (search::Ranking r : {search::Ranking::arquivo, search::Ranking::strata}) {
      for (const JudgedQuery& q : queries) {
        // Strata collapses near-duplicates by default; Arquivo, the baseline, shows every image.
        const auto hits = top10(db, q.query, r, r == search::Ranking::strata && !c.no_collapse);
        if (c.per_query) print_query(q, r, hits, c.urls);
        sums[{q.set, r}].add(q, hits, layout);
        sums[{"all", r}].add(q, hits, layout);
      }
    }
    std::printf("%-8s %-8s %3s  %6s %6s %8s %9s %12s %11s\n", "set", "ranking", "n", "P@5", "P@10",
                "nDCG@10", "repeated", "decorative", "unanswered");
    for (const auto& [key, sum] : sums) print_scores(key.first, key.second, sum);
    if (c.fail_on_repeats && sums[{"all", search::Ranking::strata}].repeated > 0) {
      std::printf("FAILED: a picture shown twice in Strata's top 10\n");
      return 3;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_relevance: %s\n", e.what());
    return 1;
  }
  return 0;
}
