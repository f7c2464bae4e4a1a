// A write regroups only what it changed (index/group_table.hpp, similar/regroup.hpp), and the
// stored groups stay exactly those of a whole regroup of the same documents: random batches of
// added, replaced (larger, earlier), re-analysed (new pHash) and removed documents, each
// checked against group_near_duplicates over the index's documents.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>

#include "analyze/phash.hpp"
#include "index/compact.hpp"
#include "index/group_table.hpp"
#include "index/near_duplicate_groups.hpp"
#include "index/schema.hpp"
#include "index/writer.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

struct Image {
  int side = 100;
  uint64_t phash = 0;
  std::string ts;
};

merge::ImageDocument document(const std::string& id, const Image& image) {
  merge::ImageDocument d;
  d.id = d.imgDigest = id;
  d.imgUrl = "http://example.pt/" + id + ".jpg";
  d.imgMimeType = "image/jpeg";
  d.imgWidth = d.imgHeight = image.side;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = image.ts;
  d.collection = {"c"};
  return d;
}

// Documents along random walks of a few bits a step, so that leadership cascades.
class Corpus {
 public:
  explicit Corpus(uint64_t seed) : rng_(seed) {
    for (int c = 0; c < 4; ++c) centres_.push_back(0x00ff00ff00ff00ffULL ^ rng_() % 0xffff);
  }
  uint64_t walk() {
    uint64_t& centre = centres_[rng_() % centres_.size()];
    for (int b = int(rng_() % 5); b > 0; --b) centre ^= uint64_t{1} << (rng_() % 64);
    return centre;
  }
  Image fresh() {
    static constexpr int kSides[] = {20, 64, 100, 100, 300};
    return {kSides[rng_() % 5], walk(), "2010010" + std::to_string(1 + rng_() % 4) + "000000"};
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  std::vector<uint64_t> centres_;
};

// id -> the group a whole regroup of `images` gives (leader pHash in hex, "" alone).
std::map<std::string, std::string> whole_groups(const std::map<std::string, Image>& images) {
  std::vector<similar::Image> keys;
  for (const auto& [id, image] : images) {
    Moderation m;
    m.phash = image.phash;
    keys.push_back(*grouping_image(document(id, image), m));
  }
  const auto grouping = similar::group_near_duplicates(keys);
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < keys.size(); ++i)
    out[keys[i].digest] =
        grouping.size[i] >= 2 ? analyze::phash_hex(keys[grouping.leader[i]].phash) : "";
  return out;
}

// id -> stored group (value and term checked to agree).
std::map<std::string, std::string> stored_groups(const fs::path& dir) {
  Xapian::Database db(dir.string());
  std::map<std::string, std::string> out;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document xd = db.get_document(*it);
    std::string id, hex;
    for (auto t = xd.termlist_begin(); t != xd.termlist_end(); ++t) {
      if ((*t).rfind(prefix::near_duplicate_group, 0) == 0) hex = (*t).substr(1);
      if ((*t).rfind(prefix::id, 0) == 0) id = (*t).substr(1);
    }
    const auto leader = group_leader(xd.get_value(slot::group));
    EXPECT_EQ(leader ? analyze::phash_hex(*leader) : "", hex) << id;
    out[id] = hex;
  }
  return out;
}

TEST(IncrementalRegroup, EveryBatchGivesTheWholeRegroupsGroups) {
  uint64_t regrouped = 0, hashed = 0, grouped = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Corpus corpus(seed);
    const fs::path dir = strata::testing::scratch_dir() / ("seed-" + std::to_string(seed));
    std::map<std::string, Image> images;
    uint64_t next = 0;
    for (int batch = 0; batch < 12; ++batch) {
      IndexWriter writer(dir);
      writer.set_moderate([&](const merge::ImageDocument& d, Moderation& m) {
        m.safe = 0;
        m.phash = images.at(d.id).phash;
      });
      writer.begin();
      for (int k = int(corpus.rng()() % 15); k > 0; --k) {
        const std::string id = "i" + std::to_string(next++);
        images[id] = corpus.fresh();
        writer.add(document(id, images[id]));
      }
      for (int k = int(corpus.rng()() % 6); k > 0 && !images.empty(); --k) {
        auto it = std::next(images.begin(), long(corpus.rng()() % images.size()));
        const std::string id = it->first;
        switch (corpus.rng()() % 4) {
          case 0:  // removed, as `collection remove` deletes a digest
            ASSERT_TRUE(writer.remove(id));
            images.erase(it);
            break;
          case 1: {  // late analysis: a new pHash
            it->second.phash = corpus.walk();
            Moderation m;
            m.safe = 0;
            m.phash = it->second.phash;
            ASSERT_TRUE(writer.set_moderation(id, m));
            break;
          }
          default:  // rebuilt from more records: a larger copy, an earlier capture
            it->second.side += 50;
            it->second.ts = "20090101000000";
            writer.replace(*writer.docid_of(id), document(id, it->second));
        }
      }
      const RegroupReport report = writer.regroup_near_duplicates();
      writer.commit();
      EXPECT_EQ(report.whole, batch == 0) << seed << " " << batch;
      regrouped += report.regrouped, hashed += report.hashed, grouped += report.grouped;
      ASSERT_EQ(stored_groups(dir), whole_groups(images)) << "seed " << seed << " batch " << batch;
    }
  }
  EXPECT_LT(regrouped * 3, hashed);  // most images were not regrouped
  EXPECT_GT(grouped * 4, hashed);    // and many were in groups
}

