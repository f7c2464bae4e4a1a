#include "core/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/table.hpp"

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

std::atomic<ProgressDisplay> g_display{ProgressDisplay::terminal};
std::atomic<int> g_lines_drawn{0};
constexpr double kPlainLineSeconds = 10;

std::string amount(double value, const std::string& unit) {
  if (unit == "B") return human_bytes(value);
  return format_count(std::llround(value));
}

std::string rate_text(double rate, const std::string& unit) {
  if (unit == "B") return human_bytes(rate) + "/s";
  char buf[48];
  std::snprintf(buf, sizeof buf, rate >= 10 ? "%.0f %s/s" : "%.1f %s/s", rate, unit.c_str());
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

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void set_progress_display(ProgressDisplay display) {
  g_display = display;
}

const char* progress_line_reset() {
  return g_lines_drawn > 0 ? "\r\033[K" : "";
}

void RateMeter::sample(double now_s, double done) {
  if (!started_) {
    started_ = true;
    first_s_ = last_s_ = now_s;
    last_done_ = done;
    return;
  }
  const double dt = now_s - last_s_;
  if (dt < 0.5) return;
  const double current = (done - last_done_) / dt;
  rate_ = has_rate_ ? rate_ + (1 - std::exp(-dt / window_s_)) * (current - rate_) : current;
  has_rate_ = true;
  last_s_ = now_s;
  last_done_ = done;
}

std::optional<double> RateMeter::eta(double total, double done) const {
  if (!has_rate_ || last_s_ - first_s_ < warmup_s_ || rate_ <= 0 || total <= 0) return {};
  return std::max(0.0, total - done) / rate_;
}

Progress::Progress(std::string label, uint64_t total, std::string unit, std::string items)
    : Progress(std::move(label), total, std::move(unit), std::move(items), steady_seconds) {
  const ProgressDisplay display = g_display;
  const bool tty = isatty(STDERR_FILENO);
  if (display != ProgressDisplay::off && tty) mode_ = Mode::terminal;
  if (display == ProgressDisplay::terminal_or_log && !tty) mode_ = Mode::plain;
  if (mode_ == Mode::terminal) ++g_lines_drawn;
  if (mode_ != Mode::none) thread_ = std::thread([this] { loop(); });
}

Progress::Progress(std::string label, uint64_t total, std::string unit, std::string items,
                   Clock clock)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      items_unit_(std::move(items)),
      clock_(std::move(clock)),
      mode_(Mode::none),
      total_(total),
      start_(clock_()) {
  sample();
}

Progress::~Progress() {
  finish();
}

double Progress::elapsed_seconds() const {
  return clock_() - start_;
}

void Progress::sample() {
  const double now = clock_();
  std::lock_guard lock(meter_mutex_);
  meter_.sample(now, static_cast<double>(done()));
}

std::string Progress::amounts() const {
  std::string text = amount(static_cast<double>(done()), unit_);
  if (const uint64_t total = total_.load()) text += "/" + amount(static_cast<double>(total), unit_);
  if (unit_ != "B") text += " " + unit_;
  if (!items_unit_.empty())
    text += "  " + format_count(static_cast<int64_t>(items())) + " " + items_unit_;
  return text;
}

std::string Progress::render(int width) const {
  const double total = static_cast<double>(total_.load());
  const double done_now = static_cast<double>(done());
  std::string tail = " " + amounts();
  {
    std::lock_guard lock(meter_mutex_);
    if (meter_.rate() > 0) tail += "  " + rate_text(meter_.rate(), unit_);
    if (auto eta = meter_.eta(total, done_now)) tail += "  ETA " + duration(*eta);
  }
  const std::string head = label_ + " ";
  const int bar = width - static_cast<int>(head.size() + tail.size()) - 3;
  if (total <= 0 || bar < 10) return head + tail.substr(1);
  const double fraction = std::min(1.0, done_now / total);
  const int filled = static_cast<int>(fraction * bar);
  return head + "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "]" + tail;
}

std::string Progress::final_line() const {
  const double elapsed = elapsed_seconds();
  std::string line = label_ + " " + amounts() + "  in " + duration(elapsed);
  if (elapsed >= 1) line += " (" + rate_text(static_cast<double>(done()) / elapsed, unit_) + ")";
  return line;
}

void Progress::loop() {
  std::unique_lock lock(mutex_);
  double next_plain = clock_() + kPlainLineSeconds;
  while (!stop_) {
    sample();
    if (mode_ == Mode::terminal) {
      std::fprintf(stderr, "\r\033[K%s", render(terminal_width() - 1).c_str());
      std::fflush(stderr);
    } else if (clock_() >= next_plain) {
      std::fprintf(stderr, "%s\n", render(0).c_str());
      next_plain += kPlainLineSeconds;
    }
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
  if (mode_ == Mode::terminal) {
    --g_lines_drawn;
    std::fprintf(stderr, "\r\033[K");
  }
  if (mode_ != Mode::none) std::fprintf(stderr, "%s\n", final_line().c_str());
}

}  // namespace strata
