// `strata archives list|relocate`: the index's archive registry (index/archive_registry.hpp).
// list prints, per archive key, where the archive is registered, its size and format, and
// whether it is there now (found, moved: found under an --archive-root, missing, changed);
// relocate rewrites the registered paths under one folder to another, in one transaction.
#include <xapian.h>

#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "index/archive_registry.hpp"
#include "index/moderation.hpp"

namespace strata {
namespace {

struct ArchivesCommand {
  std::string index;
  std::vector<std::string> roots;
  std::string from, to;
};

int list(const ArchivesCommand& cmd) {
  const std::vector<std::filesystem::path> roots(cmd.roots.begin(), cmd.roots.end());
  Xapian::Database db(cmd.index);
  int absent = 0;
  std::cout << "key\tpath\tsize\tformat\tstate\n";
  for (const auto& e : index::registered_archives(db)) {
    const archive::Located located = archive::locate_archive(e, roots);
    std::cout << e.key << '\t' << e.path << '\t' << e.size << '\t'
              << (e.format.empty() ? "-" : e.format) << '\t' << archive::to_string(located.state);
    if (located.state == archive::ArchiveState::moved)
      std::cout << ' ' << archive::container_of(located.file);
    std::cout << '\n';
    if (located.file.empty()) {
      ++absent;
      std::cerr << located.error << '\n';
    }
  }
  return absent ? exit_code::input_problems : exit_code::ok;
}

int relocate(const ArchivesCommand& cmd) {
  Xapian::WritableDatabase db(cmd.index, Xapian::DB_OPEN);
  const size_t changed = index::relocate_archives(db, cmd.from, cmd.to);
  db.commit();
  std::cerr << "relocated " << changed << " archive" << (changed == 1 ? "" : "s") << '\n';
  return changed ? exit_code::ok : exit_code::input_problems;
}

int run(const ArchivesCommand& cmd, bool relocating) {
  if (!index::index_exists(cmd.index)) {
    std::cerr << "no index in " << cmd.index << '\n';
    return exit_code::usage;
  }
  try {
    return relocating ? relocate(cmd) : list(cmd);
  } catch (const Xapian::Error& e) {
    std::cerr << "index " << cmd.index << ": " << e.get_msg() << '\n';
    return exit_code::failure;
  }
}

const bool registered = cli::register_command(
    "archives", "List the archives an index reads, or relocate them after a move",
    [](CLI::App& app) -> cli::Runner {
      auto cmd = std::make_shared<ArchivesCommand>();
      auto relocating = std::make_shared<bool>(false);
      app.require_subcommand(1);
      auto* list_cmd = app.add_subcommand("list", "key, path, size, format and state per archive");
      auto* move_cmd = app.add_subcommand(
          "relocate", "Rewrite registered paths under OLD to NEW (documents keep their keys)");
      for (auto* sub : {list_cmd, move_cmd})
        sub->add_option("-i,--index", cmd->index, "index folder")->required();
      list_cmd->add_option("--archive-root", cmd->roots,
                           "also look under this folder (repeatable), as serve does");
      move_cmd->add_option("old", cmd->from, "registered path or folder")->required();
      move_cmd->add_option("new", cmd->to, "where it is now")->required();
      move_cmd->callback([relocating] { *relocating = true; });
      return [cmd, relocating] { return run(*cmd, *relocating); };
    });

}  // namespace
}  // namespace strata
