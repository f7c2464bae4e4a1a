#include "search/collapse.hpp"

#include <map>

#include "index/near_duplicate_groups.hpp"
#include "index/schema.hpp"

namespace strata::search {
namespace {

std::string member_term(const std::string& group) {
  const auto leader = index::group_leader(group);
  return leader ? index::group_term(*leader) : std::string();
}

}  // namespace

void count_group_sizes(const Xapian::Database& db, std::vector<Hit>& hits) {
  for (Hit& hit : hits)
    if (const std::string term = member_term(hit.group); !term.empty())
      hit.group_size = std::max<uint64_t>(1, db.get_termfreq(term));
}

void show_best_members(const Xapian::Database& db, const Xapian::Query& query,
                       std::vector<Hit>& hits, const index::StoredData& stored) {
  std::vector<Xapian::Query> groups;
  for (const Hit& hit : hits)
    if (const std::string term = member_term(hit.group); !term.empty()) groups.emplace_back(term);
  if (groups.empty()) return;
  Xapian::Enquire enquire(db);
  enquire.set_query(
      Xapian::Query(Xapian::Query::OP_FILTER, query,
                    Xapian::Query(Xapian::Query::OP_OR, groups.begin(), groups.end())));
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  Xapian::MultiValueKeyMaker best;
  best.add_value(index::slot::area, true);  // largest first
  best.add_value(index::slot::timestamp);
  best.add_value(index::slot::img_url);
  enquire.set_sort_by_key(&best, false);
  enquire.set_collapse_key(index::slot::group);
  // Match spies see every match, collapsed or not: the members per group.
  Xapian::ValueCountMatchSpy members(index::slot::group);
  enquire.add_matchspy(&members);
  const Xapian::MSet mset =
      enquire.get_mset(0, static_cast<Xapian::doccount>(groups.size()), db.get_doccount());
  std::map<std::string, Xapian::Document> best_of;
  for (auto it = mset.begin(); it != mset.end(); ++it)
    best_of.emplace(it.get_collapse_key(), it.get_document());
  std::map<std::string, uint64_t> matches;
  for (auto it = members.values_begin(); it != members.values_end(); ++it)
    matches[*it] = it.get_termfreq();
  for (Hit& hit : hits) {
    const auto found = best_of.find(hit.group);
    if (found == best_of.end()) continue;
    merge::ImageDocument doc;
    index::Moderation moderation;
    if (index::parse_document_data(stored.unpack(found->second.get_data()), doc, moderation)) {
      hit.doc = std::move(doc);
      hit.moderation = std::move(moderation);
    }
    hit.group_matches = matches[hit.group];
  }
}

}  // namespace strata::search
