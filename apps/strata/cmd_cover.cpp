// `strata cover --where EXPR (--index DIR | --docs documents.jsonl [--analysis analysis.jsonl])`:
// the minimum cover set of a whole collection under a user-defined coverage relation
// (src/cover, docs/redundancy.md); `--items pages` covers the captures of the pages that hold
// images instead (from --index's record store or --records, cover/pages.hpp). `--out` writes one
// JSON line per document; `--name` stores the cover in the index, where /imagesearch?cover=NAME
// hides what it covers.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <streambuf>
#include <thread>
#include <unordered_map>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/problems.hpp"
#include "core/progress.hpp"
#include "cover/cover.hpp"
#include "cover/documents.hpp"
#include "cover/pages.hpp"
#include "cover/streaming.hpp"
#include "index/cover_terms.hpp"
#include "store/record_store.hpp"

namespace strata {
namespace {

struct CoverCommand {
  std::string where, index, docs, analysis, name, out, streaming;
  std::string items = "images";      // or "pages" (cover/pages.hpp)
  std::vector<std::string> records;  // extraction JSONL (files or folders), for pages
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  uint64_t pair_budget = cover::CoverOptions{}.pair_budget;
  double ilp_seconds = cover::CoverOptions{}.ilp_time_ms / 1000.0;
  uint64_t memory = cover::SpillOptions{}.memory;
  std::string temp;
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

cover::IndexItems read_documents(const CoverCommand& cmd, const cover::Uses& uses,
                                 ProblemLog& problems, Progress& progress,
                                 cover::ItemTexts* texts) {
  std::unordered_map<std::string, uint64_t> phashes;
  if (!cmd.analysis.empty()) phashes = cover::read_phashes(cmd.analysis, problems);
  cover::IndexItems out;
  std::ifstream in(cmd.docs);
  if (!in) {
    problems.report({cmd.docs, 0, "unreadable", "cannot open"});
    return out;
  }
  uint64_t offset = 0;
  for (std::string line; std::getline(in, line); offset += line.size() + 1) {
    progress.advance(1);
    merge::ImageDocument doc;
    Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !merge::from_json(j, doc)) {
      problems.report({cmd.docs, offset, "bad_document", "not a document"});
      ++out.unreadable;
      continue;
    }
    index::Moderation m;
    if (auto it = phashes.find(doc.imgDigest); it != phashes.end()) m.phash = it->second;
    out.items.push_back(cover::item_from_document(doc, m, uses));
    if (texts) texts->add(out.items.back());
    out.ids.push_back(doc.id);
    out.bytes.push_back(doc.imgSize);
  }
  if (texts) texts->finish();
  return out;
}

// Hands each line written to it to a PageCollector (the record store exports to a stream).
class PageLineSink : public std::streambuf {
 public:
  PageLineSink(cover::PageCollector& pages, ProblemLog& problems, std::string name,
               Progress& progress)
      : pages_(pages), problems_(problems), name_(std::move(name)), progress_(progress) {}

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    if (c != '\n') {
      line_.push_back(static_cast<char>(c));
      return c;
    }
    pages_.add_line(line_, name_, offset_, problems_);
    offset_ += line_.size() + 1;
    line_.clear();
    progress_.advance(1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize k = 0; k < n; ++k) overflow(traits_type::to_int_type(s[k]));
    return n;
  }

