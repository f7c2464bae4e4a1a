#include "cover/cover.hpp"
#include "cover/item_texts.hpp"
#include "cover/spill_sort.hpp"
#include "cover_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <random>

namespace strata::cover {
namespace {

using Lists = std::vector<std::vector<uint32_t>>;

// The minimum cover by trying every subset (n <= 16).
size_t brute_force_minimum(const Lists& covered_by) {
  const size_t n = covered_by.size();
  std::vector<uint32_t> mask_of(n, 0);  // items covering a, as a mask
  for (size_t a = 0; a < n; ++a)
    for (uint32_t b : covered_by[a]) mask_of[a] |= 1u << b;
  size_t best = n;
  for (uint32_t s = 1; s < (1u << n); ++s) {
    if (static_cast<size_t>(std::popcount(s)) >= best) continue;
    bool ok = true;
    for (size_t a = 0; a < n && ok; ++a) ok = (mask_of[a] & s) != 0;
    if (ok) best = std::popcount(s);
  }
  return best;
}

Lists random_graph(std::mt19937_64& rng, size_t n, double p) {
  std::bernoulli_distribution edge(p);
  Lists covered_by(n);
  for (uint32_t a = 0; a < n; ++a) {
    covered_by[a].push_back(a);
    for (uint32_t b = 0; b < n; ++b)
      if (a != b && edge(rng)) covered_by[a].push_back(b);
  }
  return covered_by;
}

bool is_cover(const Lists& covered_by, const std::vector<uint32_t>& chosen) {
  for (const auto& list : covered_by)
    if (std::none_of(list.begin(), list.end(), [&](uint32_t b) {
          return std::binary_search(chosen.begin(), chosen.end(), b);
        }))
      return false;
  return true;
}

TEST(CoverSolver, ExactEqualsBruteForceOnRandomComponents) {
  std::mt19937_64 rng(24);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 2 + trial % 14;
    const Lists g = random_graph(rng, n, 0.05 + 0.3 * (trial % 5) / 4.0);
    const ComponentCover c = solve_component(g, 1'000'000);
    ASSERT_TRUE(c.exact);
    ASSERT_TRUE(is_cover(g, c.chosen));
    ASSERT_EQ(c.chosen.size(), brute_force_minimum(g)) << "trial " << trial;
    ASSERT_LE(c.lower_bound, c.chosen.size());
  }
}

TEST(CoverSolver, GreedyStaysWithinItsBoundOnLargeComponents) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const Lists g = random_graph(rng, 300, 0.02);
    const ComponentCover c = solve_component(g, 1000);
    ASSERT_TRUE(is_cover(g, c.chosen));
    ASSERT_GE(c.chosen.size(), c.lower_bound);
    size_t most = 0;
    std::vector<size_t> covers(g.size(), 0);
    for (const auto& list : g)
      for (uint32_t b : list) most = std::max(most, ++covers[b]);
    double h = 0;
    for (size_t k = 1; k <= most; ++k) h += 1.0 / static_cast<double>(k);
    // The optimum is at least the lower bound, so this checks greedy <= H(Δ) * OPT.
    ASSERT_LE(static_cast<double>(c.chosen.size()), h * static_cast<double>(c.lower_bound) + 1e-9);
  }
}

// Disjoint random components of 8-14 items (each solved by trying every subset), side by side:
// more than kExactLimit items in all, with a known optimum.
Lists union_of_small_graphs(std::mt19937_64& rng, size_t parts, size_t& optimum) {
  Lists all;
  optimum = 0;
  for (size_t p = 0; p < parts; ++p) {
    const Lists g = random_graph(rng, 8 + rng() % 7, 0.15 + 0.1 * static_cast<double>(p % 3));
    optimum += brute_force_minimum(g);
    const auto offset = static_cast<uint32_t>(all.size());
    for (const auto& list : g) {
      all.emplace_back();
      for (uint32_t b : list) all.back().push_back(b + offset);
    }
  }
  return all;
}

// Odd cycles where each item covers the next: the packing bound (2 per 5-cycle) stays below
// the optimum (3), so only a search proves it.
Lists five_cycles(size_t cycles) {
  Lists g;
  for (uint32_t c = 0; c < cycles; ++c)
    for (uint32_t k = 0; k < 5; ++k) g.push_back({c * 5 + k, c * 5 + (k + 4) % 5});
  return g;
}

