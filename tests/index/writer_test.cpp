#include "index/writer.hpp"

#include <gtest/gtest.h>
#include <xapian.h>

#include <fstream>

#include "core/json.hpp"
#include "index/index_documents.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

merge::ImageDocument doc(const std::string& id, const std::string& collection) {
  merge::ImageDocument d;
  d.id = d.imgDigest = id;
  d.imgUrl = "http://x.pt/" + id + ".png";
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = "20100101000000";
  d.imgAlt = {"alt " + id};
  d.pageHost = "www.x.pt";
  d.collection = {collection};
  d.imgFile = "/archives/a.warc.gz";
  return d;
}

TEST(IndexWriter, ReAddingSameCollectionChangesNothingAndNewCollectionMerges) {
  auto dir = strata::testing::scratch_dir() / "idx";
  IndexWriter w(dir);
  EXPECT_EQ(w.add(doc("a", "c1")), AddOutcome::added);
  EXPECT_EQ(w.add(doc("a", "c1")), AddOutcome::unchanged);
  EXPECT_EQ(w.add(doc("a", "c2")), AddOutcome::merged);
  EXPECT_EQ(w.size(), 1u);
  auto got = w.get("a");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->collection, (std::vector<std::string>{"c1", "c2"}));
}

TEST(IndexWriter, DocidOfNamesTheStoredDocumentAndKeepsItWhenReplaced) {
  auto dir = strata::testing::scratch_dir() / "idx";
  IndexWriter w(dir);
  w.add(doc("a", "c1"));
  w.add(doc("b", "c1"));
  const auto b = w.docid_of("b");
  ASSERT_TRUE(b);
  EXPECT_NE(w.docid_of("a"), b);
  EXPECT_FALSE(w.docid_of("c"));
  w.add(doc("b", "c2"));  // a replacement keeps its docid: the add writes in docid order
  EXPECT_EQ(w.docid_of("b"), b);
}

TEST(IndexWriter, ReplaceWritesTheDocumentAsItIsAndKeepsItsModeration) {
  auto dir = strata::testing::scratch_dir() / "idx";
  Moderation m;
  m.safe = 0.25;
  m.analysis = "ok";
  Xapian::docid a = 0;
  {
    IndexWriter w(dir);
    w.add(doc("a", "c1"));
    ASSERT_TRUE(w.set_moderation("a", m));
    a = w.docid_of("a").value_or(0);
    w.set_compression(Compression::fast);
    EXPECT_EQ(w.replace(a, doc("a", "c1")), AddOutcome::unchanged);
    EXPECT_EQ(w.replace(a, doc("a", "c2")), AddOutcome::merged);
  }
  const Xapian::Database db(dir.string());
  merge::ImageDocument stored;
  Moderation kept;
  ASSERT_TRUE(
      parse_document_data(StoredData(db).unpack(db.get_document(a).get_data()), stored, kept));
  EXPECT_EQ(stored.collection, (std::vector<std::string>{"c2"}));  // replaced, not merged
  EXPECT_EQ(kept, m);
}

// What the index holds of one document: terms with wdf and positions, values, data, and
// whether each term's posting list names it.
std::string indexed(const Xapian::Database& db, Xapian::docid docid) {
  std::string out;
  for (auto t = db.termlist_begin(docid); t != db.termlist_end(docid); ++t) {
    out += *t + " wdf " + std::to_string(t.get_wdf()) + " at";
    for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p)
      out += " " + std::to_string(*p);
    auto posting = db.postlist_begin(*t);
    posting.skip_to(docid);
    out += posting != db.postlist_end(*t) && *posting == docid ? " posted\n" : " NOT POSTED\n";
  }
  const Xapian::Document xd = db.get_document(docid);
  for (auto v = xd.values_begin(); v != xd.values_end(); ++v)
    out += "value " + std::to_string(v.get_valueno()) + " " + *v + "\n";
  return out + "data " + StoredData(db).unpack(xd.get_data());
}

