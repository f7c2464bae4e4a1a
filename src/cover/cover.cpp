#include "cover/cover.hpp"

#include "cover/ilp.hpp"
#include "cover/item_texts.hpp"
#include "cover/spill_sort.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <deque>
#include <numeric>
#include <queue>
#include <thread>

namespace strata::cover {
namespace {

using Lists = std::vector<std::vector<uint32_t>>;

// Each list of `covered_by` transposed: covers[b] = the items `b` covers.
Lists transpose(const Lists& covered_by) {
  Lists covers(covered_by.size());
  for (uint32_t a = 0; a < covered_by.size(); ++a)
    for (uint32_t b : covered_by[a]) covers[b].push_back(a);
  return covers;
}

// Greedy set cover: the item covering the most uncovered items (ties: the earliest), until
// every item is covered. Gains only fall, so a stale heap entry is re-scored when it surfaces.
std::vector<uint32_t> greedy(const Lists& covers) {
  const size_t n = covers.size();
  std::vector<char> covered(n, 0);
  auto gain = [&](uint32_t b) {
    uint32_t g = 0;
    for (uint32_t a : covers[b]) g += !covered[a];
    return g;
  };
  auto later = [](const std::pair<uint32_t, uint32_t>& x, const std::pair<uint32_t, uint32_t>& y) {
    return x.first != y.first ? x.first < y.first : x.second > y.second;
  };
  std::priority_queue<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>,
                      decltype(later)>
      heap(later);
  for (uint32_t b = 0; b < n; ++b) heap.emplace(static_cast<uint32_t>(covers[b].size()), b);
  std::vector<uint32_t> chosen;
  for (size_t left = n; left > 0 && !heap.empty();) {
    auto [stored, b] = heap.top();
    heap.pop();
    const uint32_t now = gain(b);
    if (now == 0) continue;
    if (now < stored) {
      heap.emplace(now, b);
      continue;
    }
    chosen.push_back(b);
    for (uint32_t a : covers[b])
      if (!covered[a]) covered[a] = 1, --left;
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

// A packing of items no single item covers two of: each needs a keeper of its own, so their
// number bounds the optimum from below. Items with the fewest coverers first.
size_t packing_bound(const Lists& covered_by) {
  std::vector<uint32_t> order(covered_by.size());
  std::iota(order.begin(), order.end(), uint32_t{0});
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return covered_by[x].size() < covered_by[y].size();
  });
  std::vector<char> used(covered_by.size(), 0);
  size_t bound = 0;
  for (uint32_t a : order) {
    if (std::any_of(covered_by[a].begin(), covered_by[a].end(),
                    [&](uint32_t b) { return used[b]; }))
      continue;
    ++bound;
    for (uint32_t b : covered_by[a]) used[b] = 1;
  }
  return bound;
}

// Exact minimum cover of at most 64 items on bit masks: branch on the coverers of the
// uncovered item with the fewest, bound by the largest remaining gain.
class BranchAndBound {
 public:
  BranchAndBound(const Lists& covered_by, const Lists& covers, uint64_t node_limit,
                 std::vector<uint32_t> incumbent)
      : coverers_(covered_by), limit_(node_limit), best_(std::move(incumbent)) {
    for (const auto& list : covers) {
      uint64_t mask = 0;
      for (uint32_t a : list) mask |= uint64_t{1} << a;
      sets_.push_back(mask);
    }
  }

