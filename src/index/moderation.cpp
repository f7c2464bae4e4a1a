#include "index/moderation.hpp"

#include <xapian.h>

#include <fstream>
#include <memory>

#include "analyze/analysis_lines.hpp"
#include "index/near_duplicate_groups.hpp"
#include "index/shard_layout.hpp"

namespace strata::index {

namespace fs = std::filesystem;

fs::path analysis_file(const fs::path& index_dir) {
  return index_dir / "analysis.jsonl";
}
fs::path blocklist_file(const fs::path& index_dir) {
  return index_dir / "blocklist.txt";
}

void apply_analysis(const analyze::AnalysisRecord& r, Moderation& m) {
  m.analysis = r.missing_bytes ? "missing" : std::string(analyze::to_string(r.status));
  m.safe = analyze::safe_search_value(r);
  m.drawing = r.nsfw && r.nsfw->is_drawing();
  m.phash = r.phash;
  m.embedding = r.embedding;
  m.pdq = r.pdq;
  m.thumbnail = r.thumbnail;
  m.thumb_width = r.thumb_width;
  m.thumb_height = r.thumb_height;
}

ModerationSource ModerationSource::load(const fs::path& index_dir,
                                        const std::unordered_set<std::string>* only) {
  ModerationSource source;
  analyze::AnalysisRecord record;
  auto take = [&](std::string_view line) {
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_object() || !j.value("digest", Json()).is_string()) return;
    if (!analyze::from_json(j, record)) return;
    apply_analysis(record, source.analysis_[record.digest]);
  };
  const fs::path file = analysis_file(index_dir);
  if (only) {  // only the lines of these digests are read (analyze/analysis_lines.hpp)
    analyze::for_each_analysis_line(file, {only->begin(), only->end()}, take);
  } else {
    analyze::update_analysis_offsets(file);  // the next add reads its lines only
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) take(line);
  }
  source.blocks_ = analyze::BlockList::load(blocklist_file(index_dir));
  return source;
}

void ModerationSource::apply(const merge::ImageDocument& doc, Moderation& m) const {
  if (auto it = analysis_.find(doc.imgDigest); it != analysis_.end()) m = it->second;
  m.blocked = blocks_.blocked(doc.imgUrl, doc.pageUrl);
}

namespace {

constexpr const char* kMetaBlocklist = "strata:blocklist";  // the list last applied

std::string blocklist_text(const fs::path& index_dir) {
  const analyze::BlockList list = analyze::BlockList::load(blocklist_file(index_dir));
  std::string text;
  for (const auto& p : list.patterns()) text += p.to_string() + '\n';
  return text;
}

}  // namespace

ModerateFn moderation_of(const fs::path& index_dir, const std::unordered_set<std::string>* only) {
  auto source = std::make_shared<const ModerationSource>(ModerationSource::load(index_dir, only));
  return [source](const merge::ImageDocument& doc, Moderation& m) { source->apply(doc, m); };
}

bool index_exists(const fs::path& index_dir) {
  try {
    const std::vector<fs::path> shards = shard_folders(index_dir);
    Xapian::Database probe((shards.empty() ? index_dir : shards.front()).string());
    return true;
  } catch (const Xapian::Error&) {
    return false;
  }
}

namespace {

// A sharded index (docs/scale.md "Sharded index"): its analysis cache and block list are its
// own, applied to every shard, the groups redone over all of them at once; each shard commits
// in turn, so a kill between two commits leaves a shard behind, which blocklist_changed()
// sees and the next refresh catches up.
uint64_t refresh_shards(const fs::path& index_dir, const std::vector<fs::path>& shards) {
  const ModerateFn moderate = moderation_of(index_dir);
  const std::string blocklist = blocklist_text(index_dir);
  std::vector<std::unique_ptr<IndexWriter>> writers;
  std::vector<Xapian::WritableDatabase> databases;
  uint64_t changed = 0;
  for (const fs::path& shard : shards) {
    writers.push_back(std::make_unique<IndexWriter>(shard));
    writers.back()->begin();
    changed += writers.back()->remoderate(moderate);
    databases.push_back(writers.back()->database());
  }
  regroup_over_shards(databases);  // late analysis brings pHashes
  for (auto& writer : writers) {
    writer->set_metadata(kMetaBlocklist, blocklist);
    writer->commit();
  }
  return changed;
}

}  // namespace

uint64_t refresh_index(const fs::path& index_dir) {
  const std::vector<fs::path> shards = shard_folders(index_dir);
  if (!shards.empty()) return refresh_shards(index_dir, shards);
  IndexWriter writer(index_dir);
  writer.begin();
  const uint64_t changed = writer.remoderate(moderation_of(index_dir));
  writer.regroup_near_duplicates();  // late analysis brings pHashes
  writer.set_metadata(kMetaBlocklist, blocklist_text(index_dir));
  writer.commit();
  return changed;
}

bool blocklist_changed(const fs::path& index_dir) {
  const std::string text = blocklist_text(index_dir);
  std::vector<fs::path> folders = shard_folders(index_dir);
  if (folders.empty()) folders.push_back(index_dir);
  for (const fs::path& folder : folders)
    if (Xapian::Database(folder.string()).get_metadata(kMetaBlocklist) != text) return true;
  return false;
}

}  // namespace strata::index
