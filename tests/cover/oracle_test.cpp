// Oracles on generated data with ground truth (src/sample/cover_world.hpp): every family's
// cover, computed from its documents as `strata cover --docs` reads them, has exactly the
// optimum the generator proves by construction, every component solved exactly (bound, branch
// and bound, or the integer program for the 67-document cycles); with the exact solvers off,
// the greedy cover stays within its H(Δ) bound of that optimum.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cover/cover.hpp"
#include "cover/documents.hpp"
#include "cover_checks.hpp"
#include "sample/cover_world.hpp"

namespace strata::cover {
namespace {

std::vector<Item> items_of(const sample::CoverFamily& f, const Expr& e) {
  const Uses uses = attributes_used(e);
  std::map<std::string, uint64_t> phash(f.phashes.begin(), f.phashes.end());
  std::vector<Item> items;
  for (const auto& doc : f.documents) {
    index::Moderation m;
    if (auto it = phash.find(doc.imgDigest); it != phash.end()) m.phash = it->second;
    items.push_back(item_from_document(doc, m, uses));
  }
  return items;
}

using testing::expect_valid;

const std::vector<sample::CoverFamily>& world() {
  static const auto families = sample::build_cover_world(2024, 120);
  return families;
}

TEST(CoverOracle, EveryFamilyMeetsItsProvenOptimum) {
  std::set<std::string> names;
  for (const auto& f : world()) {
    SCOPED_TRACE(f.name + ": " + f.expression);
    names.insert(f.name);
    const ExprPtr e = parse(f.expression);
    const auto items = items_of(f, *e);
    const CoverResult r = compute_cover(*e, items);
    expect_valid(*e, items, r);
    EXPECT_EQ(r.kept, f.optimum);
    EXPECT_EQ(r.lower_bound, f.optimum);  // proven: the solvers agree with the construction
    EXPECT_EQ(r.greedy_components, 0u);
    EXPECT_EQ(r.capped_items, 0u);
    EXPECT_LE(r.largest_component, std::max<size_t>(1, f.largest_group));
    if (f.name == "cycles67") {
      EXPECT_EQ(r.ilp_components, r.components);  // above 64: only the integer program proves it
    } else {
      EXPECT_EQ(r.ilp_components, 0u);
    }
  }
  // Every preset has a family, and the operators newer, larger, within, containment, | and
  // arithmetic comparisons are in the others.
  for (const char* preset : {"exact", "near", "best", "versions", "perhost"})
    EXPECT_TRUE(names.count(preset)) << preset;
}

TEST(CoverOracle, GreedyAloneStaysWithinItsBound) {
  for (const auto& f : world()) {
    SCOPED_TRACE(f.name);
    const ExprPtr e = parse(f.expression);
    const auto items = items_of(f, *e);
    const CoverResult r = compute_cover(*e, items, {.node_limit = 0, .ilp_time_ms = 0});
    expect_valid(*e, items, r);
    EXPECT_GE(r.kept, f.optimum);
    EXPECT_LE(static_cast<double>(r.kept), r.greedy_bound * static_cast<double>(f.optimum) + 1e-9);
    if (f.name.rfind("cycles", 0) == 0) {
      EXPECT_GT(r.greedy_components, 0u);  // odd cycles: the packing bound is one short
    }
  }
}

TEST(CoverOracle, TheWorldIsDeterministic) {
  const auto again = sample::build_cover_world(2024, 120);
  ASSERT_EQ(again.size(), world().size());
  for (size_t k = 0; k < again.size(); ++k) {
    EXPECT_EQ(again[k].optimum, world()[k].optimum);
    ASSERT_EQ(again[k].documents.size(), world()[k].documents.size());
    EXPECT_EQ(again[k].documents.front().id, world()[k].documents.front().id);
    EXPECT_EQ(again[k].phashes, world()[k].phashes);
  }
}

}  // namespace
}  // namespace strata::cover
