#include "search/searcher.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "index/capture_dates.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "search/collapse.hpp"
#include "search/query_builder.hpp"
#include "search/query_text.hpp"
#include "search/redundancy.hpp"
#include "search/spy_tables.hpp"

namespace strata::search {
namespace {

// Matches checked beyond the requested page. Up to this many, totals and the years facet
// are exact; above it Xapian stops scoring documents that cannot reach the page (so a query
// with a very common word stays fast), the total is Xapian's estimate (Arquivo's totalItems
// is an estimate too) and the facet is scaled from the matches checked (docs/search.md).
constexpr Xapian::doccount kExactMatches = 10'000;

Hit to_hit(const Xapian::MSetIterator& it, const IndexParts& parts) {
  Hit hit;
  hit.score = it.get_weight();
  const Xapian::Document document = it.get_document();
  index::read_indexed_document(parts.stored(*it), document, hit.doc, hit.moderation);
  hit.group = document.get_value(index::slot::group);
  return hit;
}

// The years facet (a match counts once in every year it was captured:
// index/capture_dates.hpp): from the in-memory CaptureYears table where it applies (one local
// index), else Xapian's stock ValueCountMatchSpy on each capture-year slot in use, which a
// remote server can run too.
class YearsFacet {
 public:
  YearsFacet(const Xapian::Database& db, Xapian::Enquire& enquire, bool remote) {
    if (auto table = capture_years_of(db, remote)) {
      table_spy_.emplace(std::move(table));
      enquire.add_matchspy(&*table_spy_);
      return;
    }
    for (Xapian::valueno k = 0, n = index::capture_year_slots(db); k < n; ++k) {
      spies_.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(index::slot::capture_year + k));
      enquire.add_matchspy(spies_.back().get());
    }
  }
  YearsFacet(const YearsFacet&) = delete;
  YearsFacet& operator=(const YearsFacet&) = delete;

  // "yyyy" -> count, ascending, scaled up to `total` when Xapian stopped checking matches
  // (kExactMatches checked). Below that every match was counted: Xapian's estimate of the
  // matches before collapsing can be above their number, and is not used.
  std::vector<std::pair<std::string, uint64_t>> counts(uint64_t total) const {
    std::map<std::string, uint64_t> per_year;
    uint64_t checked = 0;
    if (table_spy_) {
      for (const auto& [value, n] : table_spy_->counts()) per_year[index::capture_year(value)] += n;
      checked = table_spy_->checked();
    } else if (!spies_.empty()) {
      for (const auto& spy : spies_)
        for (auto it = spy->values_begin(); it != spy->values_end(); ++it)
          per_year[index::capture_year(*it)] += it.get_termfreq();
      checked = spies_.front()->get_total();
    } else {
      return {};
    }
    const bool stopped = checked >= kExactMatches && total > checked;
    const double scale = stopped ? static_cast<double>(total) / static_cast<double>(checked) : 1;
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& [year, n] : per_year)
      out.emplace_back(year, static_cast<uint64_t>(static_cast<double>(n) * scale + 0.5));
    return out;
  }

 private:
  std::optional<CaptureYearsSpy> table_spy_;
  std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>> spies_;
};

// The collapsed total without keeping every result: a match spy on the collapse key sees every
// match checked, collapsed or not, so the groups counted once are the matches checked, less
// the grouped ones, plus one per distinct group. Exact below kExactMatches: the matcher skips
// nothing until it has kept that many results (its count of kept results can run a little
// ahead when a better member replaces one it dropped; at 1M every total below it equals the
// old count: docs/BENCHMARKS.md, "Search"); above, Xapian's estimate. Over remote parts a
// stock ValueCountMatchSpy, which a remote shard can run.
class CollapsedTotal {
 public:
  CollapsedTotal(const Xapian::Database& db, Xapian::Enquire& enquire, bool remote) {
    if (auto table = group_members_of(db, remote)) {
      table_spy_.emplace(std::move(table));
      enquire.add_matchspy(&*table_spy_);
    } else {
      groups_.emplace(index::slot::group);
      enquire.add_matchspy(&*groups_);
    }
  }
  CollapsedTotal(const CollapsedTotal&) = delete;
  CollapsedTotal& operator=(const CollapsedTotal&) = delete;

