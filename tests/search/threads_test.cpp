// Searches on several threads at once, each with its own Database, as `strata serve`'s
// workers run them: nothing they build may share a non-atomic reference count.
#include <atomic>
#include <thread>

#include "search/query_builder.hpp"
#include "search/query_text.hpp"
#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

// Xapian::Query::MatchAll is a static with a plain reference count: copies of it made on
// several threads corrupted it (the segfaults of `strata serve` under the web UI tests).
TEST(SearchThreads, QueryWithoutWordsDoesNotShareTheStaticMatchAll) {
  SearchRequest r;
  const Xapian::Query all = text_query(parse_q("", r));
  EXPECT_EQ(all.get_type(), Xapian::Query::LEAF_MATCH_ALL);
  EXPECT_NE(all.internal.get(), Xapian::Query::MatchAll.internal.get());
}

class SearchThreadsOnIndex : public SearchTest {};

TEST_F(SearchThreadsOnIndex, ConcurrentSearchesWithoutWordsFindEveryDocument) {
  add({doc("a", "20100101000000"), doc("b", "20110101000000"), doc("c", "20120101000000")});
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      Xapian::Database db(dir_.string());
      for (int i = 0; i < 200; ++i)
        if (search(db, SearchRequest{}).total != 3) ++wrong;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace strata::search::testing
