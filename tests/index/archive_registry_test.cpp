// The archive registry: what is registered, older "1" values, long keys, relocation.
#include "index/archive_registry.hpp"

#include <gtest/gtest.h>

#include "index/schema.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

TEST(ArchiveRegistry, RegistersOnceWithSizeAndFormat) {
  const fs::path dir = testing::scratch_dir();
  testing::write_file(dir / "a.warc", "WARC/1.1\r\n");
  Xapian::WritableDatabase db((dir / "idx").string(), Xapian::DB_CREATE_OR_OPEN);
  const std::string key = (dir / "a.warc").string();
  register_archive(db, key);
  testing::write_file(dir / "a.warc", "WARC/1.1\r\n\r\n");  // registered already: kept
  register_archive(db, key);
  auto e = registered_archive(db, key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->path, key);
  EXPECT_EQ(e->size, 10u);
  EXPECT_EQ(e->format, "plain");
  EXPECT_FALSE(registered_archive(db, key + ".other"));
}

TEST(ArchiveRegistry, OlderValuesAndLongKeys) {
  const fs::path dir = testing::scratch_dir();
  Xapian::WritableDatabase db((dir / "idx").string(), Xapian::DB_CREATE_OR_OPEN);
  db.set_metadata(std::string(kMetaArchivePrefix) + "/old/a.warc.gz", "1");
  auto old = registered_archive(db, "/old/a.warc.gz");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->path, "/old/a.warc.gz");
  EXPECT_EQ(old->size, 0u);  // unknown: any size is accepted at that path
  const std::string long_key = "/" + std::string(300, 'x') + ".wacz#archive/data.warc.gz";
  register_archive(db, long_key);
  auto e = registered_archive(db, long_key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key, long_key);
  EXPECT_EQ(e->path, "/" + std::string(300, 'x') + ".wacz");
  EXPECT_EQ(registered_archives(db).size(), 2u);
}

TEST(ArchiveRegistry, RelocateRewritesPathsUnderAFolderOnly) {
  const fs::path dir = testing::scratch_dir();
  Xapian::WritableDatabase db((dir / "idx").string(), Xapian::DB_CREATE_OR_OPEN);
  for (const char* key :
       {"/data/c1/a.warc.gz", "/data/c1/sub/b.wacz#archive/x.warc.gz", "/data/c10/c.warc.gz"})
    register_archive(db, key);
  EXPECT_EQ(relocate_archives(db, "/data/c1/", "/mnt/new"), 2u);
  EXPECT_EQ(registered_archive(db, "/data/c1/a.warc.gz")->path, "/mnt/new/a.warc.gz");
  EXPECT_EQ(registered_archive(db, "/data/c1/sub/b.wacz#archive/x.warc.gz")->path,
            "/mnt/new/sub/b.wacz");
  EXPECT_EQ(registered_archive(db, "/data/c10/c.warc.gz")->path, "/data/c10/c.warc.gz");
  EXPECT_EQ(relocate_archives(db, "/mnt/new/a.warc.gz", "/srv/a.warc.gz"), 1u);
  EXPECT_EQ(registered_archive(db, "/data/c1/a.warc.gz")->path, "/srv/a.warc.gz");
}

}  // namespace
}  // namespace strata::index
