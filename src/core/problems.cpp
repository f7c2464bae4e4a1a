#include "core/problems.hpp"

namespace strata {

std::string to_string(const Problem& problem) {
  std::string out = problem.file + ":" + std::to_string(problem.offset) + ": " + problem.kind;
  if (!problem.detail.empty()) out += ": " + problem.detail;
  return out;
}

void ProblemLog::report(const Problem& problem) {
  std::lock_guard lock(mutex_);
  ++total_;
  by_kind_.add(problem.kind);
  if (kept_.size() < keep_) kept_.push_back(problem);
}

size_t ProblemLog::total() const {
  std::lock_guard lock(mutex_);
  return total_;
}

Counters ProblemLog::by_kind() const {
  std::lock_guard lock(mutex_);
  return by_kind_;
}

std::vector<Problem> ProblemLog::kept() const {
  std::lock_guard lock(mutex_);
  return kept_;
}

}  // namespace strata