TEST(IndexWriter, ReplaceLeavesTheIndexAsAddingTheNewDocumentWould) {
  const merge::ImageDocument before = doc("a", "c1");
  std::vector<std::pair<std::string, merge::ImageDocument>> changes;
  auto change = [&](const std::string& what, auto edit) {
    merge::ImageDocument d = before;
    edit(d);
    changes.emplace_back(what, d);
  };
  change("counters only", [](auto& d) { d.matchingPages = 7; });
  change("a collection", [](auto& d) { d.collection.push_back("c2"); });
  change("an older capture", [](auto& d) {
    d.imgCrawlTimestamp = "20080101000000";
    d.imgCaptureTimes = {"20080101000000", "20100101000000"};
  });
  change("another size", [](auto& d) { d.imgWidth = 640, d.imgHeight = 480; });
  change("another alt", [](auto& d) { d.imgAlt.push_back("sol mar"); });
  change("the same words in another order", [](auto& d) { d.imgAlt = {"a alt"}; });
  for (const auto& [what, after] : changes) {
    const auto dir = strata::testing::scratch_dir();
    std::string replaced, added;
    {
      IndexWriter w(dir / "replaced");
      w.begin();
      for (int i = 0; i < 50; ++i) w.add(doc("other" + std::to_string(i), "c1"));
      w.add(before);
      w.commit();
      w.begin();
      const auto docid = w.docid_of("a");
      ASSERT_TRUE(docid);
      EXPECT_EQ(w.replace(*docid, after), AddOutcome::merged) << what;
      w.commit();
      replaced = indexed(Xapian::Database((dir / "replaced").string()), *docid);
    }
    {
      IndexWriter w(dir / "added");
      w.begin();
      w.add(after);
      w.commit();
      added = indexed(Xapian::Database((dir / "added").string()), *w.docid_of("a"));
    }
    EXPECT_EQ(replaced, added) << what;
  }
}

TEST(IndexWriter, CancelledBatchLeavesIndexAsBefore) {
  auto dir = strata::testing::scratch_dir() / "idx";
  {
    IndexWriter w(dir);
    w.add(doc("a", "c1"));
  }
  {
    IndexWriter w(dir);
    w.begin();
    w.add(doc("b", "c1"));
    w.cancel();
    w.begin();
    w.add(doc("c", "c1"));
  }  // destroyed mid-batch (as an interrupted run): nothing of it is kept
  Xapian::Database db(dir.string());
  EXPECT_EQ(db.get_doccount(), 1u);
  const Json registered =
      Json::parse(db.get_metadata(std::string(kMetaArchivePrefix) + "/archives/a.warc.gz"));
  EXPECT_EQ(registered["key"], "/archives/a.warc.gz");
  EXPECT_EQ(registered["path"], "/archives/a.warc.gz");
  EXPECT_EQ(registered["size"], 0);  // not there: size unknown
}

TEST(IndexWriter, RefusesAnIndexOfAnotherSchemaVersion) {
  auto dir = strata::testing::scratch_dir() / "idx";
  {
    Xapian::WritableDatabase old(dir.string(), Xapian::DB_CREATE);
    old.set_metadata(std::string(kMetaSchema), "3");
  }
  try {
    IndexWriter w(dir);
    FAIL() << "a schema-3 index was opened for writing";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("new index directory"), std::string::npos) << e.what();
  }
}

TEST(IndexWriter, FieldsKeepDisjointPositionsSoPhrasesNeverSpanTwo) {
  auto dir = strata::testing::scratch_dir() / "idx";
  // Words that are their own Portuguese stems, the terms the index keeps.
  merge::ImageDocument d = doc("a", "c1");
  d.imgTitle = {"mar"};
  d.imgAlt = {"sol"};
  { IndexWriter(dir).add(d); }
  Xapian::Database db(dir.string());
  auto positions = [&](const std::string& t) {
    return std::vector<Xapian::termpos>(db.positionlist_begin(1, t), db.positionlist_end(1, t));
  };
  EXPECT_EQ(positions("mar"), std::vector<Xapian::termpos>{1});
  EXPECT_EQ(positions("sol"), std::vector<Xapian::termpos>{1 + kFieldPositions});
  auto phrase_matches = [&](Xapian::termcount window) {
    const std::vector<Xapian::Query> words{Xapian::Query("mar"), Xapian::Query("sol")};
    Xapian::Enquire e(db);
    e.set_query(Xapian::Query(Xapian::Query::OP_PHRASE, words.begin(), words.end(), window));
    return e.get_mset(0, 10).size();
  };
  EXPECT_EQ(phrase_matches(2 * kFieldPositions), 1u);  // the fields are apart, not separate
  EXPECT_EQ(phrase_matches(6), 0u);
}

TEST(IndexDocuments, IndexesJsonlCountsBadLinesAndIsIdempotent) {
  auto dir = strata::testing::scratch_dir();
  auto jsonl = dir / "docs.jsonl";
  {
    std::ofstream out(jsonl);
    out << merge::to_json(doc("a", "")).dump() << "\nnot json\n"
        << merge::to_json(doc("b", "")).dump() << "\n";
  }
  IndexOptions o{dir / "idx", "AWP", {jsonl}, default_merge(), {}};
  IndexStats s = index_documents(o);
  EXPECT_EQ(s.added, 2u);
  EXPECT_EQ(s.bad_lines, 1u);
  EXPECT_EQ(s.documents, 2u);
  IndexStats again = index_documents(o);
  EXPECT_EQ(again.unchanged, 2u);
  EXPECT_EQ(again.added + again.merged, 0u);
}

}  // namespace
}  // namespace strata::index