TEST(IncrementalRegroup, ACommitWithoutRegroupMakesTheNextOneWhole) {
  const fs::path dir = strata::testing::scratch_dir() / "index";
  std::map<std::string, Image> images{{"a", {100, 0x00ff00ff00ff00ffULL, "20100101000000"}},
                                      {"b", {200, 0x00ff00ff00ff00feULL, "20100101000000"}}};
  auto write = [&](const std::string& id, bool regroup) {
    IndexWriter writer(dir);
    writer.set_moderate(
        [&](const merge::ImageDocument& d, Moderation& m) { m.phash = images.at(d.id).phash; });
    writer.begin();
    writer.add(document(id, images.at(id)));
    const bool whole = regroup && writer.regroup_near_duplicates().whole;
    writer.commit();
    return whole;
  };
  EXPECT_TRUE(write("a", true));
  EXPECT_FALSE(write("b", false));  // the table no longer describes b
  EXPECT_FALSE(load_group_table(Xapian::Database(dir.string())));
  images["c"] = {50, 0x00ff00ff00ff00fcULL, "20100101000000"};
  EXPECT_TRUE(write("c", true));
  EXPECT_EQ(stored_groups(dir), whole_groups(images));
  EXPECT_TRUE(load_group_table(Xapian::Database(dir.string())));
}

// Xapian flushes its write buffer every XAPIAN_FLUSH_THRESHOLD changes (10,000 by default), and
// a value stream opened inside a transaction right after a flush missed every value the
// transaction wrote: the whole regroup of a 1 % add at 1M (exactly 10,000 new documents) saw
// 1,000,000 hashed documents of 1,010,000 (docs/near-duplicates.md). Small thresholds make
// each transaction long enough here; threshold 1 flushes after every change, 24 after this
// transaction's last one. The whole regroup and the regroup of what changed, each inside the
// transaction, must both see every document and give the same groups.
TEST(IncrementalRegroup, AWholeRegroupInALongTransactionSeesEveryWrite) {
  struct Threshold {
    explicit Threshold(int n) { setenv("XAPIAN_FLUSH_THRESHOLD", std::to_string(n).c_str(), 1); }
    ~Threshold() { unsetenv("XAPIAN_FLUSH_THRESHOLD"); }
  };
  for (const int threshold : {1, 2, 5, 24, 25, 10000}) {
    std::map<std::string, std::map<std::string, std::string>> groups;  // by regroup kind
    std::map<std::string, Image> images;
    for (const bool whole : {true, false}) {
      Threshold flush(threshold);
      Corpus corpus(42);
      images.clear();
      const fs::path dir = strata::testing::scratch_dir() /
                           ("t" + std::to_string(threshold) + (whole ? "-whole" : "-changed"));
      auto writer = std::make_unique<IndexWriter>(dir);
      auto moderate = [&](const merge::ImageDocument& d, Moderation& m) {
        m.safe = 0;
        m.phash = images.at(d.id).phash;
      };
      // `count` new images named prefix + number.
      auto add_images = [&](const std::string& prefix, int count) {
        for (int k = 0; k < count; ++k) {
          const std::string id = prefix + std::to_string(k);
          images[id] = corpus.fresh();
          writer->add(document(id, images[id]));
        }
      };
      writer->set_moderate(moderate);
      writer->begin();
      add_images("b", 30);
      writer->regroup_near_duplicates();
      writer->commit();
      const auto base_groups = stored_groups(dir);
      writer.reset();                               // the lock
      writer = std::make_unique<IndexWriter>(dir);  // reads the threshold when opened
      writer->set_moderate(moderate);
      writer->begin();
      // 24 changes: 20 added, 3 removed (grouped ones first: their stored group must not be
      // rewritten), 1 re-analysed.
      add_images("n", 20);
      std::vector<std::string> removed;
      for (const auto& [id, group] : base_groups)
        if (!group.empty() && id != "b3" && id != "b7" && removed.size() < 2) removed.push_back(id);
      removed.push_back("b7");
      for (const auto& id : removed) {
        ASSERT_TRUE(writer->remove(id)) << id;
        images.erase(id);
      }
      images["b3"].phash = images["n0"].phash ^ 1;
      Moderation m;
      m.phash = images["b3"].phash;
      ASSERT_TRUE(writer->set_moderation("b3", m));
      const RegroupReport report = writer->regroup_near_duplicates(1, whole);
      writer->commit();
      EXPECT_EQ(report.whole, whole) << threshold;
      EXPECT_EQ(report.hashed, images.size()) << "threshold " << threshold << " whole " << whole;
      groups[whole ? "whole" : "changed"] = stored_groups(dir);
    }
    EXPECT_EQ(groups["whole"], whole_groups(images)) << "threshold " << threshold;
    EXPECT_EQ(groups["changed"], groups["whole"]) << "threshold " << threshold;
  }
}

