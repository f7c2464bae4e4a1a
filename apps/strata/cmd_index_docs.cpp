// strata index-docs: builds or extends an index from merged-document JSONL, analysing the
// new image digests first (as `strata index` does) unless --no-analysis.
// With --streaming, the index build as a Hadoop Streaming job (docs/scale.md), one shard per
// reducer key:
//   map     "ID<TAB>DOCUMENT" (the merge's reduce2 output) -> "SHARD<TAB>ID<TAB>DOCUMENT",
//           SHARD = shard::shard_of(ID, --shards);
//   reduce  that sorted by SHARD then ID (two key fields, partitioned on the first) -> the
//           index INDEX/shard-SHARD of each shard it gets, built from nothing (a retried task
//           starts again) in a sibling folder renamed into place, INDEX/shards, and a line
//           "shard-SHARD<TAB>DOCUMENTS" on stdout.
// `strata regroup --index INDEX` then groups the near-duplicates over all the shards, and
//   adopt   the extraction records (the extraction job's output on stdin) -> INDEX's record
//           store, as the batch of --collection the shards already hold (store::
//           adopt_streaming_build): the index `strata index --shards` would have made.
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "cmd_analyze_options.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "index/index_documents.hpp"
#include "index/moderation.hpp"
#include "index/shard_layout.hpp"
#include "merge/folder.hpp"
#include "merge/streaming.hpp"
#include "shard/partition.hpp"
#include "store/incremental.hpp"

namespace strata {
namespace {

struct IndexDocsCommand {
  index::IndexOptions index;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  AnalysisOptions analysis;
  std::string streaming;  // map or reduce
  size_t shards = 0;
};

namespace fs = std::filesystem;

// The fields of a tab-separated line: `count` of them, the last holding the rest; false when
// the line has fewer.
bool split_fields(const std::string& line, size_t count, std::vector<std::string_view>& out) {
  out.clear();
  size_t from = 0;
  for (size_t i = 0; i + 1 < count; ++i) {
    const size_t tab = line.find('\t', from);
    if (tab == std::string::npos) return false;
    out.emplace_back(line.data() + from, tab - from);
    from = tab + 1;
  }
  out.emplace_back(line.data() + from, line.size() - from);
  return true;
}

int run_streaming_map(const IndexDocsCommand& cmd) {
  Counters counters;
  std::vector<std::string_view> fields;
  for (std::string line; std::getline(std::cin, line);) {
    if (!split_fields(line, 2, fields) || fields[0].empty()) {
      counters.add("bad_lines");
      continue;
    }
    std::cout << shard::shard_of(fields[0], cmd.shards) << '\t' << line << '\n';
    counters.add("documents");
  }
  merge::write_hadoop_counters(counters, std::cerr, "strata-index");
  return std::cout.flush() ? exit_code::ok : exit_code::failure;
}

// Builds `root`/shard-`k` from the documents of `docs` (analysed first, into the shard): in
// the task's scratch folder (TMPDIR, which Hadoop removes with a failed attempt), then moved.
void build_shard(IndexDocsCommand& cmd, const fs::path& root, size_t k, const fs::path& docs,
                 Counters& counters) {
  const fs::path folder = index::shard_folder(root, k);
  const fs::path creating = fs::temp_directory_path() /
                            ("strata-shard-" + std::to_string(k) + "-" + std::to_string(getpid()));
  fs::remove_all(creating);
  fs::create_directories(creating);
  Json report;
  if (!run_analysis_step(cmd.analysis, docs, creating, cmd.jobs, nullptr, report))
    throw std::runtime_error("cannot analyse " + docs.string());
  index::IndexOptions options = cmd.index;
  options.index_dir = creating;
  options.inputs = {docs};
  options.moderate = index::moderation_of(creating);
  const index::IndexStats stats = index::index_documents(options);
  // Beside the shard, then renamed over it: a reader or a retried task never sees half a shard.
  // An attempt killed between the two renames left its own ".moving-" folder: removed here (the
  // job runs one attempt of a reducer at a time: mapreduce.reduce.speculative=false).
  const std::string moving_prefix = folder.filename().string() + ".moving-";
  std::vector<fs::path> stale;
  std::error_code listing;
  for (const auto& entry : fs::directory_iterator(root, listing))
    if (entry.path().filename().string().rfind(moving_prefix, 0) == 0) stale.push_back(entry);
  for (const auto& path : stale) fs::remove_all(path);
  const fs::path moving = folder.string() + ".moving-" + std::to_string(getpid());
  std::error_code ec;
  fs::rename(creating, moving, ec);
  if (ec) {  // another file system
    fs::copy(creating, moving, fs::copy_options::recursive);
    fs::remove_all(creating);
  }
  fs::remove_all(folder);
  fs::rename(moving, folder);
  counters.add("documents_indexed", static_cast<int64_t>(stats.documents));
  counters.add("bad_lines", static_cast<int64_t>(stats.bad_lines));
  counters.add("shards_built");
  std::cout << "shard-" << k << '\t' << stats.documents << '\n';
}

int run_streaming_reduce(IndexDocsCommand& cmd) {
  const fs::path root = cmd.index.index_dir;
  fs::create_directories(root);
  if (!index::write_shard_count(root, cmd.shards)) {
    std::cerr << "index-docs: cannot write " << (root / "shards") << '\n';
    return exit_code::failure;
  }
  const fs::path docs =
      fs::temp_directory_path() / ("strata-index-docs-" + std::to_string(getpid()) + ".jsonl");
  Counters counters;
  std::optional<size_t> current;
  std::ofstream out;
  auto finish = [&] {
    if (!current) return;
    out.close();
    build_shard(cmd, root, *current, docs, counters);
  };
  std::vector<std::string_view> fields;
  try {
    for (std::string line; std::getline(std::cin, line);) {
      size_t k = 0;
      if (!split_fields(line, 3, fields) ||
          std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), k).ptr !=
              fields[0].data() + fields[0].size() ||
          k >= cmd.shards) {
        counters.add("bad_lines");
        continue;
      }
      if (current != k) {
        finish();
        current = k;
        out.open(docs, std::ios::binary | std::ios::trunc);
      }
      out << fields[2] << '\n';
    }
    finish();
  } catch (const std::exception& e) {
    std::error_code ec;
    fs::remove(docs, ec);
    log::error("index.failed", {{"message", e.what()}});
    return exit_code::failure;
  }
  std::error_code ec;
  fs::remove(docs, ec);
  merge::write_hadoop_counters(counters, std::cerr, "strata-index");
  return std::cout.flush() ? exit_code::ok : exit_code::failure;
}

