#include "search/collapse.hpp"

#include <algorithm>
#include <map>

#include "index/near_duplicate_groups.hpp"
#include "index/schema.hpp"

namespace strata::search {
namespace {

std::string member_term(const std::string& group) {
  const auto leader = index::group_leader(group);
  return leader ? index::group_term(*leader) : std::string();
}

// A group's best member: largest first, then oldest capture, then image URL.
class BestKey {
 public:
  BestKey() {
    key_.add_value(index::slot::area, true);
    key_.add_value(index::slot::timestamp);
    key_.add_value(index::slot::img_url);
  }
  Xapian::KeyMaker& key() { return key_; }

 private:
  Xapian::MultiValueKeyMaker key_;
};

using Member = std::pair<Xapian::docid, Xapian::Document>;
using BestMembers = std::map<std::string, Member>;  // slot::group value -> its best match

// Xapian ranks the matches by the key and keeps each group's first.
BestMembers best_by_key(const Xapian::Database& db, Xapian::Enquire& enquire, size_t groups) {
  BestKey best;
  enquire.set_sort_by_key(&best.key(), false);
  enquire.set_collapse_key(index::slot::group);
  const Xapian::MSet mset =
      enquire.get_mset(0, static_cast<Xapian::doccount>(groups), db.get_doccount());
  BestMembers out;
  for (auto it = mset.begin(); it != mset.end(); ++it)
    out.emplace(it.get_collapse_key(), Member{*it, it.get_document()});
  return out;
}

// Candidates kept per group where a key cannot be sorted on (remote parts).
constexpr Xapian::doccount kBestCandidates = 16;

std::vector<Member> members_of(const Xapian::MSet& mset) {
  mset.fetch();  // pipelined: one round trip, remote
  std::vector<Member> out;
  for (auto it = mset.begin(); it != mset.end(); ++it) out.emplace_back(*it, it.get_document());
  return out;
}

// Every match of the group as large as `area` (a slot::area value).
std::vector<Member> matches_of_area(const Xapian::Database& db, const Xapian::Query& query,
                                    const std::string& group, const std::string& area) {
  using Q = Xapian::Query;
  Xapian::Enquire enquire(db);
  enquire.set_query(
      Q(Q::OP_FILTER, query,
        Q(Q::OP_AND, Q(member_term(group)), Q(Q::OP_VALUE_RANGE, index::slot::area, area, area))));
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  return members_of(enquire.get_mset(0, db.get_doccount()));
}

// Xapian keeps each group's kBestCandidates largest matches (a single value sorts remotely);
// the key picks among the largest. When all candidates are as large as the first, more may be:
// then every match of that size is compared.
BestMembers best_of_largest(const Xapian::Database& db, const Xapian::Query& query,
                            Xapian::Enquire& enquire, size_t groups) {
  enquire.set_sort_by_value(index::slot::area, true);
  enquire.set_collapse_key(index::slot::group, kBestCandidates);
  std::map<std::string, std::vector<Member>> candidates;
  const auto fetch = static_cast<Xapian::doccount>(groups) * kBestCandidates;
  for (Member& m : members_of(enquire.get_mset(0, fetch, db.get_doccount())))
    candidates[m.second.get_value(index::slot::group)].push_back(std::move(m));
  BestKey best;
  BestMembers out;
  for (auto& [group, members] : candidates) {
    const std::string largest = members.front().second.get_value(index::slot::area);
    std::erase_if(
        members, [&](const Member& m) { return m.second.get_value(index::slot::area) != largest; });
    if (members.size() == kBestCandidates) members = matches_of_area(db, query, group, largest);
    out.emplace(group, *std::min_element(members.begin(), members.end(),
                                         [&](const Member& a, const Member& b) {
                                           return best.key()(a.second) < best.key()(b.second);
                                         }));
  }
  return out;
}

}  // namespace

void count_group_sizes(const Xapian::Database& db, std::vector<Hit>& hits) {
  for (Hit& hit : hits)
    if (const std::string term = member_term(hit.group); !term.empty())
      hit.group_size = std::max<uint64_t>(1, db.get_termfreq(term));
}

void show_best_members(const Xapian::Database& db, const Xapian::Query& query,
                       std::vector<Hit>& hits, const IndexParts& parts) {
  std::vector<Xapian::Query> groups;
  for (const Hit& hit : hits)
    if (const std::string term = member_term(hit.group); !term.empty()) groups.emplace_back(term);
  if (groups.empty()) return;
  Xapian::Enquire enquire(db);
  enquire.set_query(
      Xapian::Query(Xapian::Query::OP_FILTER, query,
                    Xapian::Query(Xapian::Query::OP_OR, groups.begin(), groups.end())));
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  // Match spies see every match, collapsed or not: the members per group.
  Xapian::ValueCountMatchSpy members(index::slot::group);
  enquire.add_matchspy(&members);
  const BestMembers best_of = parts.remote() ? best_of_largest(db, query, enquire, groups.size())
                                             : best_by_key(db, enquire, groups.size());
  std::map<std::string, uint64_t> matches;
  for (auto it = members.values_begin(); it != members.values_end(); ++it)
    matches[*it] = it.get_termfreq();
  for (Hit& hit : hits) {
    const auto found = best_of.find(hit.group);
    if (found == best_of.end()) continue;
    merge::ImageDocument doc;
    index::Moderation moderation;
    const auto& [docid, document] = found->second;
    if (index::read_indexed_document(parts.stored(docid), document, doc, moderation)) {
      hit.doc = std::move(doc);
      hit.moderation = std::move(moderation);
    }
    hit.group_matches = matches[hit.group];
  }
}

}  // namespace strata::search
