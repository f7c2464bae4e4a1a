// A first index is made beside its folder and renamed into place; what a killed first run
// left is repaired; missing, empty and damaged folders are told apart from an index.
#include "index/new_index.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "index/moderation.hpp"
#include "index/writer.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& file) {
  std::ofstream(file) << "x\n";
}

TEST(NewIndex, BuildsBesideTheFolderAndRepairsAKilledFirstRun) {
  const fs::path dir = testing::scratch_dir() / "idx";
  fs::create_directories(dir);
  touch(dir / "iamglass");  // a half-made Xapian database
  touch(dir / "records.sqlite");
  touch(dir / "blocklist.txt");
  fs::create_directories(dir.parent_path() / "idx.creating");  // a killed earlier try
  touch(dir.parent_path() / "idx.creating" / "stale");
  EXPECT_FALSE(index_problem(dir).empty());
  NewIndex target(dir);
  ASSERT_TRUE(target.problem().empty());
  EXPECT_EQ(target.folder(), dir.parent_path() / "idx.creating");
  EXPECT_FALSE(fs::exists(target.folder() / "stale"));
  EXPECT_TRUE(fs::exists(target.folder() / "blocklist.txt"));  // carried over
  IndexWriter(target.folder()).set_metadata("k", "v");
  ASSERT_TRUE(target.put_in_place());
  EXPECT_TRUE(index_problem(dir).empty());
  EXPECT_FALSE(fs::exists(dir.parent_path() / "idx.creating"));
  EXPECT_EQ(NewIndex(dir).folder(), dir);  // an index: written in place
}

TEST(NewIndex, LeavesAFolderWithOtherFilesAlone) {
  const fs::path dir = testing::scratch_dir() / "home";
  fs::create_directories(dir);
  touch(dir / "thesis.tex");
  NewIndex target(dir);
  EXPECT_NE(target.problem().find("thesis.tex"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "thesis.tex"));
}

TEST(NewIndex, MissingEmptyAndDamagedIndexesAreOneClearLine) {
  const fs::path dir = testing::scratch_dir();
  EXPECT_NE(index_problem(dir / "missing").find("no index folder"), std::string::npos);
  fs::create_directories(dir / "empty");
  EXPECT_NE(index_problem(dir / "empty").find("empty folder"), std::string::npos);
  fs::create_directories(dir / "damaged");
  touch(dir / "damaged" / "iamglass");
  EXPECT_NE(index_problem(dir / "damaged").find("no readable index"), std::string::npos);
}

}  // namespace
}  // namespace strata::index