TEST(CoverSolver, IntegerProgramProvesOptimaAboveTheBitMaskLimit) {
  const Lists cycles = five_cycles(20);  // 100 items, optimum 60, packing bound 40
  const ComponentCover greedy_only = solve_component(cycles, 100'000, 0);
  EXPECT_FALSE(greedy_only.exact);
  EXPECT_EQ(greedy_only.solver, Solver::greedy);
  EXPECT_FALSE(greedy_only.ilp_fallback);
  const ComponentCover c = solve_component(cycles, 100'000, 10'000);
  ASSERT_TRUE(c.exact);
  EXPECT_EQ(c.solver, Solver::ilp);
  EXPECT_EQ(c.chosen.size(), 60u);
  EXPECT_TRUE(is_cover(cycles, c.chosen));
  std::mt19937_64 rng(64);
  for (int trial = 0; trial < 10; ++trial) {
    size_t optimum = 0;
    const Lists g = union_of_small_graphs(rng, 8, optimum);
    ASSERT_GT(g.size(), kExactLimit);
    const ComponentCover u = solve_component(g, 100'000, 10'000);
    ASSERT_TRUE(u.exact) << "trial " << trial;
    ASSERT_TRUE(is_cover(g, u.chosen));
    ASSERT_EQ(u.chosen.size(), optimum) << "trial " << trial;
  }
}

TEST(CoverSolver, IntegerProgramOutOfTimeFallsBackToGreedyAndSaysSo) {
  // A large hard instance and 1 ms: GLPK stops, the greedy cover (or a better one found) stays.
  std::mt19937_64 rng(3);
  const Lists g = random_graph(rng, 1500, 0.004);
  const ComponentCover c = solve_component(g, 1000, 1);
  ASSERT_TRUE(is_cover(g, c.chosen));
  if (!c.exact) {
    EXPECT_EQ(c.solver, Solver::greedy);
    EXPECT_TRUE(c.ilp_fallback);
  }
}

// Generated collections with known optima: URLs with versions, pHash looks with copies.
struct Generated {
  std::vector<Item> items;
  size_t urls = 0, looks = 0;
};

Generated versions_and_looks(uint64_t seed, size_t urls, size_t looks) {
  std::mt19937_64 rng(seed);
  Generated g;
  g.urls = urls;
  g.looks = looks;
  std::vector<uint64_t> bases;
  while (bases.size() < looks) {  // looks far apart (more than 2 * 6 + 6 bits)
    uint64_t h = rng();
    if (std::popcount(h) < 16 || std::popcount(h) > 48) continue;
    if (std::all_of(bases.begin(), bases.end(),
                    [&](uint64_t o) { return std::popcount(o ^ h) > 18; }))
      bases.push_back(h);
  }
  size_t u = 0;
  for (size_t look = 0; look < looks; ++look) {
    const size_t copies = 1 + rng() % 6;
    for (size_t c = 0; c < copies; ++c) {
      Item it;
      // Each copy flips at most 3 bits of its look: any two copies are within 6 bits.
      uint64_t h = bases[look];
      for (size_t f = rng() % 4; f > 0; --f) h ^= uint64_t{1} << (rng() % 64);
      it.phash = h;
      it.set(StringAttr::url, "url" + std::to_string(u++ % urls));
      it.set(NumberAttr::ts, static_cast<double>(rng() % 1'000'000));
      const double side = static_cast<double>(50 + c * 10);
      it.set(NumberAttr::area, side * side);
      g.items.push_back(std::move(it));
    }
  }
  return g;
}

using testing::expect_valid;

// The cover of `items` under `text`, checked: every item is kept or covered by its keeper.
CoverResult checked_cover(std::string_view text, const std::vector<Item>& items,
                          const CoverOptions& options = {}) {
  const ExprPtr e = parse(text);
  CoverResult r = compute_cover(*e, items, options);
  expect_valid(*e, items, r);
  return r;
}

TEST(CoverAlgorithm, NearDuplicateLooksGiveOneKeeperEach) {
  const Generated g = versions_and_looks(1, 5000, 3000);
  const CoverResult r = checked_cover("near", g.items);
  EXPECT_EQ(r.kept, g.looks);  // each look is a clique under phash<=6
  EXPECT_EQ(r.lower_bound, g.looks);
  EXPECT_EQ(r.greedy_components, 0u);
  EXPECT_NE(r.method.find("phash-join(6)"), std::string::npos);
}

TEST(CoverAlgorithm, BestKeepsTheLargestCopy) {
  const Generated g = versions_and_looks(2, 100000, 500);
  const CoverResult r = checked_cover("best", g.items);
  EXPECT_EQ(r.kept, g.looks);
  for (size_t a = 0; a < g.items.size(); ++a)
    EXPECT_GE(*g.items[r.keeper[a]].get(NumberAttr::area), *g.items[a].get(NumberAttr::area));
}

TEST(CoverAlgorithm, VersionsKeepTheNewestOfEachUrl) {
  const Generated g = versions_and_looks(3, 700, 2000);
  const CoverResult r = checked_cover("versions", g.items, {.threads = 2});
  EXPECT_EQ(r.kept, g.urls);
  EXPECT_EQ(r.exact_components, r.components);
  EXPECT_EQ(r.method, "blocks");
  size_t covered = 0;
  for (uint32_t c : r.covers) covered += c;
  EXPECT_EQ(covered + r.kept, g.items.size());
}

TEST(CoverAlgorithm, OrTakesTheUnionOfBlockedBranches) {
  const Generated g = versions_and_looks(4, 900, 1500);
  // One large component the integer program cannot prove in 200 ms: greedy, within its bound.
  const CoverResult r = checked_cover("versions|near", g.items, {.ilp_time_ms = 200});
  EXPECT_GE(r.kept, r.lower_bound);
  EXPECT_GT(r.ilp_fallbacks, 0u);
  EXPECT_LE(static_cast<double>(r.kept), r.greedy_bound * static_cast<double>(r.lower_bound));
  EXPECT_EQ(r.method, "blocks + phash-join(6) + or");
}

TEST(CoverAlgorithm, BlockingFindsEveryEdgeThatAllPairsFind) {
  const Generated g = versions_and_looks(6, 150, 200);
  for (std::string_view text : {"versions|near", "same(url)|phash<=3,newer", "perhost,near",
                                "(versions|best),!same(digest)"}) {
    SCOPED_TRACE(text);
    const ExprPtr e = parse(text);
    size_t expected = 0;
    for (size_t a = 0; a < g.items.size(); ++a)
      for (size_t b = 0; b < g.items.size(); ++b)
        expected += a != b && covers(*e, g.items[a], g.items[b]);
    EXPECT_EQ(compute_cover(*e, g.items, {.ilp_time_ms = 0}).edges, expected);
  }
}

TEST(CoverAlgorithm, ShinglePrefixFindsEveryPairAboveTheThreshold) {
  std::mt19937_64 rng(9);
  std::vector<Item> items(400);
  for (size_t i = 0; i < items.size(); ++i) {
    std::string text;  // words from a small vocabulary, Zipf-like, so that texts overlap
    for (size_t w = 2 + rng() % 12; w > 0; --w)
      text += "w" + std::to_string(rng() % (1 + rng() % 40)) + " ";
    items[i].set(TextAttr::text, word_shingles(text));
    items[i].set(NumberAttr::ts, static_cast<double>(rng() % 10));
  }
  for (std::string_view text : {"containment(text)>=0.6,newer", "jaccard(text)>=0.5",
                                "dice(text)>0.7", "containment(text)=1"}) {
    SCOPED_TRACE(text);
    const ExprPtr e = parse(text);
    size_t expected = 0;
    for (size_t a = 0; a < items.size(); ++a)
      for (size_t b = 0; b < items.size(); ++b)
        expected += a != b && covers(*e, items[a], items[b]);
    const CoverResult r = checked_cover(text, items);
    EXPECT_EQ(r.edges, expected);
    EXPECT_EQ(r.method, "shingle-prefix");
    EXPECT_LT(r.candidate_pairs, items.size() * (items.size() - 1) / 2);
  }
}

// Page versions as bench_cover --pages makes them, small: URLs with 1-4 versions of 5-word
// shingles, each version editing the one before, a boilerplate shared per host.
std::vector<Item> page_versions(size_t n) {
  std::mt19937_64 rng(1667);
  std::vector<Item> items;
  for (size_t url = 0; items.size() < n; ++url) {
    std::vector<uint64_t> words;
    for (int k = 0; k < 10; ++k) words.push_back(url % 7 * 31 + k);
    for (int k = 0; k < 30; ++k) words.push_back(1000 + rng() % (1 + rng() % 300));
    for (size_t v = 0, versions = 1 + rng() % 4; v < versions && items.size() < n; ++v) {
      if (v > 0) {
        for (size_t k = rng() % 3; k > 0; --k) words[10 + rng() % 30] = 1000 + rng() % 300;
        for (size_t k = rng() % 5; k > 0; --k) words.push_back(1000 + rng() % 300);
      }
      std::string text;
      for (uint64_t w : words) text += std::to_string(w) + " ";
      Item item;
      item.set(StringAttr::url, std::to_string(url));
      item.set(NumberAttr::ts, static_cast<double>(v));
      item.set(TextAttr::text, word_shingles(text, 5));
      items.push_back(std::move(item));
    }
  }
  return items;
}

// The same pairs, edges and cover.
void expect_same_cover(const CoverResult& got, const CoverResult& want) {
  EXPECT_EQ(got.candidate_pairs, want.candidate_pairs);
  EXPECT_EQ(got.edges, want.edges);
  EXPECT_EQ(got.keeper, want.keeper);
  EXPECT_EQ(got.covers, want.covers);
  EXPECT_EQ(got.component, want.component);
  EXPECT_EQ(got.kept, want.kept);
  EXPECT_EQ(got.exact_components, want.exact_components);
}

TEST(CoverSpill, TinyBudgetsSpillManyRunsAndGiveTheSameCover) {
  const auto items = page_versions(1500);
  for (std::string_view text : {"containment(text)>=0.7,newer", "jaccard(text)>=0.5|same(url)"}) {
    SCOPED_TRACE(text);
    const ExprPtr e = parse(text);
    const CoverResult memory = compute_cover(*e, items);
    ASSERT_EQ(memory.spilled_runs, 0u);
    ASSERT_GT(memory.edges, 500u);
    // 2 KB buffers hold ~80 records: several hundred runs, merged in passes of kMaxFanIn.
    for (uint64_t budget : {uint64_t{4096}, uint64_t{200'000}}) {
      SCOPED_TRACE(budget);
      const CoverResult spilled =
          compute_cover(*e, items, {.spill = {.memory = budget, .temp = ::testing::TempDir()}});
      EXPECT_GT(spilled.spilled_runs, budget < 10'000 ? kMaxFanIn : 2);
      expect_same_cover(spilled, memory);
    }
  }
}

// The texts held apart from the items (ItemTexts, as `strata cover --items pages` and
// bench_cover --pages hold them): in memory, or in chunks of a tiny budget that the pair tests
// stream past each other. The pairs, edges and cover are those of items holding their texts.
TEST(CoverSpill, TextsHeldApartGiveTheSameCoverAtAnyBudget) {
  const auto items = page_versions(1500);
  const auto folder = std::filesystem::path(::testing::TempDir()) / "cover-texts-apart";
  for (std::string_view text :
       {"containment(text)>=0.7,newer", "jaccard(text)>=0.5|same(url)", "pageversions"}) {
    SCOPED_TRACE(text);
    const ExprPtr e = parse(text);
    const CoverResult memory = compute_cover(*e, items);
    ASSERT_GT(memory.edges, 300u);
    for (uint64_t budget : {uint64_t{4096}, uint64_t{200'000}, uint64_t{1} << 30}) {
      SCOPED_TRACE(budget);
      std::filesystem::remove_all(folder);
      std::filesystem::create_directories(folder);
      {
        // Added in reverse, then put back in order: a page's versions meet across chunks.
        std::vector<Item> apart(items.rbegin(), items.rend());
        ItemTexts texts({.memory = budget, .temp = folder});
        for (Item& item : apart) texts.add(item);
        texts.finish();
        std::reverse(apart.begin(), apart.end());
        std::vector<size_t> order(apart.size());
        for (size_t k = 0; k < order.size(); ++k) order[k] = order.size() - 1 - k;
        texts.reorder(order);
        ASSERT_TRUE(apart.front().get(TextAttr::text).empty());
        if (budget == uint64_t{1} << 30)
          EXPECT_EQ(texts.chunks(), 1u);
        else
          EXPECT_GT(texts.chunks(), budget < 10'000 ? 500u : 10u);
        const CoverResult r = compute_cover(
            *e, apart, {.spill = {.memory = budget, .temp = folder}, .texts = &texts});
        EXPECT_EQ(r.text_chunks, texts.chunks());
        expect_same_cover(r, memory);
      }
      EXPECT_TRUE(std::filesystem::is_empty(folder));  // the spilled texts go with them
    }
  }
}

TEST(CoverSpill, SpillRunsAreRemovedAfterwards) {
  const auto items = page_versions(300);
  const auto folder = std::filesystem::path(::testing::TempDir()) / "cover-spill-cleanup";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const auto r = compute_cover(*parse("containment(text)>=0.7,newer"), items,
                               {.spill = {.memory = 8192, .temp = folder}});
  EXPECT_GT(r.spilled_runs, 0u);
  EXPECT_TRUE(std::filesystem::is_empty(folder));
}

TEST(CoverSpill, AnUnwritableSpillFolderIsAClearError) {
  const auto items = page_versions(300);
  const ExprPtr e = parse("containment(text)>=0.7,newer");
  try {
    compute_cover(*e, items, {.spill = {.memory = 8192, .temp = "/nonexistent/strata-spill"}});
    FAIL() << "no error";
  } catch (const CoverError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("cannot make a spill folder in "
                        "/nonexistent/strata-spill"),
              std::string::npos)
        << error.what();
  }
  // Within the budget nothing is spilled, so the folder is never needed.
  EXPECT_NO_THROW(compute_cover(*e, items, {.spill = {.temp = "/nonexistent/strata-spill"}}));
}

TEST(CoverSpill, SorterMergesRunsInPassesIntoOneOrder) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> values(20000);
  for (auto& v : values) v = rng() % 5000;  // repeats: equal records from several runs
  SpillFolder folder(::testing::TempDir());
  SpillSorter<uint64_t, std::less<uint64_t>> sorter(512, folder);  // 64 values a run
  for (uint64_t v : values) sorter.add(v);
  sorter.finish();
  EXPECT_LE(sorter.runs(), kMaxFanIn);
  EXPECT_GT(folder.runs_written(), 300u);
  std::sort(values.begin(), values.end());
  for (int pass = 0; pass < 2; ++pass) {  // a sorter can be read again
    std::vector<uint64_t> read;
    auto in = sorter.read();
    for (uint64_t v; in.next(v);) read.push_back(v);
    EXPECT_EQ(read, values);
  }
}

TEST(CoverAlgorithm, HammingJoinFindsExactlyThePairsWithinK) {
  std::mt19937_64 rng(5);
  std::vector<Item> items(3000);
  for (auto& it : items) it.phash = rng() & rng() & 0x00FF00FF00FF00FFull;  // dense neighbourhoods
  std::vector<uint32_t> ids(items.size());
  for (uint32_t k = 0; k < ids.size(); ++k) ids[k] = k;
  for (int k : {0, 3, 6, 10}) {
    std::vector<Pair> joined;
    hamming_pairs(ids, items, k, joined);
    std::sort(joined.begin(), joined.end());
    size_t expected = 0;
    for (size_t i = 0; i < items.size(); ++i)
      for (size_t j = i + 1; j < items.size(); ++j)
        expected += std::popcount(*items[i].phash ^ *items[j].phash) <= k;
    EXPECT_EQ(joined.size(), expected) << "k=" << k;
    EXPECT_TRUE(std::adjacent_find(joined.begin(), joined.end()) == joined.end());
  }
}

TEST(CoverAlgorithm, UnblockableExpressionsRefuseLargeInputs) {
  std::vector<Item> items(20000);
  EXPECT_THROW(compute_cover(*parse("newer"), items, {.pair_budget = 1'000'000}), CoverError);
  EXPECT_NO_THROW(compute_cover(*parse("newer"), std::span(items).first(1000)));
}

TEST(CoverAlgorithm, GiantClustersOfOnePhashAreCapped) {
  // 3,000 re-encoded copies of one picture (one pHash) and 40 other looks.
  std::vector<Item> items(3040);
  std::mt19937_64 rng(12);
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].phash = i < 3000 ? 0x0123456789ABCDEFull : rng();
    items[i].set(NumberAttr::area, static_cast<double>(i % 97));
  }
  const CoverResult r = checked_cover("near", items);
  EXPECT_EQ(r.capped_items, 3000 - kGiantCluster);
  EXPECT_LE(r.candidate_pairs, 3000 * kGiantCluster + 1000);  // not 3000² / 2
  EXPECT_EQ(r.kept, 1 + 40u);          // phash<=6 alone: any copy covers every other
  EXPECT_EQ(r.greedy_components, 1u);  // not claimed optimal: pairs were left out
  // With a condition only some copies meet, the cover is still valid (checked_cover).
  const CoverResult best = checked_cover("best", items);
  EXPECT_GE(best.kept, 41u);
  EXPECT_EQ(best.capped_items, 3000 - kGiantCluster);
}

TEST(CoverAlgorithm, SingletonsAndEmptyInput) {
  EXPECT_EQ(compute_cover(*parse("near"), std::vector<Item>{}).kept, 0u);
  std::vector<Item> lone(3);
  const CoverResult r = compute_cover(*parse("near"), lone);
  EXPECT_EQ(r.kept, 3u);
  EXPECT_EQ(r.components, 0u);
}

}  // namespace
}  // namespace strata::cover
