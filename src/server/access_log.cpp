#include "server/access_log.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "core/json.hpp"

namespace strata::server {
namespace {

std::string utc_now() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

}  // namespace

AccessLog::AccessLog(const std::string& where) {
  if (where == "-") {
    out_ = stderr;
    return;
  }
  out_ = std::fopen(where.c_str(), "a");
  if (!out_)
    throw std::runtime_error("cannot open the access log " + where + ": " + std::strerror(errno));
  owned_ = true;
}

AccessLog::~AccessLog() {
  if (owned_) std::fclose(out_);
}

void AccessLog::write(const AccessEntry& e) {
  Json j = {{"time", utc_now()},
            {"client", e.client},
            {"method", e.method},
            {"path", e.target},
            {"status", e.status},
            {"bytes", e.bytes},
            {"ms", std::round(e.ms * 10) / 10}};
  std::string line = j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  std::lock_guard lock(mutex_);
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
}

}  // namespace strata::server
