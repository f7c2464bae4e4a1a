#include "cover/candidates.hpp"

#include "cover/item_texts.hpp"
#include "cover/spill_sort.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace strata::cover {
namespace {

// Below this many hashes a block is compared pair by pair (the tables cost more).
constexpr size_t kJoinMinimum = 2048;

// The conjuncts of a conjunction, presets and nested conjunctions flattened.
void conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == Expr::Kind::all_of)
    for (const auto& c : e->children) conjuncts(c, out);
  else
    out.push_back(e);
}

// Above this distance the join's tables are too fine to narrow anything: such an atom is
// compared pair by pair, within the budget.
constexpr int kMaxJoinDistance = 24;

// The largest distance a Hamming atom allows, if the atom bounds it from above.
std::optional<int> hamming_bound(const Expr& e) {
  if (e.kind != Expr::Kind::hamming) return std::nullopt;
  int k = static_cast<int>(e.limit);
  if (e.op == CmpOp::lt) --k;
  if (e.op != CmpOp::le && e.op != CmpOp::eq && e.op != CmpOp::lt) return std::nullopt;
  if (k > kMaxJoinDistance) return std::nullopt;
  return k;
}

// A similarity atom that bounds the similarity from below: b must hold at least `share` of
// a's shingles (containment >= t: t; jaccard >= t: t, as |A u B| >= |A|; dice >= t: t/2).
struct TextBound {
  TextAttr text;
  double share;
};
std::optional<TextBound> text_bound(const Expr& e) {
  if (e.kind != Expr::Kind::similar || e.limit <= 0) return std::nullopt;
  if (e.op != CmpOp::ge && e.op != CmpOp::gt && e.op != CmpOp::eq) return std::nullopt;
  return TextBound{e.text, e.sim == SimKind::dice ? e.limit / 2 : e.limit};
}

class Generator {
 public:
  Generator(std::span<const Item> items, uint64_t budget, const SpillOptions& spill,
            const ItemTexts* texts, Candidates& out)
      : items_(items), budget_(budget), spill_(spill), texts_(texts), out_(out) {}

  void run(const ExprPtr& e, std::span<const uint32_t> ids) {
    if (e->kind == Expr::Kind::any_of) {
      for (const auto& c : e->children) run(c, ids);
      note("or");
      return;
    }
    const Narrowing n = narrowing(*e);
    const auto& keys = n.keys;
    const auto& hamming = n.hamming;
    const Expr* alternatives = n.alternatives;
    if (!keys.empty()) return blocks(keys, hamming, ids);
    if (hamming) {
      note("phash-join(" + std::to_string(*hamming) + ")");
      if (*hamming >= 0) hamming_pairs(ids, items_, *hamming, out_.pairs, &out_.capped);
      return;
    }
    if (n.text) {
      note("shingle-prefix");
      return text_pairs(ids, TextBound{*n.text, n.share});
    }
    if (alternatives) {
      for (const auto& c : alternatives->children) run(c, ids);
      return;
    }
    note("all-pairs");
    all_pairs(ids);
  }

 private:
  void note(const std::string& method) {
    if (out_.method.find(method) == std::string::npos)
      out_.method += (out_.method.empty() ? "" : " + ") + method;
  }

  void blocks(const std::vector<AttrRef>& keys, std::optional<int> hamming,
              std::span<const uint32_t> ids) {
    std::unordered_map<std::string, std::vector<uint32_t>> by_key;
    for (uint32_t id : ids) {
      bool missing = false;
      std::string key;
      for (const AttrRef& r : keys) key += block_value(items_[id], r, missing) + '\x1f';
      if (!missing) by_key[key].push_back(id);
    }
    note(hamming ? "blocks+phash(" + std::to_string(*hamming) + ")" : "blocks");
    for (auto& [key, group] : by_key) {
      if (group.size() < 2) continue;
      std::sort(group.begin(), group.end());
      if (hamming)
        hamming_pairs(group, items_, *hamming, out_.pairs, &out_.capped);
      else
        all_pairs(group);
    }
  }