  // True when the search finished: best() is then optimal.
  bool run() {
    const size_t n = sets_.size();
    search(n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1);
    return !aborted_;
  }
  std::vector<uint32_t> best() const {
    auto out = best_;
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  void search(uint64_t uncovered) {
    if (aborted_) return;
    if (++nodes_ > limit_) {
      aborted_ = true;
      return;
    }
    if (!uncovered) {
      if (current_.size() < best_.size()) best_ = current_;
      return;
    }
    int most = 0;
    for (uint64_t s : sets_) most = std::max(most, std::popcount(s & uncovered));
    const size_t need = (std::popcount(uncovered) + most - 1) / most;
    if (current_.size() + need >= best_.size()) return;
    uint32_t pick = 0;
    size_t fewest = SIZE_MAX;
    for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
      const auto a = static_cast<uint32_t>(std::countr_zero(rest));
      if (coverers_[a].size() < fewest) fewest = coverers_[a].size(), pick = a;
    }
    std::vector<uint32_t> options = coverers_[pick];
    std::stable_sort(options.begin(), options.end(), [&](uint32_t x, uint32_t y) {
      return std::popcount(sets_[x] & uncovered) > std::popcount(sets_[y] & uncovered);
    });
    for (uint32_t b : options) {
      current_.push_back(b);
      search(uncovered & ~sets_[b]);
      current_.pop_back();
    }
  }

