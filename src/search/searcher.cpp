#include "search/searcher.hpp"

#include <map>

#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "index/timestamp_value.hpp"
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

// Counts the checked matches per capture year, read from the capture-time value (its first
// two bytes hold the year's four digits), so the index needs no year slot of its own.
class YearsSpy : public Xapian::MatchSpy {
 public:
  void operator()(const Xapian::Document& doc, double) override {
    const std::string packed = doc.get_value(index::slot::timestamp);
    ++checked_;
    if (packed.size() >= 2) ++counts_[packed.substr(0, 2)];  // packed years sort as years
  }
  Xapian::MatchSpy* clone() const override { return new YearsSpy; }
  std::string name() const override { return "strata.YearsSpy"; }

  // "yyyy" -> count, ascending, scaled up to `total` when fewer matches were checked.
  std::vector<std::pair<std::string, uint64_t>> counts(uint64_t total) const {
    const double checked = static_cast<double>(checked_);
    const double scale = checked > 0 && total > checked ? static_cast<double>(total) / checked : 1;
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& [year, n] : counts_)
      out.emplace_back(index::unpack_timestamp(year),
                       static_cast<uint64_t>(static_cast<double>(n) * scale + 0.5));
    return out;
  }

 private:
  uint64_t checked_ = 0;
  std::map<std::string, uint64_t> counts_;
};

}  // namespace

SearchResult search(Xapian::Database& db, const SearchRequest& request) {
  SearchRequest effective = request;
  ParsedQuery parsed = parse_q(request.q, effective);
  Xapian::Enquire enquire(db);
  enquire.set_query(build_query(parsed, effective));
  enquire.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.75, 0.5));
  Xapian::MultiValueKeyMaker sorter;
  sorter.add_value(index::slot::timestamp);
  sorter.add_value(index::slot::img_url);
  enquire.set_sort_by_relevance_then_key(&sorter, false);
  YearsSpy years;
  if (effective.years_facet) enquire.add_matchspy(&years);

  Xapian::MSet mset = enquire.get_mset(effective.offset, effective.max_items, kExactMatches);
  SearchResult result;
  result.total = mset.get_matches_estimated();
  const index::StoredData stored(db);
  for (auto it = mset.begin(); it != mset.end(); ++it) result.hits.push_back(to_hit(it, stored));
  if (effective.years_facet) result.years = years.counts(result.total);
  return result;
}

}  // namespace strata::search
