#include "index/sharded_build.hpp"

#include <gtest/gtest.h>
#include <xapian.h>

#include "index/schema.hpp"
#include "numbered_document.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

using testing::numbered_document;

TEST(ShardedBuild, ShardsMergeIntoOneIndexSharingTheDictionary) {
  const uint64_t n = IndexWriter::kDictionarySamples * 3;
  const fs::path dir = strata::testing::scratch_dir();
  ShardedBuild options;
  options.jobs = 3;
  options.commit_every = 2500;
  build_sharded(dir / "index", n, numbered_document, options);
  EXPECT_FALSE(fs::exists(dir / "index.shard-0"));
  EXPECT_FALSE(fs::exists(dir / "index.shard-2"));
  Xapian::Database db((dir / "index").string());
  EXPECT_EQ(db.get_doccount(), n);
  EXPECT_EQ(db.get_metadata(std::string(kMetaSchema)), kSchemaVersion);
  EXPECT_EQ(db.get_termfreq("farol"), n);
  IndexWriter reopened(dir / "index");
  ASSERT_TRUE(reopened.has_dictionary());
  for (uint64_t i : {uint64_t{0}, n / 2, n - 1}) {  // one document of each shard
    auto got = reopened.get(numbered_document(i).id);
    ASSERT_TRUE(got) << i;
    EXPECT_EQ(got->imgUrl, numbered_document(i).imgUrl);
  }
}

TEST(ShardedBuild, FewDocumentsGoIntoOneShardAndAnExistingTargetIsRefused) {
  const fs::path dir = strata::testing::scratch_dir();
  ShardedBuild options;
  options.jobs = 4;
  build_sharded(dir / "index", 10, numbered_document, options);
  EXPECT_FALSE(fs::exists(dir / "index.shard-1"));
  EXPECT_EQ(Xapian::Database((dir / "index").string()).get_doccount(), 10u);
  EXPECT_THROW(build_sharded(dir / "index", 10, numbered_document, options), std::runtime_error);
}

}  // namespace
}  // namespace strata::index