 private:
  cover::PageCollector& pages_;
  ProblemLog& problems_;
  std::string name_, line_;
  uint64_t offset_ = 0;
  Progress& progress_;
};

// The pages of every live reference in the record store of the index at `dir`.
cover::PageItems read_index_pages(const std::string& dir, const cover::Uses& uses,
                                  ProblemLog& problems, Progress& progress,
                                  cover::ItemTexts& texts) {
  const auto file = store::store_file(dir);
  if (!std::filesystem::exists(file))
    throw cover::CoverError("no record store in " + dir +
                            " (strata index keeps one; an index made by index-docs has none)");
  cover::PageCollector pages;
  try {
    store::RecordStore records(dir);
    records.select_affected(0);  // every live record
    PageLineSink sink(pages, problems, file.string(), progress);
    std::ostream out(&sink);
    records.export_affected(out);
  } catch (const std::runtime_error& e) {
    throw cover::CoverError(std::string("cannot read the record store: ") + e.what());
  }
  return pages.finish(uses, &texts);
}

// Orders the documents by id, so that the cover does not depend on the input's order; the
// texts held apart follow.
void order_by_id(cover::IndexItems& d, cover::ItemTexts* texts) {
  std::vector<size_t> order(d.ids.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return d.ids[x] < d.ids[y]; });
  cover::IndexItems sorted;
  sorted.unreadable = d.unreadable;
  for (size_t k : order) {
    sorted.items.push_back(std::move(d.items[k]));
    sorted.ids.push_back(std::move(d.ids[k]));
    sorted.bytes.push_back(d.bytes[k]);
    if (!d.docids.empty()) sorted.docids.push_back(d.docids[k]);
  }
  d = std::move(sorted);
  if (texts) texts->reorder(order);
}

Json cover_report(const cover::IndexItems& d, const cover::CoverResult& r) {
  const size_t n = d.items.size();
  uint64_t bytes = 0, bytes_removed = 0;
  for (size_t i = 0; i < n; ++i) {
    bytes += d.bytes[i];
    if (r.keeper[i] != i) bytes_removed += d.bytes[i];
  }
  auto share = [](double part, double whole) { return whole > 0 ? part / whole : 0.0; };
  return {{"documents", n},
          {"kept", r.kept},
          {"removed", n - r.kept},
          {"removed_share", share(double(n - r.kept), double(n))},
          {"bytes_removed_share", share(double(bytes_removed), double(bytes))},
          {"lower_bound", r.lower_bound},
          {"components", r.components},
          {"largest_component", r.largest_component},
          {"exact_components", r.exact_components},
          {"ilp_components", r.ilp_components},
          {"greedy_components", r.greedy_components},
          {"ilp_fallbacks", r.ilp_fallbacks},
          {"capped_documents", r.capped_items},
          {"exact_share", share(double(r.items_exact), double(r.items_exact + r.items_greedy))},
          {"greedy_bound", r.greedy_bound},
          {"candidate_pairs", r.candidate_pairs},
          {"edges", r.edges},
          {"candidates", r.method}};
}

void write_lines(const std::string& file, const cover::IndexItems& d, const cover::CoverResult& r) {
  std::ofstream out(file);
  for (size_t i = 0; i < d.items.size(); ++i)
    out << cover::cover_line(d.ids[i], d.ids[r.keeper[i]], r.covers[i], d.ids[r.component[i]])
        << "\n";
  if (!out) throw cover::CoverError("cannot write " + file);
}

cover::CoverOptions cover_options(const CoverCommand& cmd,
                                  const cover::ItemTexts* texts = nullptr) {
  return {.pair_budget = cmd.pair_budget,
          .threads = cmd.jobs,
          .ilp_time_ms = static_cast<int>(cmd.ilp_seconds * 1000),
          .spill = {.memory = cmd.memory, .temp = cmd.temp},
          .texts = texts};
}

// One Hadoop Streaming step: stdin -> stdout, counters on stderr (cover/streaming.hpp).
int run_streaming_stage(const CoverCommand& cmd, const cover::Expr& where) {
  cover::StreamingStage stage;
  if (!cover::parse_streaming_stage(cmd.streaming, stage)) {
    std::cerr << "strata cover: --streaming must be map0, reduce0 (pages), map, reduce, map2, "
                 "reduce2, map3 or reduce3\n";
    return exit_code::usage;
  }
  const bool pages = cmd.items == "pages";
  const bool job0 = stage == cover::StreamingStage::map0 || stage == cover::StreamingStage::reduce0;
  if (job0 != pages && (job0 || stage == cover::StreamingStage::map)) {
    std::cerr << "strata cover: --streaming " << cmd.streaming
              << (pages ? ": pages start with map0 and reduce0 (job 1's map is cat)\n"
                        : ": map0 and reduce0 are for --items pages\n");
    return exit_code::usage;
  }
  std::ios::sync_with_stdio(false);
  try {
    const Counters counters = cover::run_streaming(
        stage, where, {.analysis = cmd.analysis, .pages = pages, .cover = cover_options(cmd)},
        std::cin, std::cout);
    for (const auto& [name, value] : counters.values())
      std::cerr << "reporter:counter:strata-cover," << name << ',' << value << '\n';
  } catch (const cover::CoverError& e) {
    std::cerr << "strata cover: " << e.what() << "\n";
    return exit_code::failure;
  }
  return std::cout ? exit_code::ok : exit_code::failure;
}

