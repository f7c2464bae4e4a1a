#include "search/searcher.hpp"

#include <map>
#include <memory>
#include <optional>

#include "index/capture_dates.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "search/query_builder.hpp"
#include "search/query_text.hpp"

namespace strata::search {
namespace {

// Matches checked beyond the requested page. Up to this many, totals and the years facet
// are exact; above it Xapian stops scoring documents that cannot reach the page (so a query
// with a very common word stays fast), the total is Xapian's estimate (Arquivo's totalItems
// is an estimate too) and the facet is scaled from the matches checked (docs/search.md).
constexpr Xapian::doccount kExactMatches = 10'000;

Hit to_hit(const Xapian::MSetIterator& it, const index::StoredData& stored) {
  Hit hit;
  hit.score = it.get_weight();
  index::parse_document_data(stored.unpack(it.get_document().get_data()), hit.doc, hit.moderation);
  return hit;
}

// The years facet: Xapian's ValueCountMatchSpy on each capture-year slot in use (a document
// counts once in every year it was captured: index/capture_dates.hpp), so a stock remote
// server can count it too.
class YearsFacet {
 public:
  YearsFacet(const Xapian::Database& db, Xapian::Enquire& enquire) {
    for (Xapian::valueno k = 0, n = index::capture_year_slots(db); k < n; ++k) {
      spies_.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(index::slot::capture_year + k));
      enquire.add_matchspy(spies_.back().get());
    }
  }
  YearsFacet(const YearsFacet&) = delete;
  YearsFacet& operator=(const YearsFacet&) = delete;

  // "yyyy" -> count, ascending, scaled up to `total` when fewer matches were checked.
  std::vector<std::pair<std::string, uint64_t>> counts(uint64_t total) const {
    if (spies_.empty()) return {};
    std::map<std::string, uint64_t> per_year;
    for (const auto& spy : spies_)
      for (auto it = spy->values_begin(); it != spy->values_end(); ++it)
        per_year[index::capture_year(*it)] += it.get_termfreq();
    const auto checked = static_cast<double>(spies_.front()->get_total());
    const double scale = checked > 0 && total > checked ? static_cast<double>(total) / checked : 1;
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& [year, n] : per_year)
      out.emplace_back(year, static_cast<uint64_t>(static_cast<double>(n) * scale + 0.5));
    return out;
  }

 private:
  std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>> spies_;
};

}  // namespace

SearchResult search(Xapian::Database& db, const SearchRequest& request) {
  SearchRequest effective = request;
  ParsedQuery parsed = parse_q(request.q, effective);
  Xapian::Enquire enquire(db);
  enquire.set_query(build_query(db, parsed, effective));
  enquire.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.75, 0.5));
  Xapian::MultiValueKeyMaker sorter;
  sorter.add_value(index::slot::timestamp);
  sorter.add_value(index::slot::img_url);
  enquire.set_sort_by_relevance_then_key(&sorter, false);
  std::optional<YearsFacet> years;
  if (effective.years_facet) years.emplace(db, enquire);

  Xapian::MSet mset = enquire.get_mset(effective.offset, effective.max_items, kExactMatches);
  SearchResult result;
  result.total = mset.get_matches_estimated();
  const index::StoredData stored(db);
  for (auto it = mset.begin(); it != mset.end(); ++it) result.hits.push_back(to_hit(it, stored));
  if (years) result.years = years->counts(result.total);
  return result;
}

}  // namespace strata::search
