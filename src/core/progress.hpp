#pragma once
// Progress of a long step on stderr. On a terminal: one redrawn line with a bar, the amount
// done (bytes or a count), a second count (records, documents), the rate and an ETA. Not on a
// terminal: nothing, or with -v a plain line every 10 s. Each step ends with a final line of
// its true totals. Workers call advance() and add_items() from any thread.
//
// The ETA comes from a smoothed rate (RateMeter), never from the first seconds of a step, so
// neither a fast start (cached work) nor a burst swings it.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace strata {

// Where progress goes; the CLI sets it once from --quiet and -v.
enum class ProgressDisplay {
  terminal,         // a redrawn line when stderr is a terminal, nothing elsewhere (default)
  terminal_or_log,  // the same, and a plain line every 10 s when it is not (-v)
  off,              // nothing, not even the final line (--quiet)
};
void set_progress_display(ProgressDisplay display);

// "\r\033[K" while a progress line is drawn on the terminal, else "": a line written to
// stderr starts with it, so it replaces the bar instead of being appended to it.
const char* progress_line_reset();

// An exponentially weighted average of the rate, over about `window_s` seconds: each sample
// (at least half a second after the last) moves it toward the rate since that sample by
// 1 - exp(-dt / window_s). No ETA before `warmup_s` seconds of samples.
class RateMeter {
 public:
  explicit RateMeter(double window_s = 10, double warmup_s = 3)
      : window_s_(window_s), warmup_s_(warmup_s) {}
  void sample(double now_s, double done);
  double rate() const { return rate_; }  // units per second; 0 until two samples
  // Seconds left for `total`; none while warming up or when nothing moves.
  std::optional<double> eta(double total, double done) const;

 private:
  double window_s_, warmup_s_;
  bool started_ = false, has_rate_ = false;
  double first_s_ = 0, last_s_ = 0, last_done_ = 0, rate_ = 0;
};

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic

  // `total` of the main measure in `unit` ("B" shows as bytes, anything else as a count, e.g.
  // "images"); 0 when unknown. `items` names the second count (add_items), "" for none.
  Progress(std::string label, uint64_t total, std::string unit = "B",
           std::string items = "records");
  // Draws nothing and reads time from `clock` (tests).
  Progress(std::string label, uint64_t total, std::string unit, std::string items, Clock clock);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(uint64_t amount) { done_.fetch_add(amount, std::memory_order_relaxed); }
  void add_items(uint64_t n) { items_.fetch_add(n, std::memory_order_relaxed); }
  // For steps that learn their total after starting.
  void set_total(uint64_t total) { total_.store(total, std::memory_order_relaxed); }
  uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  uint64_t items() const { return items_.load(std::memory_order_relaxed); }
  // Feeds the rate meter (the display does every 200 ms).
  void sample();
  // Stops the display and leaves the final line with the totals and elapsed time.
  void finish();
  double elapsed_seconds() const;
  // The line drawn now, `width` columns at most for the bar (0: no bar).
  std::string render(int width) const;
  std::string final_line() const;

 private:
  enum class Mode { none, terminal, plain };
  void loop();
  std::string amounts() const;

  std::string label_, unit_, items_unit_;
  Clock clock_;
  Mode mode_;
  std::atomic<uint64_t> total_, done_{0}, items_{0};
  double start_;
  mutable std::mutex meter_mutex_;
  RateMeter meter_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// "1.2 GB", "340 kB": human-readable byte counts.
std::string human_bytes(double bytes);

}  // namespace strata
