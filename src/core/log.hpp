#pragma once
// Structured logging: one JSON object per line on stderr ({"level","event",...fields}).
// Quiet by default (warnings and errors only); --verbose / STRATA_LOG=info|debug raise it.
#include <string>

#include "core/json.hpp"

namespace strata::log {

enum class Level { debug = 0, info = 1, warn = 2, error = 3 };

void set_level(Level level);
Level level();
bool enabled(Level level);
void write(Level level, const std::string& event, const Json& fields = Json::object());

inline void debug(const std::string& e, const Json& f = Json::object()) { write(Level::debug, e, f); }
inline void info(const std::string& e, const Json& f = Json::object()) { write(Level::info, e, f); }
inline void warn(const std::string& e, const Json& f = Json::object()) { write(Level::warn, e, f); }
inline void error(const std::string& e, const Json& f = Json::object()) { write(Level::error, e, f); }

}  // namespace strata::log