  // Prefix filtering (AllPairs): with shingles ordered rarest first, `b` can hold `share` of
  // a's shingles only if it holds one of a's first |A| - ceil(share |A|) + 1. Out of core, as
  // three sorts within the memory budget (spill_sort.hpp), each spilled to LZ4 runs when it
  // does not fit: (shingle, document) gives each shingle's posting and its size; (document,
  // posting size, shingle) gives each document's prefix; the prefix requests sorted by
  // (shingle, document) meet the postings again in one merge, which emits the pairs. The pairs
  // (deduplicated later) are the same whatever the budget.
  void text_pairs(std::span<const uint32_t> ids, const TextBound& bound) {
    struct __attribute__((packed)) Entry {
      uint64_t shingle;
      uint32_t id;
    };
    struct ByShingle {
      bool operator()(const Entry& x, const Entry& y) const {
        return x.shingle != y.shingle ? x.shingle < y.shingle : x.id < y.id;
      }
    };
    struct Probe {
      uint32_t id, size;  // a document, and the size of one of its shingles' posting
      uint64_t shingle;
    };
    struct ByDocument {
      bool operator()(const Probe& x, const Probe& y) const {
        return x.id != y.id       ? x.id < y.id
               : x.size != y.size ? x.size < y.size
                                  : x.shingle < y.shingle;
      }
    };
    SpillFolder folder(spill_.temp);
    uint64_t total = 0;
    for_each_text(ids, bound.text, [&](uint32_t, const std::vector<uint64_t>& shingles) {
      total += shingles.size();
    });
    // Two sorts are alive at once (the postings, and the probes or the requests), beside the
    // texts held apart when they stay in memory (at most a quarter, item_texts.hpp).
    const uint64_t half = (texts_ ? spill_.memory - spill_.memory / 4 : spill_.memory) / 2;
    if (total * sizeof(Entry) > half) folder.create();  // a bad folder fails before the work
    SpillSorter<Entry, ByShingle> postings(half, folder);
    for_each_text(ids, bound.text, [&](uint32_t id, const std::vector<uint64_t>& shingles) {
      for (uint64_t s : shingles) postings.add({s, id});
    });
    postings.finish();

    std::vector<uint32_t> group;
    auto for_each_posting = [&](auto&& visit) {
      auto in = postings.read();
      Entry e{};
      bool more = in.next(e);
      while (more) {
        const uint64_t shingle = e.shingle;
        group.clear();
        for (; more && e.shingle == shingle; more = in.next(e)) group.push_back(e.id);
        visit(shingle, group);
      }
    };
    auto probes = std::make_unique<SpillSorter<Probe, ByDocument>>(half, folder);
    for_each_posting([&](uint64_t shingle, const std::vector<uint32_t>& posting) {
      for (uint32_t id : posting) probes->add({id, static_cast<uint32_t>(posting.size()), shingle});
    });
    probes->finish();

    SpillSorter<Entry, ByShingle> requests(half, folder);
    {
      auto in = probes->read();
      std::vector<Probe> own;
      Probe p{};
      bool more = in.next(p);
      while (more) {
        const uint32_t id = p.id;
        own.clear();
        for (; more && p.id == id; more = in.next(p)) own.push_back(p);
        const size_t n = own.size();
        const auto overlap = static_cast<size_t>(
            std::max(1.0, std::ceil(bound.share * static_cast<double>(n) - 1e-9)));
        for (size_t j = 0; j < n - std::min(n, overlap) + 1; ++j)
          requests.add({own[j].shingle, id});
      }
    }
    probes.reset();
    requests.finish();

    // A pair is met once per prefix shingle the two share (about 50 times for two versions of
    // a page): the pairs are made distinct whenever the new ones outnumber the distinct ones
    // (and a million), so that memory holds at most about twice the distinct pairs.
    size_t distinct = out_.pairs.size();
    auto compact = [&] {
      std::sort(out_.pairs.begin(), out_.pairs.end());
      out_.pairs.erase(std::unique(out_.pairs.begin(), out_.pairs.end()), out_.pairs.end());
      distinct = out_.pairs.size();
      if (distinct > budget_)
        throw CoverError("the similarity atom gives more than " + std::to_string(budget_) +
                         " candidate pairs: raise its threshold or add same(...)");
    };
    auto asked = requests.read();
    Entry request{};
    bool more = asked.next(request);
    for_each_posting([&](uint64_t shingle, const std::vector<uint32_t>& posting) {
      while (more && request.shingle < shingle) more = asked.next(request);
      for (; more && request.shingle == shingle; more = asked.next(request)) {
        for (uint32_t q : posting)
          if (q != request.id)
            out_.pairs.emplace_back(std::min(request.id, q), std::max(request.id, q));
        if (out_.pairs.size() - distinct > std::max<size_t>(size_t{1} << 20, distinct)) compact();
      }
    });
    compact();
    out_.spilled_runs += folder.runs_written();
  }

