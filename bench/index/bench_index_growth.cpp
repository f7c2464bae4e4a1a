// bench_index_growth --index DIR --work DIR [--jobs N] [--keep]
// What near-duplicate data costs a served index per image (issue 21, "index growth ≤ 40 bytes
// per image"). From one built index whose documents carry a pHash (bench_search's), three
// variants of the same documents, each made into a serving copy as `strata compact --serving`
// makes it:
//   with   the pHash (value slot and stored field), a PDQ (stored field; synthetic: each
//          64-bit word the pHash rotated and masked, so near-copies stay near), near-duplicate
//          groups regrouped with the PDQ check (value and term), the grouping table
//   phash  the pHash only, as before issue 21: no PDQ, no groups, no grouping table
//   none   no pHash, no PDQ, no groups, no grouping table
// Every document with a pHash is rewritten in each variant, its data packed as the writer packs
// it. Prints bytes per document of each serving copy, per table, the differences, and the
// grouping table's bytes in the full index. --work is emptied first; --keep keeps the copies.
#include <xapian.h>
#include <CLI/CLI.hpp>

#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "index/compact.hpp"
#include "index/document_builder.hpp"
#include "index/group_table.hpp"
#include "index/hash_values.hpp"
#include "index/near_duplicate_groups.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "index/writer.hpp"

using namespace strata;
namespace fs = std::filesystem;

namespace {

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Reports a step's wall and CPU seconds when it ends.
class Step {
 public:
  explicit Step(std::string what)
      : what_(std::move(what)), t0_(std::chrono::steady_clock::now()), cpu0_(cpu_seconds()) {}
  ~Step() {
    std::printf("  %-44s %7.1f s, CPU %7.1f s\n", what_.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(),
                cpu_seconds() - cpu0_);
    std::fflush(stdout);
  }

 private:
  std::string what_;
  std::chrono::steady_clock::time_point t0_;
  double cpu0_;
};

analyze::PdqHash synthetic_pdq(uint64_t phash) {
  static constexpr std::array<uint64_t, 4> kMasks{0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL,
                                                  0x94d049bb133111ebULL, 0x2545f4914f6cdd1dULL};
  analyze::PdqHash pdq;
  for (int k = 0; k < 4; ++k) pdq[k] = std::rotl(phash, 16 * k) ^ kMasks[k];
  return pdq;
}

// The hash slots as `m` has them.
void set_hash_values(Xapian::Document& xd, const index::Moderation& m) {
  for (const Xapian::valueno slot : {index::slot::phash, index::slot::pdq})
    if (!xd.get_value(slot).empty()) xd.remove_value(slot);
  if (m.phash) xd.add_value(index::slot::phash, index::phash_value(*m.phash));
  if (m.pdq) xd.add_value(index::slot::pdq, index::pdq_value(*m.pdq));
}

// Rewrites every document with a pHash: `edit` changes its moderation (its stored data and
// hash slots are written again from it) and its other values and terms.
template <typename Edit>
uint64_t rewrite(const fs::path& dir, const Edit& edit) {
  Xapian::WritableDatabase db(dir.string());
  const index::StoredData stored(db);
  std::vector<Xapian::docid> docids;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) docids.push_back(*it);
  uint64_t rewritten = 0;
  for (const Xapian::docid docid : docids) {
    Xapian::Document xd = db.get_document(docid);
    if (xd.get_value(index::slot::phash).empty()) continue;
    merge::ImageDocument doc;
    index::Moderation m;
    if (!index::read_indexed_document(stored, xd, doc, m))
      throw std::runtime_error("unreadable document " + std::to_string(docid));
    edit(xd, m);
    set_hash_values(xd, m);
    xd.set_data(stored.pack(index::document_data(doc, m)));
    db.replace_document(docid, xd);
    if (++rewritten % 100'000 == 0) db.commit();
  }
  index::drop_group_table(db);
  db.commit();
  return rewritten;
}

void remove_group(Xapian::Document& xd) {
  const std::string value = xd.get_value(index::slot::group);
  if (value.empty()) return;
  if (const auto leader = index::group_leader(value)) xd.remove_term(index::group_term(*leader));
  xd.remove_value(index::slot::group);
}

// Bytes of each table file of an index.
std::map<std::string, uint64_t> table_bytes(const fs::path& dir) {
  std::map<std::string, uint64_t> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".glass") out[e.path().stem().string()] = e.file_size();
  return out;
}

