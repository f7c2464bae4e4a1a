#include "judged.hpp"

#include <fstream>
#include <stdexcept>

#include "core/json.hpp"

namespace strata::bench {
namespace {

template <typename F>
void for_each_line(const std::filesystem::path& file, F&& parse) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    try {
      parse(Json::parse(line));
    } catch (const std::exception& e) {
      throw std::runtime_error(file.string() + ":" + std::to_string(number) + ": " + e.what());
    }
  }
}

}  // namespace

std::vector<JudgedQuery> read_queries(const std::filesystem::path& file) {
  std::vector<JudgedQuery> out;
  for_each_line(file, [&](const Json& j) {
    JudgedQuery q{j.at("query").get<std::string>(), j.at("set").get<std::string>(), {}};
    for (const auto& g : j.at("judgments"))
      q.grade[g.at("url").get<std::string>()] = g.at("grade").get<int>();
    out.push_back(std::move(q));
  });
  return out;
}

std::set<std::string> read_layout(const std::filesystem::path& file) {
  std::set<std::string> out;
  for_each_line(file, [&](const Json& j) { out.insert(j.at("url").get<std::string>()); });
  return out;
}

}  // namespace strata::bench