  void all_pairs(std::span<const uint32_t> ids) {
    const uint64_t n = ids.size();
    const uint64_t pairs = n * (n - (n > 0)) / 2;
    out_.compared_one_by_one += pairs;
    if (out_.compared_one_by_one > budget_)
      throw CoverError("the expression compares " + std::to_string(out_.compared_one_by_one) +
                       "+ pairs one by one (budget " + std::to_string(budget_) +
                       "): add same(...) or phash<=k so that documents can be blocked");
    for (size_t i = 0; i < ids.size(); ++i)
      for (size_t j = i + 1; j < ids.size(); ++j)
        out_.pairs.emplace_back(std::min(ids[i], ids[j]), std::max(ids[i], ids[j]));
  }

  // Calls visit(id, shingles) for each of `ids` with that text: from the items, or read in
  // order from the texts held apart from them.
  template <typename Visit>
  void for_each_text(std::span<const uint32_t> ids, TextAttr text, Visit&& visit) const {
    if (!texts_) {
      for (uint32_t id : ids) visit(id, items_[id].get(text));
      return;
    }
    std::vector<char> wanted(items_.size(), ids.size() == items_.size());
    if (ids.size() != items_.size())
      for (uint32_t id : ids) wanted[id] = 1;
    texts_->read(0, texts_->chunks(), [&](uint32_t, uint32_t id, Item::Texts& texts) {
      if (wanted[id])
        for (const auto& [attr, shingles] : texts)
          if (attr == text) visit(id, shingles);
      return true;
    });
  }

  std::span<const Item> items_;
  uint64_t budget_;
  const SpillOptions& spill_;
  const ItemTexts* texts_;
  Candidates& out_;
};

// One table of the multi-index: its substring of the hash.
struct Table {
  int shift, width;
  uint32_t key(uint64_t h) const {
    return static_cast<uint32_t>((h >> shift) & ((uint64_t{1} << width) - 1));
  }
};

// m grows with k so that each substring is probed within at most 1 bit (pigeonhole: two
// hashes within k bits agree within floor(k/m) bits in some substring).
std::vector<Table> tables_for(int k) {
  const int m = std::max(4, k / 2 + 1);
  std::vector<Table> tables;
  for (int t = 0; t < m; ++t) tables.push_back({t * 64 / m, (t + 1) * 64 / m - t * 64 / m});
  return tables;
}

__attribute__((target_clones("popcnt", "default"))) int distance(uint64_t x, uint64_t y) {
  return std::popcount(x ^ y);
}

}  // namespace

