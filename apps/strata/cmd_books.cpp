// `strata books extract|warc ITEM... -o OUT`: every picture of scanned-book items (Internet
// Archive layout, src/books) cropped from the page images. Default mode: Strata's filters
// (each switchable) and OUT/ID/images.jsonl; --compat: the seed script's ID_imgs.zip exactly;
// warc: OUT/ID.warc.gz for strata index (books/book_warc.hpp).
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "books/book_warc.hpp"
#include "books/extract.hpp"
#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/problems.hpp"
#include "core/progress.hpp"

namespace strata {
namespace {

struct BooksCommand {
  std::vector<std::string> items;
  std::vector<std::string> disable, enable;
  books::ExtractOptions options;
  int quality = 0;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool warc = false;  // `books warc`: one WARC per item for `strata index`
};

books::ItemResult run_item(const BooksCommand& cmd, const std::string& item, ProblemLog& problems) {
  if (cmd.warc) return books::item_to_warc(item, cmd.options, cmd.options.out, problems);
  return books::extract_item(item, cmd.options, problems);
}

int run(BooksCommand& cmd) {
  for (const auto& [names, on] : {std::pair{&cmd.disable, false}, std::pair{&cmd.enable, true}})
    for (const auto& name : *names)
      if (!books::set_filter(cmd.options.filters, name, on)) {
        std::cerr << "strata books: unknown filter " << name
                  << " (page-type, size, aspect, edge, first-last, book-minimum)\n";
        return exit_code::usage;
      }
  cmd.options.quality = cmd.quality > 0 ? cmd.quality : cmd.options.compat ? 75 : 85;
  ProblemLog problems;
  Counters total;
  std::mutex total_mutex;
  std::atomic<size_t> next{0};
  Progress progress("books", cmd.items.size(), "items", "crops");
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < cmd.items.size();) {
      books::ItemResult result = run_item(cmd, cmd.items[i], problems);
      progress.advance(1);
      progress.add_items(static_cast<uint64_t>(result.counters.get("crops")));
      std::lock_guard lock(total_mutex);
      total.merge(result.counters);
    }
  };
  std::vector<std::thread> threads;
  const unsigned n = std::min<unsigned>(cmd.jobs, static_cast<unsigned>(cmd.items.size()));
  try {
    for (unsigned t = 1; t < n; ++t) threads.emplace_back(worker);
    worker();
  } catch (const std::exception& e) {  // only output failures get here
    for (auto& t : threads) t.join();
    std::cerr << "strata books: " << e.what() << "\n";
    return exit_code::failure;
  }
  for (auto& t : threads) t.join();
  progress.finish();
  cli::print_report({{"books", total.to_json()}, {"problems", problems_json(problems)}});
  if (total.get("items_done") == 0 && problems.total() > 0) return exit_code::no_input;
  return problems.total() > 0 ? exit_code::input_problems : exit_code::ok;
}

const bool registered = cli::register_command(
    "books", "Pictures of scanned books (Internet Archive items), cropped and described",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<BooksCommand>();
      app.require_subcommand(1);
      auto* extract = app.add_subcommand("extract", "crop every picture of book items");
      auto* warc = app.add_subcommand(
          "warc", "crop book items into one WARC each (OUT/ID.warc.gz) for strata index");
      for (CLI::App* sub : {extract, warc}) {
        sub->add_option("items", cmd->items,
                        "item folders (ID_abbyy.gz, ID_scandata.xml, ID_jp2.zip) or .epub files")
            ->required();
        sub->add_option("-o,--out", cmd->options.out, "output folder")->required();
        sub->add_option("--no-filter", cmd->disable,
                        "turn a default filter off: page-type, size, aspect, edge");
        sub->add_option("--filter", cmd->enable,
                        "turn an optional filter on: first-last, book-minimum");
        sub->add_option("--min-side", cmd->options.filters.min_side,
                        "size filter: smallest side kept")
            ->check(CLI::PositiveNumber);
        sub->add_option("--quality", cmd->quality,
                        "JPEG quality of crops (default 85; --compat 75)")
            ->check(CLI::Range(1, 100));
        sub->add_option("--strip-rows", cmd->options.strip_rows,
                        "JPEG 2000 rows decoded at once (bounds memory on big pictures)")
            ->check(CLI::PositiveNumber);
        sub->add_option("--jobs", cmd->jobs, "items in parallel (default: all cores)")
            ->check(CLI::PositiveNumber);
      }
      extract->add_flag("--compat", cmd->options.compat,
                        "the seed script's output exactly: OUT/ID_imgs.zip with ID.imageslist.txt");
      return [cmd, warc] {
        cmd->warc = warc->parsed();
        return run(*cmd);
      };
    });

}  // namespace
}  // namespace strata
