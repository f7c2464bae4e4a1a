#pragma once
// A progress display for long runs: on a terminal a single redrawn line with a bar, rate and
// ETA; elsewhere (logs, CI) nothing until finish(). Workers call advance() from any thread.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace strata {

class Progress {
 public:
  // `total` in `unit`s (e.g. bytes); 0 when unknown. Draws only when stderr is a terminal,
  // unless `force` (tests) is set.
  Progress(std::string label, uint64_t total, std::string unit = "B", bool force = false);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(uint64_t amount) { done_.fetch_add(amount, std::memory_order_relaxed); }
  void add_items(uint64_t n) { items_.fetch_add(n, std::memory_order_relaxed); }
  // Stops the display and leaves a final line with totals and elapsed time.
  void finish();
  double elapsed_seconds() const;
  // The line that would be drawn now (exposed for tests).
  std::string render(int width) const;

 private:
  void loop();

  std::string label_;
  uint64_t total_;
  std::string unit_;
  bool enabled_;
  std::atomic<uint64_t> done_{0};
  std::atomic<uint64_t> items_{0};
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// "1.2 GB", "340 kB": human-readable byte counts.
std::string human_bytes(double bytes);

}  // namespace strata
