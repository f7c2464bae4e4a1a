#include "server/export_progress.hpp"

#include <algorithm>

#include "core/json.hpp"

namespace strata::server {

bool ExportProgress::valid_token(std::string_view token) {
  return token.size() >= 16 && token.size() <= 64 &&
         std::all_of(token.begin(), token.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_';
         });
}

std::shared_ptr<ExportCount> ExportProgress::track(const std::string& token, uint64_t total) {
  auto count = std::make_shared<ExportCount>();
  count->total = total;
  std::lock_guard lock(mutex_);
  std::erase_if(tracked_, [&](const auto& t) { return t.first == token; });
  if (tracked_.size() >= kMaxTracked) tracked_.pop_front();
  tracked_.emplace_back(token, count);
  return count;
}

Reply ExportProgress::reply(const Params& params, const ApiConfig& config) const {
  auto [first, end] = params.equal_range("token");
  if (first == end || !valid_token(std::prev(end)->second))
    return bad_request("token", "token must be 16 to 64 letters, digits, '-' or '_'", config);
  const std::string& token = std::prev(end)->second;
  std::shared_ptr<ExportCount> count;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [t, c] : tracked_)
      if (t == token) count = c;
  }
  Reply r;
  if (!count) {
    r.status = 404;
    r.body = Json{{"error", {{"status", 404}, {"message", "no export with this token"}}}}.dump();
    return r;
  }
  r.body = Json{{"token", token},
                {"images", count->images.load()},
                {"total", count->total.load()},
                {"done", count->done.load()}}
               .dump();
  return r;
}

}  // namespace strata::server
