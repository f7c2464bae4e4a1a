#include "search/searcher.hpp"

#include "index/schema.hpp"
#include "search/query_builder.hpp"
#include "search/query_text.hpp"

namespace strata::search {
namespace {

Hit to_hit(const Xapian::MSetIterator& it) {
  Hit hit;
  hit.score = it.get_weight();
  index::parse_document_data(it.get_document().get_data(), hit.doc, hit.moderation);
  return hit;
}

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
  Xapian::ValueCountMatchSpy years(index::slot::year);
  if (effective.years_facet) enquire.add_matchspy(&years);

  Xapian::MSet mset = enquire.get_mset(effective.offset, effective.max_items, db.get_doccount());
  SearchResult result;
  result.total = mset.get_matches_estimated();
  for (auto it = mset.begin(); it != mset.end(); ++it) result.hits.push_back(to_hit(it));
  if (effective.years_facet)
    for (auto it = years.values_begin(); it != years.values_end(); ++it)
      result.years.emplace_back(*it, it.get_termfreq());
  return result;
}

}  // namespace strata::search
