#include "similar/regroup.hpp"

#include <algorithm>
#include <set>

#include "similar/hamming_index.hpp"

namespace strata::similar {
namespace {

// Group sizes and counts of a finished leader assignment, as group_near_duplicates gives them.
void count_groups(Grouping& result) {
  const size_t n = result.leader.size();
  result.size.assign(n, 0);
  for (size_t i = 0; i < n; ++i) ++result.size[result.leader[i]];
  for (size_t i = 0; i < n; ++i) {
    const uint32_t size = result.size[result.leader[i]];
    if (size >= 2 && result.leader[i] == i) ++result.groups, result.grouped += size;
  }
  for (size_t i = 0; i < n; ++i) result.size[i] = result.size[result.leader[i]];
}

}  // namespace

Regrouping regroup_near_duplicates(std::span<const Image> images,
                                   std::span<const uint32_t> previous, int radius) {
  const int r = std::clamp(radius, 0, 63);
  const uint32_t n = static_cast<uint32_t>(images.size());
  Regrouping out;
  Grouping& result = out.grouping;
  std::vector<uint8_t> ok(n);
  std::vector<uint64_t> hashes(n);
  for (uint32_t i = 0; i < n; ++i) {
    hashes[i] = images[i].phash;
    const Gate g = gate(images[i]);
    ok[i] = g == Gate::ok;
    result.degenerate += g == Gate::degenerate_hash;
    result.too_small += g == Gate::too_small;
  }
  const HammingIndex index(r, hashes);
  auto before = [&](uint32_t a, uint32_t b) { return visits_before(images[a], images[b]); };
  // Images equal in every field tie: the input index keeps both.
  auto visit_order = [&](uint32_t a, uint32_t b) {
    return before(a, b) || (!before(b, a) && a < b);
  };
  std::set<uint32_t, decltype(visit_order)> pending(visit_order);
  result.leader.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const bool regroup = previous[i] == kRegroup;
    result.leader[i] = regroup ? i : previous[i];
    if (regroup && ok[i]) pending.insert(i);
  }
  auto leads = [&](uint32_t i) { return ok[i] && result.leader[i] == i; };
  while (!pending.empty()) {
    const uint32_t x = *pending.begin();
    pending.erase(pending.begin());
    ++out.regrouped;
    const bool led = previous[x] == x;  // a marked image counts as no previous leader
    const auto near = index.all_within(hashes[x], r);
    // Every image before x is final: the first leader among them within the radius.
    uint32_t leader = x;
    for (const auto& match : near) {
      const uint32_t y = match.entry;
      if (y != x && leads(y) && before(y, x) && (leader == x || before(y, leader)) &&
          pdq_agrees(images[y], images[x]))
        leader = y;
    }
    result.leader[x] = leader;
    if (leads(x) == led) continue;
    for (const auto& match : near)
      if (match.entry != x && ok[match.entry] && before(x, match.entry))
        pending.insert(match.entry);
  }
  count_groups(result);
  return out;
}

}  // namespace strata::similar
