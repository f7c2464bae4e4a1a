#pragma once
// Shared by the benchmarks: runs a measured pass in a forked child process, so the peak RSS
// reported (the child's getrusage) belongs to that pass alone.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <type_traits>
#include <vector>

namespace strata::bench {

template <typename Pass>
struct Figures {
  double seconds = 0;  // median of the runs
  Pass pass{};         // what the median run counted
  long max_rss_kib = 0;
};

// Runs `pass` `runs` times in a child process; exits the program if the child fails.
template <typename Pass>
Figures<Pass> measure_in_child(int runs, const std::function<Pass()>& pass) {
  static_assert(std::is_trivially_copyable_v<Pass>, "figures travel through a pipe");
  int fds[2];
  if (pipe(fds) != 0) std::exit(1);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::vector<double> times;
    std::vector<Pass> passes;
    for (int i = 0; i < runs; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      passes.push_back(pass());
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::vector<size_t> order(times.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return times[a] < times[b]; });
    Figures<Pass> f;
    f.seconds = times[order[order.size() / 2]];
    f.pass = passes[order[order.size() / 2]];
    ssize_t n = write(fds[1], &f, sizeof f);
    _exit(n == sizeof f ? 0 : 1);
  }
  close(fds[1]);
  Figures<Pass> f;
  ssize_t n = read(fds[0], &f, sizeof f);
  close(fds[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  if (n != sizeof f || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "benchmark child failed\n");
    std::exit(1);
  }
  f.max_rss_kib = usage.ru_maxrss;
  return f;
}

}  // namespace strata::bench
