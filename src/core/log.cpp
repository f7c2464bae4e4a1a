#include "core/log.hpp"

#include "core/progress.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace strata::log {
namespace {

Level initial_level() {
  const char* env = std::getenv("STRATA_LOG");
  if (!env) return Level::warn;
  if (!std::strcmp(env, "debug")) return Level::debug;
  if (!std::strcmp(env, "info")) return Level::info;
  if (!std::strcmp(env, "error")) return Level::error;
  return Level::warn;
}

std::atomic<Level> g_level{initial_level()};
std::mutex g_mutex;
const char* kNames[] = {"debug", "info", "warn", "error"};

}  // namespace

void set_level(Level value) { g_level = value; }
Level level() { return g_level; }
bool enabled(Level value) { return value >= g_level.load(); }

void write(Level value, const std::string& event, const Json& fields) {
  if (!enabled(value)) return;
  Json line = {{"level", kNames[static_cast<int>(value)]}, {"event", event}};
  for (const auto& [key, field] : fields.items()) line[key] = field;
  std::string text = line.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::lock_guard lock(g_mutex);
  std::fprintf(stderr, "%s%s\n", progress_line_reset(), text.c_str());
}

}  // namespace strata::log