// Extraction records on stdin (`hadoop fs -cat WORK/extract/part-m-*` on a cluster) adopted
// into the record store of the index the Streaming jobs built.
int run_streaming_adopt(const IndexDocsCommand& cmd) {
  const fs::path records =
      fs::temp_directory_path() / ("strata-adopt-" + std::to_string(getpid()) + ".jsonl");
  int code = exit_code::ok;
  try {
    {
      std::ofstream out(records, std::ios::binary);
      out << std::cin.rdbuf();
      if (!out.flush()) throw std::runtime_error("cannot write " + records.string());
    }
    const store::BatchInsert batch =
        store::adopt_streaming_build(cmd.index.index_dir, cmd.index.collection, {records});
    cli::print_report({{"batch", batch.batch},
                       {"records", batch.inserted},
                       {"not_records", batch.not_records},
                       {"without_key", batch.without_key}});
  } catch (const std::exception& e) {
    log::error("index.adopt_failed", {{"message", e.what()}});
    code = exit_code::failure;
  }
  std::error_code ec;
  fs::remove(records, ec);
  return code;
}

int run(IndexDocsCommand& cmd) {
  if (!cmd.streaming.empty()) {
    if (cmd.shards == 0) {
      std::cerr << "index-docs: --streaming needs --shards N\n";
      return exit_code::usage;
    }
    if (cmd.streaming == "map") return run_streaming_map(cmd);
    if (cmd.index.index_dir.empty()) {
      std::cerr << "index-docs: --streaming " << cmd.streaming << " needs --index\n";
      return exit_code::usage;
    }
    if (cmd.streaming == "adopt") return run_streaming_adopt(cmd);
    return run_streaming_reduce(cmd);
  }
  if (cmd.index.index_dir.empty() || cmd.index.inputs.empty()) {
    std::cerr << "index-docs: give --index and documents (or --streaming)\n";
    return exit_code::usage;
  }
  Json report;
  // An unreadable input is reported here and counted by the index step.
  for (const auto& docs : cmd.index.inputs) {
    std::optional<Progress> progress;
    if (!cmd.analysis.skip) progress.emplace("analyse " + docs.string(), 0, "images", "");
    run_analysis_step(cmd.analysis, docs, cmd.index.index_dir, cmd.jobs,
                      progress ? &*progress : nullptr, report);
  }
  cmd.index.moderate = index::moderation_of(cmd.index.index_dir);
  index::IndexStats s;
  try {
    Progress progress("index", merge::total_size(cmd.index.inputs), "B", "documents");
    cmd.index.progress = &progress;
    s = index::index_documents(cmd.index);
    cmd.index.progress = nullptr;
    if (index::blocklist_changed(cmd.index.index_dir)) refresh_existing_index(cmd.index.index_dir);
  } catch (const std::exception& e) {
    log::error("index.failed", {{"message", e.what()}});
    return exit_code::failure;
  }
  report["index"] = index::to_json(s);
  cli::print_report(report);
  if (s.bad_inputs == cmd.index.inputs.size() && !cmd.index.inputs.empty())
    return exit_code::no_input;
  if (s.bad_lines || s.bad_inputs) return exit_code::input_problems;
  return exit_code::ok;
}

const bool registered = cli::register_command(
    "index-docs", "Index merged image documents (JSONL) into a search index",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<IndexDocsCommand>();
      auto& opts = cmd->index;
      app.add_option("--index", opts.index_dir,
                     "Index folder (created if missing); with --streaming reduce, the sharded "
                     "index folder");
      app.add_option("--collection", opts.collection, "Collection name added to every document")
          ->required();
      app.add_option("docs", opts.inputs, "Merged documents (JSONL)");
      app.add_option("--streaming", cmd->streaming,
                     "Hadoop Streaming stage: map (documents -> shard keys), reduce (build "
                     "each shard) or adopt (the extraction records on stdin -> the built "
                     "index's record store); docs/scale.md")
          ->check(CLI::IsMember({"map", "reduce", "adopt"}));
      app.add_option("--shards", cmd->shards, "Shards of the index (with --streaming)")
          ->check(CLI::Range(1, 4096));
      app.add_option("--jobs", cmd->jobs, "Analysis worker threads (default: all cores)");
      add_analysis_options(app, cmd->analysis, true);
      return [cmd] { return run(*cmd); };
    });

}  // namespace
}  // namespace strata