  const Lists& coverers_;
  std::vector<uint64_t> sets_;
  uint64_t limit_, nodes_ = 0;
  bool aborted_ = false;
  std::vector<uint32_t> best_, current_;
};

double harmonic(size_t n) {
  double h = 0;
  for (size_t k = 1; k <= n; ++k) h += 1.0 / static_cast<double>(k);
  return h;
}

// One candidate pair to test both ways: its items and their indices.
struct PairTest {
  const Item *a, *b;
  uint32_t x, y;
};

// Directed edges (a, b): `b` covers `a`, appended to `edges`, from `count` candidate pairs
// (test(k) gives the k-th), tested on `threads` threads.
template <typename TestAt>
void test_pairs(const Expr& e, size_t count, TestAt test, unsigned threads,
                std::vector<Pair>& edges) {
  const size_t parts = std::max(1u, std::min<unsigned>(threads, 1 + count / 4096));
  std::vector<std::vector<Pair>> found(parts);
  auto work = [&](size_t part) {
    const size_t from = count * part / parts, to = count * (part + 1) / parts;
    for (size_t k = from; k < to; ++k) {
      const PairTest t = test(k);
      if (covers(e, *t.a, *t.b)) found[part].emplace_back(t.x, t.y);
      if (covers(e, *t.b, *t.a)) found[part].emplace_back(t.y, t.x);
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (size_t p = 1; p < parts; ++p) helpers.emplace_back(work, p);
    work(0);
  }
  for (auto& f : found) edges.insert(edges.end(), f.begin(), f.end());
}

std::vector<Pair> coverage_edges(const Expr& e, std::span<const Item> items,
                                 const std::vector<Pair>& pairs, unsigned threads) {
  std::vector<Pair> edges;
  test_pairs(
      e, pairs.size(),
      [&](size_t k) {
        const auto [x, y] = pairs[k];
        return PairTest{&items[x], &items[y], x, y};
      },
      threads, edges);
  return edges;
}

// The same edges when the texts are held apart from the items (item_texts.hpp), within the
// memory budget: a block nested-loop join. The pairs are sorted (spilled when they do not fit)
// by the chunk of the item whose texts were added first, then by the other's record. Each
// chunk that has pairs is read back whole (at most a quarter of the budget) and the chunks
// after it are streamed past it; a later item is held only while its pairs are tested (in
// windows of another quarter). Most pairs lie within one chunk (versions of a page are added
// together), so most chunks stream little or nothing; in the worst case, each chunk streams
// the rest of the texts once. The edges are those of coverage_edges() (in another order).
std::vector<Pair> coverage_edges(const Expr& e, std::span<const Item> items,
                                 const std::vector<Pair>& pairs, const ItemTexts& texts,
                                 unsigned threads, const SpillOptions& spill, uint64_t& runs) {
  struct __attribute__((packed)) Task {
    uint32_t chunk, later;  // the chunk of `first`, the record of `second`
    uint32_t first, second;
  };
  struct ByChunk {
    bool operator()(const Task& x, const Task& y) const {
      return x.chunk != y.chunk   ? x.chunk < y.chunk
             : x.later != y.later ? x.later < y.later
                                  : x.first < y.first;
    }
  };
  const uint64_t quarter = std::max<uint64_t>(1, spill.memory / 4);
  SpillFolder folder(spill.temp);
  SpillSorter<Task, ByChunk> tasks(quarter, folder);
  for (auto [x, y] : pairs) {
    if (texts.record_of(x) > texts.record_of(y)) std::swap(x, y);
    tasks.add({static_cast<uint32_t>(texts.chunk_of(x)), texts.record_of(y), x, y});
  }
  tasks.finish();

  std::vector<Pair> edges;
  std::vector<PairTest> batch;
  auto flush = [&] {
    test_pairs(
        e, batch.size(), [&](size_t k) { return batch[k]; }, threads, edges);
    batch.clear();
  };
  auto in = tasks.read();
  Task t{};
  bool more = in.next(t);
  std::vector<Item> held;  // the chunk's items with their texts, by record
  while (more) {
    const uint32_t chunk = t.chunk, first = texts.first_record(chunk);
    const uint32_t end = chunk + 1 < texts.chunks() ? texts.first_record(chunk + 1)
                                                    : static_cast<uint32_t>(texts.items());
    held.clear();
    texts.read(chunk, chunk + 1, [&](uint32_t, uint32_t item, Item::Texts& own) {
      held.push_back(items[item]);
      held.back().set_texts(std::move(own));
      return true;
    });
    auto in_chunk = [&](uint32_t item) { return &held[texts.record_of(item) - first]; };
    for (; more && t.chunk == chunk && t.later < end; more = in.next(t))
      batch.push_back({in_chunk(t.first), in_chunk(t.second), t.first, t.second});
    flush();
    if (!more || t.chunk != chunk) continue;
    std::deque<Item> window;  // later items (a deque keeps their addresses)
    uint64_t window_cost = 0;
    texts.read(chunk + 1, texts.chunks(), [&](uint32_t record, uint32_t item, Item::Texts& own) {
      if (record != t.later) return true;
      window_cost += ItemTexts::memory_cost(own);
      window.push_back(items[item]);
      window.back().set_texts(std::move(own));
      for (; more && t.chunk == chunk && t.later == record; more = in.next(t))
        batch.push_back({in_chunk(t.first), &window.back(), t.first, t.second});
      if (window_cost > quarter || batch.size() >= (size_t{1} << 20)) {
        flush();
        window.clear();
        window_cost = 0;
      }
      return more && t.chunk == chunk;
    });
    flush();
  }
  runs += folder.runs_written();
  return edges;
}

uint32_t find(std::vector<uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

ComponentCover solve_component(const Lists& covered_by, uint64_t node_limit, int ilp_time_ms) {
  const Lists covers = transpose(covered_by);
  ComponentCover out;
  out.chosen = greedy(covers);
  out.lower_bound = packing_bound(covered_by);
  out.exact = out.chosen.size() == out.lower_bound;
  if (out.exact) {
    out.solver = Solver::bound;
    return out;
  }
  if (covered_by.size() <= kExactLimit) {
    BranchAndBound search(covered_by, covers, node_limit, out.chosen);
    if (search.run()) {
      out.chosen = search.best();
      out.exact = true;
      out.lower_bound = out.chosen.size();
      out.solver = Solver::branch_and_bound;
      return out;
    }
  }
  if (ilp_time_ms > 0) {
    const IlpCover ilp = ilp_cover(covered_by, out.chosen, ilp_time_ms);
    if (!ilp.chosen.empty() && ilp.chosen.size() <= out.chosen.size()) {
      out.chosen = ilp.chosen;
      if (ilp.optimal) {
        out.exact = true;
        out.lower_bound = out.chosen.size();
        out.solver = Solver::ilp;
        return out;
      }
    }
    out.ilp_fallback = true;
  }
  return out;
}

CoverResult compute_cover(const Expr& e, std::span<const Item> items, const CoverOptions& options) {
  CoverResult r;
  const auto n = static_cast<uint32_t>(items.size());
  Candidates candidates =
      candidate_pairs(e, items, options.pair_budget, options.spill, options.texts);
  r.candidate_pairs = candidates.pairs.size();
  r.spilled_runs = candidates.spilled_runs;
  r.method = candidates.method;
  std::vector<Pair> edges;
  if (options.texts) {
    edges = coverage_edges(e, items, candidates.pairs, *options.texts, options.threads,
                           options.spill, r.spilled_runs);
    r.spilled_runs += options.texts->runs_written();
    r.text_chunks = options.texts->chunks();
  } else {
    edges = coverage_edges(e, items, candidates.pairs, options.threads);
  }
  candidates.pairs = {};
  r.edges = edges.size();

  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), uint32_t{0});
  for (auto [a, b] : edges) {
    uint32_t x = find(parent, a), y = find(parent, b);
    if (x != y) parent[std::max(x, y)] = std::min(x, y);
  }
  // Each item's coverers, itself first: CSR over the edges sorted by covered item.
  std::sort(edges.begin(), edges.end());
  std::vector<uint32_t> start(n + 1, 0);
  for (auto [a, b] : edges) ++start[a + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());

  std::vector<std::vector<uint32_t>> members(n);
  r.component.resize(n);
  for (uint32_t i = 0; i < n; ++i) members[r.component[i] = find(parent, i)].push_back(i);

  std::vector<char> capped(n, 0);  // giant clusters of one pHash: some pairs never compared
  for (uint32_t i : candidates.capped) capped[i] = 1;
  r.capped_items = candidates.capped.size();
  using Clock = std::chrono::steady_clock;
  const auto ilp_deadline = Clock::now() + std::chrono::milliseconds(options.ilp_time_ms);
  std::vector<char> kept(n, 0);
  std::vector<uint32_t> local(n);
  for (uint32_t root = 0; root < n; ++root) {
    const auto& m = members[root];
    if (m.empty()) continue;
    if (m.size() == 1) {
      kept[m.front()] = 1, ++r.lower_bound;
      continue;
    }
    ++r.components;
    r.largest_component = std::max(r.largest_component, m.size());
    for (uint32_t k = 0; k < m.size(); ++k) local[m[k]] = k;
    Lists covered_by(m.size());
    size_t most = 0;
    for (uint32_t k = 0; k < m.size(); ++k) {
      covered_by[k].push_back(k);
      for (uint32_t p = start[m[k]]; p < start[m[k] + 1]; ++p)
        covered_by[k].push_back(local[edges[p].second]);
    }
    for (const auto& list : transpose(covered_by)) most = std::max(most, list.size());
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(ilp_deadline - Clock::now());
    const ComponentCover c = solve_component(covered_by, options.node_limit,
                                             static_cast<int>(std::max<int64_t>(0, left.count())));
    for (uint32_t k : c.chosen) kept[m[k]] = 1;
    // A capped cluster's missing pairs may hide a smaller cover: its optimum is not proven.
    const bool capped_here = std::any_of(m.begin(), m.end(), [&](uint32_t i) { return capped[i]; });
    const bool proven = c.exact && !capped_here;
    r.lower_bound += capped_here ? 1 : c.lower_bound;
    if (proven) {
      ++r.exact_components, r.items_exact += m.size();
      r.ilp_components += c.solver == Solver::ilp;
    } else {
      ++r.greedy_components, r.items_greedy += m.size();
      r.ilp_fallbacks += c.ilp_fallback;
      r.greedy_bound = std::max(r.greedy_bound, harmonic(most));
    }
  }

  r.keeper.resize(n);
  r.covers.assign(n, 0);
  for (uint32_t a = 0; a < n; ++a) {
    if (kept[a]) {
      r.keeper[a] = a, ++r.kept;
      continue;
    }
    uint32_t best = n;
    for (uint32_t p = start[a]; p < start[a + 1]; ++p)
      if (kept[edges[p].second]) best = std::min(best, edges[p].second);
    r.keeper[a] = best;
    ++r.covers[best];
  }
  return r;
}

}  // namespace strata::cover
