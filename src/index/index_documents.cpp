#include "index/index_documents.hpp"

#include <algorithm>
#include <fstream>

#include "core/json.hpp"
#include "core/log.hpp"

namespace strata::index {
namespace {

bool parse_line(const std::string& line, const std::string& collection, merge::ImageDocument& doc) {
  try {
    Json j = Json::parse(line);
    if (!j.is_object() || !merge::from_json(j, doc) || doc.id.empty()) return false;
  } catch (const std::exception&) {
    return false;
  }
  auto& cols = doc.collection;
  if (!collection.empty() && std::find(cols.begin(), cols.end(), collection) == cols.end())
    cols.push_back(collection);
  return true;
}

void count(IndexStats& stats, AddOutcome outcome) {
  switch (outcome) {
    case AddOutcome::added:
      ++stats.added;
      break;
    case AddOutcome::merged:
      ++stats.merged;
      break;
    case AddOutcome::unchanged:
      ++stats.unchanged;
      break;
  }
}

void index_file(IndexWriter& writer, const std::filesystem::path& path,
                const std::string& collection, Progress* progress, IndexStats& stats) {
  std::ifstream in(path);
  if (!in) {
    ++stats.bad_inputs;
    log::error("index.input_unreadable", {{"file", path.string()}});
    return;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (progress) progress->advance(line.size() + 1);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (progress) progress->add_items(1);
    ++stats.lines;
    merge::ImageDocument doc;
    if (!parse_line(line, collection, doc)) {
      ++stats.bad_lines;
      continue;
    }
    count(stats, writer.add(doc));
  }
}

}  // namespace

IndexStats index_documents(const IndexOptions& options) {
  IndexStats stats;
  IndexWriter writer(options.index_dir, options.merge);
  writer.set_moderate(options.moderate);
  writer.begin();
  try {
    for (const auto& path : options.inputs)
      index_file(writer, path, options.collection, options.progress, stats);
    stats.near_duplicate_groups = writer.regroup_near_duplicates().groups;
    writer.commit();
  } catch (...) {
    writer.cancel();
    throw;
  }
  stats.documents = writer.size();
  return stats;
}

Json to_json(const IndexStats& s) {
  return Json{{"lines", s.lines},
              {"added", s.added},
              {"merged", s.merged},
              {"unchanged", s.unchanged},
              {"bad_lines", s.bad_lines},
              {"bad_inputs", s.bad_inputs},
              {"near_duplicate_groups", s.near_duplicate_groups},
              {"documents", s.documents}};
}

}  // namespace strata::index
