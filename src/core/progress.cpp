#include "core/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace strata {

std::string human_bytes(double bytes) {
  static const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return buf;
}

namespace {

std::string amount(double value, const std::string& unit) {
  if (unit == "B") return human_bytes(value);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f %s", value, unit.c_str());
  return buf;
}

std::string duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%02ld:%02ld", s / 60, s % 60);
  return buf;
}

int terminal_width() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col;
  return 80;
}

}  // namespace

Progress::Progress(std::string label, uint64_t total, std::string unit, bool force)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      enabled_(force || isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {
  if (enabled_) thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() { finish(); }

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::render(int width) const {
  double done = static_cast<double>(done_.load());
  double elapsed = elapsed_seconds();
  double rate = elapsed > 0 ? done / elapsed : 0;
  std::string tail = " " + amount(done, unit_);
  if (total_) tail += "/" + amount(static_cast<double>(total_), unit_);
  tail += "  " + amount(rate, unit_) + "/s";
  if (items_.load()) tail += "  " + std::to_string(items_.load()) + " records";
  if (total_ && rate > 0) tail += "  ETA " + duration((static_cast<double>(total_) - done) / rate);
  std::string head = label_ + " ";
  int bar = width - static_cast<int>(head.size() + tail.size()) - 3;
  if (!total_ || bar < 10) return head + tail;
  double fraction = std::min(1.0, done / static_cast<double>(total_));
  int filled = static_cast<int>(fraction * bar);
  return head + "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "]" + tail;
}

void Progress::loop() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    std::string line = render(terminal_width() - 1);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    wake_.wait_for(lock, std::chrono::milliseconds(200));
  }
}

void Progress::finish() {
  {
    std::lock_guard lock(mutex_);
    if (stop_) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (enabled_) std::fprintf(stderr, "\r\033[K%s in %s\n", render(0).c_str(), duration(elapsed_seconds()).c_str());
}

}  // namespace strata