void hamming_pairs(std::span<const uint32_t> ids, std::span<const Item> items, int k,
                   std::vector<Pair>& out, std::vector<uint32_t>* capped) {
  std::vector<uint32_t> hashed;
  for (uint32_t id : ids)
    if (items[id].phash) hashed.push_back(id);
  auto emit = [&](uint32_t x, uint32_t y) { out.emplace_back(std::min(x, y), std::max(x, y)); };
  // Giant clusters of one pHash: the extras pair with the first kGiantCluster only.
  std::sort(hashed.begin(), hashed.end(), [&](uint32_t x, uint32_t y) {
    return *items[x].phash != *items[y].phash ? *items[x].phash < *items[y].phash : x < y;
  });
  size_t joined = 0;
  for (size_t from = 0, to; from < hashed.size(); from = to) {
    for (to = from; to < hashed.size() && *items[hashed[to]].phash == *items[hashed[from]].phash;)
      ++to;
    const size_t keep = std::min(to - from, kGiantCluster);
    for (size_t extra = from + keep; extra < to; ++extra) {
      for (size_t first = from; first < from + keep; ++first) emit(hashed[first], hashed[extra]);
      if (capped) capped->push_back(hashed[extra]);
    }
    for (size_t j = from; j < from + keep; ++j) hashed[joined++] = hashed[j];
  }
  hashed.resize(joined);
  std::sort(hashed.begin(), hashed.end());
  if (hashed.size() < kJoinMinimum) {
    for (size_t i = 0; i < hashed.size(); ++i)
      for (size_t j = i + 1; j < hashed.size(); ++j)
        if (distance(*items[hashed[i]].phash, *items[hashed[j]].phash) <= k)
          emit(hashed[i], hashed[j]);
    return;
  }
  const auto tables = tables_for(k);
  const int sub = k / static_cast<int>(tables.size());
  std::vector<uint64_t> hash(hashed.size());
  for (size_t i = 0; i < hashed.size(); ++i) hash[i] = *items[hashed[i]].phash;
  // A pair is emitted by the first table in which its substrings are within `sub` bits.
  auto first_table = [&](uint64_t x, uint64_t y) {
    for (size_t t = 0; t < tables.size(); ++t)
      if (std::popcount(tables[t].key(x) ^ tables[t].key(y)) <= sub) return t;
    return tables.size();
  };
  std::vector<uint32_t> start, order(hashed.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    const Table& table = tables[t];
    const size_t buckets = size_t{1} << table.width;
    start.assign(buckets + 1, 0);
    for (uint64_t h : hash) ++start[table.key(h) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (uint32_t i = 0; i < hash.size(); ++i) order[fill[table.key(hash[i])]++] = i;
    auto join = [&](uint32_t from, uint32_t to, uint32_t from2, uint32_t to2, bool same) {
      for (uint32_t p = from; p < to; ++p)
        for (uint32_t q = same ? p + 1 : from2; q < to2; ++q) {
          const uint64_t x = hash[order[p]], y = hash[order[q]];
          if (distance(x, y) <= k && first_table(x, y) == t)
            emit(hashed[order[p]], hashed[order[q]]);
        }
    };
    for (uint32_t b = 0; b < buckets; ++b) {
      if (start[b] == start[b + 1]) continue;
      join(start[b], start[b + 1], start[b], start[b + 1], true);
      if (sub < 1) continue;
      for (int bit = 0; bit < table.width; ++bit) {
        const uint32_t other = b ^ (1u << bit);
        if (other > b) join(start[b], start[b + 1], start[other], start[other + 1], false);
      }
    }
  }
}

std::string block_value(const Item& item, const AttrRef& ref, bool& missing) {
  switch (ref.kind) {
    case AttrRef::Kind::string: {
      const auto& v = item.get(ref.string_attr);
      if (!v) missing = true;
      return v ? *v : "";
    }
    case AttrRef::Kind::number: {
      const auto& v = item.get(ref.number_attr);
      if (!v) missing = true;
      return v ? std::to_string(*v) : "";
    }
    case AttrRef::Kind::phash:
      if (!item.phash) missing = true;
      return item.phash ? std::to_string(*item.phash) : "";
    case AttrRef::Kind::collection:
      return "";  // value sets intersect: not a key
  }
  return "";
}

Narrowing narrowing(const Expr& branch) {
  Narrowing n;
  std::vector<ExprPtr> parts;
  conjuncts(ExprPtr(std::shared_ptr<const Expr>{}, &branch), parts);
  for (const auto& p : parts) {
    if (p->kind == Expr::Kind::same)
      for (const AttrRef& r : p->attrs)
        if (r.kind != AttrRef::Kind::collection) n.keys.push_back(r);
    if (auto k = hamming_bound(*p)) n.hamming = std::min(n.hamming.value_or(64), *k);
    if (auto t = text_bound(*p); t && !n.text) n.text = t->text, n.share = t->share;
    if (p->kind == Expr::Kind::any_of && !n.alternatives) n.alternatives = p.get();
  }
  return n;
}

Candidates candidate_pairs(const Expr& e, std::span<const Item> items, uint64_t pair_budget,
                           const SpillOptions& spill, const ItemTexts* texts) {
  Candidates out;
  std::vector<uint32_t> ids(items.size());
  std::iota(ids.begin(), ids.end(), uint32_t{0});
  // The generator walks shared pointers; wrap the root without copying it.
  ExprPtr root(std::shared_ptr<const Expr>{}, &e);
  Generator(items, pair_budget, spill, texts, out).run(root, ids);
  std::sort(out.pairs.begin(), out.pairs.end());
  out.pairs.erase(std::unique(out.pairs.begin(), out.pairs.end()), out.pairs.end());
  std::sort(out.capped.begin(), out.capped.end());
  out.capped.erase(std::unique(out.capped.begin(), out.capped.end()), out.capped.end());
  return out;
}

}  // namespace strata::cover
