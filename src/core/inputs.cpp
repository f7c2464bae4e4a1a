#include "core/inputs.hpp"

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;

namespace strata {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void add_path(const fs::path& path, std::vector<fs::path>& out, const ProblemSink& problems) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec) && looks_like_archive(it->path())) out.push_back(it->path());
  } else if (fs::exists(path, ec)) {
    out.push_back(path);
  } else if (problems) {
    problems({path.string(), 0, "input_missing", "no such file or directory"});
  }
}

}  // namespace

bool looks_like_archive(const fs::path& path) {
  std::string name = lower(path.filename().string());
  for (const char* suffix : {".warc", ".arc", ".warc.gz", ".arc.gz", ".warc.zst", ".wacz"})
    if (ends_with(name, suffix)) return true;
  return false;
}

std::vector<fs::path> expand_inputs(const std::vector<std::string>& args, const ProblemSink& problems) {
  std::vector<fs::path> out;
  for (const auto& arg : args) {
    if (arg.size() > 1 && arg[0] == '@') {
      std::ifstream list(arg.substr(1));
      if (!list) {
        if (problems) problems({arg.substr(1), 0, "input_missing", "cannot open list file"});
        continue;
      }
      for (std::string line; std::getline(list, line);)
        if (!line.empty() && line[0] != '#') add_path(line, out, problems);
    } else {
      add_path(arg, out, problems);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace strata