uint64_t total(const std::map<std::string, uint64_t>& tables) {
  uint64_t sum = 0;
  for (const auto& [name, bytes] : tables) sum += bytes;
  return sum;
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"bytes per image that near-duplicate data adds to a serving copy"};
  fs::path source, work;
  unsigned jobs = 2;
  bool keep = false;
  app.add_option("--index", source, "a built index whose documents carry a pHash")->required();
  app.add_option("--work", work, "scratch folder (emptied first)")->required();
  app.add_option("--jobs", jobs, "regroup threads");
  app.add_flag("--keep", keep, "keep the variants");
  CLI11_PARSE(app, argc, argv);

  fs::remove_all(work);
  fs::create_directories(work);
  const fs::path with = work / "with", phash = work / "phash", none = work / "none";
  uint64_t documents = 0, hashed = 0, table = 0;
  std::printf("variants of %s\n", source.c_str());
  {
    Step step("copy (compacted)");
    documents = index::compact_index(source, with).documents;
  }
  {
    Step step("with: PDQ added");
    hashed = rewrite(
        with, [](Xapian::Document&, index::Moderation& m) { m.pdq = synthetic_pdq(*m.phash); });
  }
  {
    Step step("with: whole regroup (pHash and PDQ)");
    index::IndexWriter writer(with);
    writer.begin();
    const index::RegroupReport r = writer.regroup_near_duplicates(jobs, true);
    writer.commit();
    std::printf(
        "  %llu hashed images, %llu groups of %llu images, %llu documents rewritten\n",
        static_cast<unsigned long long>(r.hashed), static_cast<unsigned long long>(r.groups),
        static_cast<unsigned long long>(r.grouped), static_cast<unsigned long long>(r.changed));
  }
  {
    const Xapian::Database db(with.string());
    for (const std::string& key : index::group_table_keys(db))
      table += key.size() + db.get_metadata(key).size();
  }
  for (const fs::path& copy : {phash, none}) {
    Step step("copy of with: " + copy.filename().string());
    fs::copy(with, copy, fs::copy_options::recursive);
  }
  {
    Step step("phash: PDQ, groups, table removed");
    rewrite(phash, [](Xapian::Document& xd, index::Moderation& m) {
      m.pdq.reset();
      remove_group(xd);
    });
  }
  {
    Step step("none: pHash, PDQ, groups, table removed");
    rewrite(none, [](Xapian::Document& xd, index::Moderation& m) {
      m.pdq.reset();
      m.phash.reset();
      remove_group(xd);
    });
  }
  std::map<std::string, std::map<std::string, uint64_t>> serving;
  for (const fs::path& variant : {with, phash, none}) {
    const fs::path copy = variant.string() + "-serving";
    {
      Step step("serving copy of " + variant.filename().string());
      index::compact_index(variant, copy, index::CompactMode::serving);
    }
    serving[variant.filename().string()] = table_bytes(copy);
    if (!keep) fs::remove_all(copy);
  }
  if (!keep)
    for (const fs::path& variant : {with, phash, none}) fs::remove_all(variant);

  const double n = static_cast<double>(documents);
  std::printf("%llu documents, %llu with a pHash\nserving copy, bytes per document:\n",
              static_cast<unsigned long long>(documents), static_cast<unsigned long long>(hashed));
  std::printf("  %-6s %8s", "", "total");
  for (const auto& [name, bytes] : serving["none"]) std::printf(" %9s", name.c_str());
  std::printf("\n");
  for (const char* variant : {"with", "phash", "none"}) {
    std::printf("  %-6s %8.1f", variant, static_cast<double>(total(serving[variant])) / n);
    for (const auto& [name, bytes] : serving[variant])
      std::printf(" %9.1f", static_cast<double>(bytes) / n);
    std::printf("\n");
  }
  const auto per_image = [&](const char* a, const char* b) {
    return (static_cast<double>(total(serving[a])) - static_cast<double>(total(serving[b]))) /
           static_cast<double>(hashed);
  };
  std::printf("growth per image with a pHash (serving copy):\n");
  std::printf("  with - none  (pHash, PDQ, groups): %+.1f bytes\n", per_image("with", "none"));
  std::printf("  with - phash (PDQ, groups):        %+.1f bytes\n", per_image("with", "phash"));
  std::printf("  phash - none (pHash):              %+.1f bytes\n", per_image("phash", "none"));
  std::printf("grouping table in the full index (not in serving copies): %.1f bytes per image\n",
              static_cast<double>(table) / static_cast<double>(hashed));
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Xapian::Error& e) {
    std::fprintf(stderr, "%s\n", e.get_description().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
  }
  return 1;
}