  uint64_t total(const Xapian::MSet& mset) const {
    uint64_t checked = 0, grouped = 0, distinct = 0;
    if (table_spy_) {
      checked = table_spy_->checked(), grouped = table_spy_->grouped();
      distinct = table_spy_->distinct();
    } else {
      for (auto it = groups_->values_begin(); it != groups_->values_end(); ++it, ++distinct)
        grouped += it.get_termfreq();
      checked = groups_->get_total();
    }
    const uint64_t counted = checked - grouped + distinct;
    return counted < kExactMatches ? counted : mset.get_matches_estimated();
  }

 private:
  // From the in-memory GroupMembers table where it applies (one local index), else Xapian's
  // stock spy on the collapse key.
  std::optional<GroupCountSpy> table_spy_;
  std::optional<Xapian::ValueCountMatchSpy> groups_;
};

// Items fetched past the page, so that a run of equal weights at its end is usually whole.
constexpr Xapian::doccount kTieMargin = 50;

// The tie-break between hits of equal weight: oldest capture, then image URL, then docid.
class TieBreak {
 public:
  TieBreak() {
    key_.add_value(index::slot::timestamp);
    key_.add_value(index::slot::img_url);
  }
  Xapian::KeyMaker& key() { return key_; }

  // Items [from, from + n) of `mset` (items 0... of a ranking by weight alone, or by weight then
  // the timestamp value; equal ones in docid order) as the keyed ranking orders them: each run
  // of equal weights (and sort keys) that reaches the page sorted by key (stably: equal keys
  // stay in docid order). `complete`: `mset` holds every match. Nothing when a run reaches the
  // last item fetched and more may follow.
  std::optional<std::vector<Xapian::MSetIterator>> page(const Xapian::MSet& mset,
                                                        Xapian::doccount from, Xapian::doccount n,
                                                        bool complete) {
    const Xapian::doccount end = std::min(mset.size(), from + n);
    if (from >= end) return std::vector<Xapian::MSetIterator>{};
    auto same = [&](Xapian::doccount i, Xapian::doccount j) {
      return mset[i].get_weight() == mset[j].get_weight() &&
             mset[i].get_sort_key() == mset[j].get_sort_key();
    };
    Xapian::doccount run = from;
    while (run > 0 && same(run - 1, from)) --run;
    const Xapian::doccount first = run;
    std::vector<Xapian::MSetIterator> ordered;
    while (run < end) {
      Xapian::doccount run_end = run + 1;
      while (run_end < mset.size() && same(run_end, run)) ++run_end;
      if (run_end == mset.size() && !complete && run_end > end) return std::nullopt;
      for (Xapian::doccount i = run; i < run_end; ++i) ordered.push_back(mset[i]);
      if (run_end - run > 1) by_key(mset, ordered.end() - (run_end - run), ordered.end());
      run = run_end;
    }
    const auto skip = static_cast<std::ptrdiff_t>(from - first);
    return std::vector<Xapian::MSetIterator>(ordered.begin() + skip,
                                             ordered.begin() + skip + (end - from));
  }

 private:
  void by_key(const Xapian::MSet& mset, std::vector<Xapian::MSetIterator>::iterator begin,
              std::vector<Xapian::MSetIterator>::iterator end) {
    for (auto it = begin; it != end; ++it) mset.fetch(*it);  // pipelined: one round trip, remote
    std::vector<std::pair<std::string, Xapian::MSetIterator>> keyed;
    for (auto it = begin; it != end; ++it) keyed.emplace_back(key_(it->get_document()), *it);
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [key, item] : keyed) *begin++ = item;
  }

  Xapian::MultiValueKeyMaker key_;
};

