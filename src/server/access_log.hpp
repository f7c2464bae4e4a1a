#pragma once
// The access log of `strata serve --access-log FILE|-`: one JSON object per reply, one per
// line, flushed at once: {"time":"2026-11-26T12:00:00.123Z","client":"127.0.0.1",
// "method":"GET","path":"/imagesearch?q=x","status":200,"bytes":1234,"ms":3.2}. Refused
// requests (400, 431, 503, ...) are logged too, with "-" for what could not be read.
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "server/http_listener.hpp"

namespace strata::server {

class AccessLog {
 public:
  // "-": stderr. Throws std::runtime_error when the file cannot be opened for appending.
  explicit AccessLog(const std::string& where);
  ~AccessLog();
  void write(const AccessEntry& entry);

 private:
  std::mutex mutex_;
  std::FILE* out_ = nullptr;
  bool owned_ = false;
};

}  // namespace strata::server