int run(const CoverCommand& cmd) {
  cover::ExprPtr where;
  try {
    where = cover::parse(cmd.where);
  } catch (const cover::ExprError& e) {
    std::cerr << "strata cover: --where: " << e.what() << "\n";
    return exit_code::usage;
  }
  if (!cmd.streaming.empty()) return run_streaming_stage(cmd, *where);
  if (!cmd.name.empty() && (cmd.index.empty() || !index::valid_cover_name(cmd.name))) {
    std::cerr << "strata cover: --name needs --index and 1-32 of [a-z0-9_-]\n";
    return exit_code::usage;
  }
  const bool pages = cmd.items == "pages";
  if (pages && !cmd.name.empty()) {
    std::cerr << "strata cover: --name stores a filter of images: not with --items pages\n";
    return exit_code::usage;
  }
  const auto uses = cover::attributes_used(*where);
  ProblemLog problems;
  const auto start = Clock::now();
  try {
    cover::IndexItems d;
    Json pages_read;
    // The texts the expression reads are held apart from the items, within --memory (a
    // page's are most of its item; images' captions, alt and titles much less).
    cover::ItemTexts texts({.memory = cmd.memory, .temp = cmd.temp});
    const bool apart =
        pages || std::any_of(uses.texts.begin(), uses.texts.end(), [](bool t) { return t; });
    cover::ItemTexts* held = apart ? &texts : nullptr;
    {
      Progress progress("1/2 read", 0, pages ? "records" : "documents", "");
      auto advance = [&](uint64_t n) { progress.advance(n); };
      if (pages) {
        cover::PageItems p =
            cmd.index.empty()
                ? cover::read_record_pages(cmd.records, uses, problems, advance, &texts)
                : read_index_pages(cmd.index, uses, problems, progress, texts);
        pages_read = {{"references", p.references}, {"pages_without_text", p.without_text}};
        d = std::move(p.pages);
      } else if (!cmd.index.empty()) {
        d = cover::read_index(cmd.index, uses, advance, held);
      } else {
        d = read_documents(cmd, uses, problems, progress, held);
      }
      progress.finish();
    }
    if (d.items.empty() && (d.unreadable > 0 || problems.total() > 0)) {
      cli::print_report({{"problems", problems_json(problems)}});
      return exit_code::no_input;
    }
    const double read_s = seconds_since(start);
    order_by_id(d, held);
    Progress progress("2/2 cover", d.items.size(), pages ? "pages" : "documents", "");
    const auto r = cover::compute_cover(*where, d.items, cover_options(cmd, held));
    progress.advance(d.items.size());
    progress.finish();
    Json report = {
        {"where", cover::to_string(*where)}, {"items", cmd.items}, {"cover", cover_report(d, r)}};
    if (pages) report["pages"] = pages_read;
    if (!cmd.out.empty()) write_lines(cmd.out, d, r);
    if (!cmd.name.empty()) {
      std::vector<Xapian::docid> hidden;
      for (size_t i = 0; i < d.items.size(); ++i)
        if (r.keeper[i] != i) hidden.push_back(d.docids[i]);
      cover::store_named_cover(
          cmd.index, cmd.name, hidden,
          {{"where", cover::to_string(*where)}, {"documents", d.items.size()}, {"kept", r.kept}});
      report["stored_as"] = cmd.name;
    }
    report["time"] = {{"read_s", read_s}, {"total_s", seconds_since(start)}};
    report["spill"] = {
        {"memory", cmd.memory}, {"runs", r.spilled_runs}, {"text_chunks", r.text_chunks}};
    report["problems"] = problems_json(problems);
    report["unreadable_documents"] = d.unreadable;
    cli::print_report(report);
    return problems.total() > 0 || d.unreadable > 0 ? exit_code::input_problems : exit_code::ok;
  } catch (const cover::CoverError& e) {
    std::cerr << "strata cover: " << e.what() << "\n";
    return exit_code::failure;
  }
}

