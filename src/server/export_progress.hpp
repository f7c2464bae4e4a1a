#pragma once
// How far the exports in flight have come (docs/api.md, "Export progress"): an export asked
// for with `progress=TOKEN` (16 to 64 letters, digits, '-' or '_', chosen by the client, e.g.
// a random UUID) counts its results as it streams them, and
// GET /imagesearch/export/progress?token=TOKEN answers {"images": written so far, "total":
// the export's size, "done": true once its last byte went out}. The page shows it beside the
// browser's own download (web/public/export.js). Holds the latest kMaxTracked exports; an
// older token is forgotten (404), as is a token never used.
//
// Failure contract: never throws; a bad token is a 400 naming `token` (progress) or `progress`
// (export).
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "server/api.hpp"

namespace strata::server {

struct ExportCount {
  std::atomic<uint64_t> images{0};
  std::atomic<uint64_t> total{0};
  std::atomic<bool> done{false};
};

class ExportProgress {
 public:
  static constexpr size_t kMaxTracked = 256;
  static bool valid_token(std::string_view token);
  // A fresh count for `token` (an export's), replacing any earlier one of that token.
  std::shared_ptr<ExportCount> track(const std::string& token, uint64_t total);
  // GET /imagesearch/export/progress.
  Reply reply(const Params& params, const ApiConfig& config) const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::pair<std::string, std::shared_ptr<ExportCount>>> tracked_;  // oldest first
};

}  // namespace strata::server
