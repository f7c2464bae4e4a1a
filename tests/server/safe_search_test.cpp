// Safe search as the operator sets it (ApiConfig): the default, the lock, repeated
// parameters (any "on" wins) and the inline safe: operator (the parameter and the lock win).
#include <gtest/gtest.h>

#include "core/json.hpp"
#include "index/writer.hpp"
#include "sample_docs.hpp"
#include "server/api.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

using V = std::vector<std::string>;

class SafeSearch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(strata::testing::scratch_dir() / "index");
    index::IndexWriter w(*dir_);
    // "safe" is classified safe; "nsfw" is hidden by safe search.
    w.set_moderate([](const merge::ImageDocument& d, index::Moderation& m) {
      m.safe = d.id == "safe" ? 0.1 : 0.9;
    });
    w.add(testing::doc("safe", "20100101000000", "praia"));
    w.add(testing::doc("nsfw", "20200101000000", "praia"));
  }
  static void TearDownTestSuite() { delete dir_; }

  // Digests found for a query string "k=v&k=v" under `config`.
  V found(const std::string& query, const ApiConfig& config = {}) {
    Params params;
    for (const auto& pair : split_pairs(query)) {
      size_t eq = pair.find('=');
      params.emplace(pair.substr(0, eq), pair.substr(eq + 1));
    }
    Xapian::Database db(dir_->string());
    Reply r = image_search(db, params, {"http://x", "/imagesearch"}, config);
    EXPECT_EQ(r.status, 200) << query << " " << r.body;
    V out;
    const Json reply = Json::parse(r.body);
    for (const auto& i : reply["responseItems"]) out.push_back(i["imgDigest"]);
    return out;
  }
  static std::vector<std::string> split_pairs(const std::string& q) {
    std::vector<std::string> out;
    for (size_t start = 0; start < q.size();) {
      size_t amp = q.find('&', start);
      if (amp == std::string::npos) amp = q.size();
      out.push_back(q.substr(start, amp - start));
      start = amp + 1;
    }
    return out;
  }
  static std::filesystem::path* dir_;
};
std::filesystem::path* SafeSearch::dir_ = nullptr;

const V kSafe{"safe"}, kBoth{"safe", "nsfw"};

TEST_F(SafeSearch, DefaultOnClientsMayTurnItOff) {
  EXPECT_EQ(found("q=praia"), kSafe);
  EXPECT_EQ(found("q=praia&safeSearch=off"), kBoth);
  EXPECT_EQ(found("q=praia safe:off"), kBoth);  // no parameter: the operator applies
}

TEST_F(SafeSearch, RepeatedParameterAnyOnWins) {
  EXPECT_EQ(found("q=praia&safeSearch=off&safeSearch=on"), kSafe);  // appended by a proxy
  EXPECT_EQ(found("q=praia&safeSearch=on&safeSearch=off"), kSafe);
  EXPECT_EQ(found("q=praia&safeSearch=off&safeSearch=off"), kBoth);
}

TEST_F(SafeSearch, ParameterWinsOverInlineOperator) {
  EXPECT_EQ(found("q=praia safe:off&safeSearch=on"), kSafe);
  EXPECT_EQ(found("q=praia safe:on&safeSearch=off"), kBoth);
}

ApiConfig policy(bool safe_search, bool locked) {
  ApiConfig c;
  c.safe_search = safe_search;
  c.safe_search_locked = locked;
  return c;
}

TEST_F(SafeSearch, OperatorDefaultOffClientsMayTurnItOn) {
  const ApiConfig off = policy(false, false);
  EXPECT_EQ(found("q=praia", off), kBoth);
  EXPECT_EQ(found("q=praia&safeSearch=on", off), kSafe);
  EXPECT_EQ(found("q=praia safe:on", off), kSafe);
}

TEST_F(SafeSearch, LockWinsOverParameterAndOperator) {
  for (const char* q :
       {"q=praia&safeSearch=off", "q=praia safe:off", "q=praia safe:off&safeSearch=off"})
    EXPECT_EQ(found(q, policy(true, true)), kSafe) << q;
  EXPECT_EQ(found("q=praia&safeSearch=on", policy(false, true)), kBoth);
}

TEST_F(SafeSearch, OtherRepeatedParametersLastWins) {
  EXPECT_EQ(found("q=praia&safeSearch=off&maxItems=0&maxItems=1").size(), 1u);
  EXPECT_EQ(found("q=praia&safeSearch=off&from=2015&from=2005"), kBoth);
}

}  // namespace
}  // namespace strata::server
