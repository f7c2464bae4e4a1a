#include "core/problems.hpp"

#include "core/report.hpp"

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

std::string problem_report(const ProblemLog& log, size_t max_lines) {
  if (log.total() == 0) return {};
  return report_text(Json{{"problems", problems_json(log, max_lines)}});
}

Json problems_json(const ProblemLog& log, size_t max_lines) {
  Json out = {{"total", log.total()}};
  if (log.total() == 0) return out;
  out["by_kind"] = log.by_kind().to_json();
  if (max_lines == 0) return out;
  Json first = Json::array();
  auto kept = log.kept();
  for (size_t i = 0; i < kept.size() && i < max_lines; ++i) first.push_back(to_string(kept[i]));
  out["first"] = std::move(first);
  if (log.total() > max_lines) out["more"] = log.total() - max_lines;
  return out;
}

}  // namespace strata
