// Archive keys and finding archives again: moved under a root, missing, changed; a record
// whose URL is not the expected one is refused.
#include "archive/locate.hpp"

#include <gtest/gtest.h>

#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBooks = "archives/N0taN3rd__node-warc/test/files/books.toscrape.warc";

TEST(ArchiveKey, AbsoluteAndLexicallyNormal) {
  EXPECT_EQ(archive_key("/a/b/../c/./x.warc.gz"), "/a/c/x.warc.gz");
  EXPECT_EQ(archive_key("x.warc"), (fs::current_path() / "x.warc").string());
  EXPECT_EQ(container_of("/a/x.wacz#archive/data.warc.gz"), "/a/x.wacz");
  EXPECT_EQ(container_of("/a/x.warc.gz"), "/a/x.warc.gz");
}

TEST(LocateArchive, FoundMovedMissingChanged) {
  const fs::path work = testing::scratch_dir();
  fs::create_directories(work / "old" / "c1");
  testing::write_file(work / "old" / "c1" / "a.warc", "WARC/1.1\r\n");
  ArchiveEntry e = describe_archive(archive_key(work / "old" / "c1" / "a.warc"));
  EXPECT_EQ(e.size, 10u);
  EXPECT_EQ(e.format, "plain");
  EXPECT_GT(e.mtime, 0);
  EXPECT_EQ(locate_archive(e, {}).state, ArchiveState::found);

  fs::rename(work / "old", work / "new");
  Located missing = locate_archive(e, {});
  EXPECT_EQ(missing.state, ArchiveState::missing);
  EXPECT_EQ(missing.error, "archive missing: " + e.path);
  // Found by a suffix of its old path under the root: c1/a.warc, then a.warc.
  for (const fs::path& root : {work / "new", work / "new" / "c1"}) {
    Located moved = locate_archive(e, {work / "elsewhere", root});
    EXPECT_EQ(moved.state, ArchiveState::moved) << root;
    EXPECT_EQ(moved.file, (work / "new" / "c1" / "a.warc").string());
  }
  testing::write_file(work / "new" / "c1" / "a.warc", "WARC/1.1\r\n\r\n");
  Located changed = locate_archive(e, {work / "new"});
  EXPECT_EQ(changed.state, ArchiveState::changed);
  EXPECT_EQ(changed.error.rfind("archive changed: size 12, registered 10", 0), 0u) << changed.error;
}

TEST(LocateArchive, WaczMemberFollowsItsContainer) {
  const fs::path work = testing::scratch_dir();
  testing::write_zip(work / "x.wacz", {{"archive/data.warc", "WARC/1.1\r\n"}});
  ArchiveEntry e = describe_archive(archive_key(work / "x.wacz") + "#archive/data.warc");
  EXPECT_EQ(e.path, (work / "x.wacz").string());
  EXPECT_EQ(e.format, "wacz");
  fs::create_directories(work / "moved");
  fs::rename(work / "x.wacz", work / "moved" / "x.wacz");
  EXPECT_EQ(locate_archive(e, {work / "moved"}).file,
            (work / "moved" / "x.wacz").string() + "#archive/data.warc");
}

TEST(ReadCheckedRecord, AnotherRecordsBytesAreNeverGiven) {
  STRATA_REQUIRE_SHARED();
  const std::string books = testing::shared_data(kBooks).string();
  // The first record is the warcinfo; the second the page.
  auto reader = ArchiveReader::open(books, {}, {});
  ASSERT_TRUE(reader->next() && reader->next());
  const Record page = reader->record();
  CheckedRecord ok = read_checked_record(books, page.offset, page.target_uri);
  ASSERT_TRUE(ok.reader) << ok.error;
  CheckedRecord other = read_checked_record(books, page.offset, "http://books.toscrape.com/x.jpg");
  EXPECT_FALSE(other.reader);
  EXPECT_EQ(other.error.rfind("archive changed: the record at " + books, 0), 0u) << other.error;
  // An offset that is no record start is not read at all (no resynchronising to the next).
  CheckedRecord inside = read_checked_record(books, page.offset + 7, page.target_uri);
  EXPECT_FALSE(inside.reader);
  EXPECT_EQ(inside.error.rfind("archive record not readable", 0), 0u) << inside.error;
}

}  // namespace
}  // namespace strata::archive
