#include "command.hpp"

#include <algorithm>

#include "core/report.hpp"
#include "core/size.hpp"

namespace strata::cli {

GlobalFlags& global_flags() {
  static GlobalFlags flags;
  return flags;
}

void print_report(const Json& report, const std::vector<std::string>& text_members,
                  std::ostream& out) {
  if (global_flags().json) {
    out << report.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
  } else if (!global_flags().quiet) {
    Json shown = Json::object();
    for (const auto& [key, value] : report.items())
      if (text_members.empty() ||
          std::find(text_members.begin(), text_members.end(), key) != text_members.end())
        shown[key] = value;
    out << report_text(shown);
  }
  out.flush();
}

CLI::Option* add_size_option(CLI::App& app, const std::string& name, uint64_t& bytes,
                             const std::string& description) {
  const CLI::Validator size(
      [](std::string& text) -> std::string {
        const auto parsed = parse_size(text);
        if (!parsed) return "'" + text + "' is not a size; expected " + kSizeFormat;
        text = std::to_string(*parsed);
        return {};
      },
      "SIZE");
  return app.add_option(name, bytes, description)->transform(size);
}

}  // namespace strata::cli