// Compaction leaves the grouping table (the writer's cache) out of every copy, full, serving or
// merged from shards: in a copy it would be stale (the revision restarts, the docids past
// deleted ones are renumbered). The groups themselves come along, and a copy's first write
// rebuilds the table from the documents, with the whole regroup's groups.
TEST(IncrementalRegroup, CopiesLeaveTheGroupingTableOutAndTheirFirstWriteRebuildsIt) {
  Corpus corpus(7);
  const fs::path dir = strata::testing::scratch_dir();
  auto write = [&](const fs::path& index, std::map<std::string, Image>& images,
                   const std::string& prefix, int count, const std::vector<std::string>& removed) {
    IndexWriter writer(index);
    writer.set_moderate([&](const merge::ImageDocument& d, Moderation& m) {
      m.safe = 0;
      m.phash = images.at(d.id).phash;
    });
    writer.begin();
    for (int k = 0; k < count; ++k) {
      const std::string id = prefix + std::to_string(k);
      images[id] = corpus.fresh();
      writer.add(document(id, images[id]));
    }
    for (const auto& id : removed) {
      EXPECT_TRUE(writer.remove(id)) << id;
      images.erase(id);
    }
    const RegroupReport report = writer.regroup_near_duplicates();
    writer.commit();
    return report.whole;
  };
  const auto table_keys = [](const fs::path& index) {
    return group_table_keys(Xapian::Database(index.string()));
  };
  std::map<std::string, Image> a, shard;
  write(dir / "a", a, "a", 60, {});
  EXPECT_FALSE(write(dir / "a", a, "b", 20, {"a0", "a1", "a2"}));  // a copy renumbers docids
  write(dir / "shard", shard, "s", 30, {});
  ASSERT_TRUE(load_group_table(Xapian::Database((dir / "a").string())));
  ASSERT_FALSE(table_keys(dir / "a").empty());
  ASSERT_FALSE(table_keys(dir / "shard").empty());

  compact_index(dir / "a", dir / "full");
  compact_index(dir / "a", dir / "serving", CompactMode::serving);
  compact_index(std::vector<fs::path>{dir / "a", dir / "shard"}, dir / "merged");
  for (const char* copy : {"full", "serving", "merged"}) {
    EXPECT_TRUE(table_keys(dir / copy).empty()) << copy;
    EXPECT_FALSE(load_group_table(Xapian::Database((dir / copy).string()))) << copy;
    EXPECT_FALSE(fs::exists(dir / (std::string(copy) + ".group-table-mask"))) << copy;
  }
  EXPECT_FALSE(table_keys(dir / "a").empty());  // the source is never changed
  EXPECT_EQ(stored_groups(dir / "full"), whole_groups(a));
  EXPECT_GT(Xapian::Database((dir / "serving").string()).get_value_freq(slot::group), 0u);
  EXPECT_THROW(IndexWriter{dir / "serving"}, std::runtime_error);  // never written to

  std::map<std::string, Image> merged = a;
  merged.insert(shard.begin(), shard.end());
  auto sources_groups = stored_groups(dir / "a");  // as each source grouped its own
  sources_groups.merge(stored_groups(dir / "shard"));
  EXPECT_EQ(stored_groups(dir / "merged"), sources_groups);
  for (auto [copy, images] : {std::pair{"full", a}, std::pair{"merged", merged}}) {
    EXPECT_TRUE(write(dir / copy, images, "c", 15, {"a5"})) << copy;  // rebuilt whole
    EXPECT_EQ(stored_groups(dir / copy), whole_groups(images)) << copy;
    EXPECT_TRUE(load_group_table(Xapian::Database((dir / copy).string()))) << copy;
    EXPECT_FALSE(write(dir / copy, images, "d", 15, {"a6", "c1"})) << copy;  // then incremental
    EXPECT_EQ(stored_groups(dir / copy), whole_groups(images)) << copy;
  }
}

}  // namespace
}  // namespace strata::index