const bool registered = cli::register_command(
    "cover", "The smallest set of documents that covers the rest under --where",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<CoverCommand>();
      app.add_option("--where", cmd->where, "coverage expression (docs/redundancy.md)")->required();
      auto* index = app.add_option("--index", cmd->index, "index folder to read");
      auto* docs = app.add_option("--docs", cmd->docs, "documents.jsonl to read instead");
      index->excludes(docs);
      app.add_option("--items", cmd->items,
                     "what is covered: images (documents, default) or pages (the captures of "
                     "the pages that hold images, from --index's record store or --records)")
          ->check(CLI::IsMember({"images", "pages"}));
      app.add_option("--records", cmd->records,
                     "extraction JSONL files or folders of part-*.jsonl (strata extract) "
                     "to read pages from, with --items pages")
          ->excludes(index)
          ->excludes(docs);
      app.add_option("--analysis", cmd->analysis,
                     "analysis.jsonl giving --docs (or --streaming map) their pHashes")
          ->excludes(index);
      app.add_option("--name", cmd->name, "store the cover in the index under this name")
          ->needs(index);
      app.add_option("--out", cmd->out,
                     "one JSON line per document: id, keeper, covers, component");
      app.add_option("--jobs", cmd->jobs, "threads testing candidate pairs (default: all cores)");
      app.add_option("--pair-budget", cmd->pair_budget,
                     "most pairs compared one by one when nothing blocks them");
      app.add_option("--ilp-seconds", cmd->ilp_seconds,
                     "time for integer programs over components above 64 documents, in all "
                     "(0: greedy there)")
          ->check(CLI::Range(0.0, 86400.0));
      cli::add_size_option(app, "--memory", cmd->memory,
                           "the shingle index's and the texts' memory (similarity atoms); "
                           "beyond it, sorted runs and the texts spill to --temp (default 1G)");
      app.add_option("--temp", cmd->temp,
                     "folder for the spilled runs and texts (default: the system's "
                     "temporary folder)");
      app.add_option("--streaming", cmd->streaming,
                     "run one Hadoop Streaming step, stdin to stdout: map, reduce, map2, reduce2, "
                     "map3 or reduce3; with --items pages map0 and reduce0 first "
                     "(docs/redundancy.md)")
          ->excludes(index)
          ->excludes(docs);
      return [cmd] {
        std::error_code ec;
        if (!cmd->temp.empty() && !std::filesystem::is_directory(cmd->temp, ec)) {
          std::cerr << "strata cover: --temp: not a folder: " << cmd->temp << "\n";
          return exit_code::usage;
        }
        if (cmd->items == "pages") {
          if (!cmd->docs.empty() || !cmd->analysis.empty() ||
              (cmd->streaming.empty() ? cmd->index.empty() == cmd->records.empty()
                                      : !cmd->records.empty())) {
            std::cerr << "strata cover: --items pages reads --index or --records (or stdin with "
                         "--streaming)\n";
            return exit_code::usage;
          }
        } else if (!cmd->records.empty()) {
          std::cerr << "strata cover: --records needs --items pages\n";
          return exit_code::usage;
        } else if (cmd->streaming.empty() && cmd->index.empty() == cmd->docs.empty()) {
          std::cerr << "strata cover: give --index or --docs\n";
          return exit_code::usage;
        }
        return run(*cmd);
      };
    });

}  // namespace
}  // namespace strata