// Ranking by weight alone: a keyed ranking makes Xapian build the tie-break key of every
// match it checks (~40 % of the CPU of a common word's query; docs/BENCHMARKS.md, "Search").
// The ties that reach the page are ordered afterwards, among the page and kTieMargin items
// after it, which gives the same page unless a run of equal weights at its end goes on past
// them; only then is the keyed ranking run (without the 10,000-match check: it does not
// change which documents rank first). Remote parts cannot run a keyed ranking: they rank by
// weight then first capture (a value slot) and the page's runs of equal weight and capture are
// ordered by the key, which differs from the keyed ranking only when such a run goes on past
// the margin (docs/scale.md).
std::vector<Xapian::MSetIterator> keyed_page(Xapian::Enquire& enquire, Xapian::MSet& mset,
                                             TieBreak& tie_break, const SearchRequest& request,
                                             bool remote) {
  enquire.clear_matchspies();
  if (remote) {
    enquire.set_sort_by_relevance_then_value(index::slot::timestamp, false);
    mset = enquire.get_mset(0, request.offset + request.max_items + kTieMargin);
    return *tie_break.page(mset, request.offset, request.max_items, true);
  }
  enquire.set_sort_by_relevance_then_key(&tie_break.key(), false);
  mset = enquire.get_mset(request.offset, request.max_items);
  std::vector<Xapian::MSetIterator> page;
  for (auto it = mset.begin(); it != mset.end(); ++it) page.push_back(it);
  return page;
}

}  // namespace

SearchResult search(Xapian::Database& db, const SearchRequest& request) {
  return search(db, IndexParts(db), request);
}

SearchResult search(Xapian::Database& db, const IndexParts& parts, const SearchRequest& request) {
  SearchRequest effective = request;
  ParsedQuery parsed = parse_q(request.q, effective);
  if (!effective.expand.empty() && !effective.redundancy)
    throw RequestError("expand", "expand needs redundancy");
  // The cover's page is taken after the cover: the search fetches the whole window.
  const SearchRequest covered = effective;
  if (covered.redundancy) effective.offset = 0, effective.max_items = covered.redundancy_window;
  Xapian::Enquire enquire(db);
  const Xapian::Query query = build_query(db, parsed, effective);
  enquire.set_query(query);
  const bool collapse = effective.collapse && effective.group.empty();
  if (collapse) enquire.set_collapse_key(index::slot::group);
  enquire.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.75, 0.5));
  std::optional<YearsFacet> years;
  if (effective.years_facet) years.emplace(db, enquire, parts.remote());
  // Xapian counts a group once only among the results it keeps (its collapsed count moves with
  // the page size); keeping kExactMatches results to count them made the matcher keep a heap
  // of that many and prune with the weight of the last of them (docs/BENCHMARKS.md, "Search").
  std::optional<CollapsedTotal> collapsed;
  if (collapse) collapsed.emplace(db, enquire, parts.remote());

  const Xapian::doccount fetch = effective.offset + effective.max_items + kTieMargin;
  Xapian::MSet mset = enquire.get_mset(0, fetch, kExactMatches);
  SearchResult result;
  result.total = collapsed ? collapsed->total(mset) : mset.get_matches_estimated();
  if (years) result.years = years->counts(mset.get_uncollapsed_matches_estimated());
  TieBreak tie_break;
  auto page = tie_break.page(mset, effective.offset, effective.max_items, mset.size() < fetch);
  if (!page) page = keyed_page(enquire, mset, tie_break, effective, parts.remote());
  // One pipelined round trip over remote shards. Only there: Xapian 1.4's MSet::fetch misreads
  // the items of an MSet that starts past the first result (the keyed page's) and crashes.
  if (parts.remote())
    for (const auto& it : *page) mset.fetch(it);
  for (const auto& it : *page) result.hits.push_back(to_hit(it, parts));
  if (collapse) show_best_members(db, query, result.hits, parts);
  count_group_sizes(db, result.hits);
  if (covered.redundancy) cover_results(result, covered);
  return result;
}

}  // namespace strata::search
