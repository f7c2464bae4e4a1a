#include "crawl/fetcher.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <unordered_map>

#include "core/timestamp.hpp"

namespace strata::crawl {
namespace {

struct Transfer {
  FetchResult result;
  uint64_t max_body = 0;
  curl_slist* connect_to = nullptr;
  curl_slist* headers = nullptr;
};

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  // A new status line starts a new response (1xx, followed redirects): keep the last.
  if (line.rfind("HTTP/", 0) == 0) {
    t->result.response_head.clear();
    t->result.body.clear();
  }
  t->result.response_head.append(line);
  return size * count;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  if (t->result.body.size() + n > t->max_body) {
    t->result.body.append(data, t->max_body - t->result.body.size());
    t->result.truncated = true;
    return 0;  // stops the transfer (CURLE_WRITE_ERROR, read as truncation)
  }
  t->result.body.append(data, n);
  return n;
}

int on_debug(CURL*, curl_infotype type, char* data, size_t size, void* user) {
  if (type == CURLINFO_HEADER_OUT)
    static_cast<Transfer*>(user)->result.request_head.assign(data, size);
  return 0;
}

std::string now_14() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return timestamp_from_epoch(std::chrono::duration_cast<std::chrono::seconds>(now).count());
}

}  // namespace

std::string FetchResult::header(std::string_view name) const {
  std::string_view head = response_head;
  while (!head.empty()) {
    std::size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    head = end == std::string_view::npos ? std::string_view() : head.substr(end + 1);
    std::size_t colon = line.find(':');
    if (colon != name.size()) continue;
    if (!std::equal(name.begin(), name.end(), line.begin(),
                    [](char a, char b) { return lower(a) == lower(b); }))
      continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.remove_suffix(1);
    return std::string(value);
  }
  return "";
}

struct Fetcher::Impl {
  FetchOptions options;
  CURLM* multi = nullptr;
  std::unordered_map<CURL*, std::unique_ptr<Transfer>> transfers;
};

Fetcher::Fetcher(FetchOptions options) : impl_(std::make_unique<Impl>()) {
  static const bool global = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  if (!global) throw std::runtime_error("libcurl could not start");
  impl_->options = std::move(options);
  impl_->multi = curl_multi_init();
  if (!impl_->multi) throw std::runtime_error("libcurl could not start");
}

Fetcher::~Fetcher() {
  for (auto& [easy, transfer] : impl_->transfers) {
    curl_multi_remove_handle(impl_->multi, easy);
    curl_easy_cleanup(easy);
    curl_slist_free_all(transfer->connect_to);
    curl_slist_free_all(transfer->headers);
  }
  curl_multi_cleanup(impl_->multi);
}

std::size_t Fetcher::active() const {
  return impl_->transfers.size();
}

void Fetcher::start(FetchRequest request) {
  const FetchOptions& o = impl_->options;
  auto transfer = std::make_unique<Transfer>();
  Transfer* t = transfer.get();
  t->result.id = request.id;
  t->result.url = request.url;
  t->result.date = now_14();
  t->max_body = o.max_body_bytes;
  for (const auto& rule : o.connect_to)
    t->connect_to = curl_slist_append(t->connect_to, rule.c_str());
  t->headers = curl_slist_append(t->headers, "Accept: */*");
  CURL* easy = curl_easy_init();
  if (!easy) throw std::runtime_error("libcurl could not start a transfer");
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_USERAGENT, o.user_agent.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t->headers);
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, request.max_redirects > 0 ? 1L : 0L);
  curl_easy_setopt(easy, CURLOPT_MAXREDIRS, static_cast<long>(request.max_redirects));
  curl_easy_setopt(easy, CURLOPT_HTTP_TRANSFER_DECODING, 0L);
  curl_easy_setopt(easy, CURLOPT_HTTP_CONTENT_DECODING, 0L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(o.connect_timeout_s * 1000));
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(o.total_timeout_s * 1000));
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME,
                   std::max(1L, static_cast<long>(o.stall_timeout_s)));
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, o.verify_tls ? 1L : 0L);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  if (t->connect_to) curl_easy_setopt(easy, CURLOPT_CONNECT_TO, t->connect_to);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(easy, CURLOPT_VERBOSE, 1L);  // needed for the request head (on_debug)
  curl_easy_setopt(easy, CURLOPT_DEBUGFUNCTION, on_debug);
  curl_easy_setopt(easy, CURLOPT_DEBUGDATA, t);
  curl_easy_setopt(easy, CURLOPT_PRIVATE, t);
  impl_->transfers.emplace(easy, std::move(transfer));
  curl_multi_add_handle(impl_->multi, easy);
}

std::vector<FetchResult> Fetcher::poll(double max_wait_s) {
  int running = 0;
  curl_multi_perform(impl_->multi, &running);
  if (running > 0 && max_wait_s > 0)
    curl_multi_poll(impl_->multi, nullptr, 0, static_cast<int>(max_wait_s * 1000), nullptr);
  curl_multi_perform(impl_->multi, &running);
  std::vector<FetchResult> done;
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(impl_->multi, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    CURL* easy = msg->easy_handle;
    auto it = impl_->transfers.find(easy);
    if (it == impl_->transfers.end()) continue;
    FetchResult& r = it->second->result;
    CURLcode code = msg->data.result;
    r.ok = code == CURLE_OK || (code == CURLE_WRITE_ERROR && r.truncated);
    if (!r.ok) r.error = curl_easy_strerror(code);
    r.timed_out = code == CURLE_OPERATION_TIMEDOUT;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &r.status);
    char* ip = nullptr;
    if (curl_easy_getinfo(easy, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK && ip) r.ip = ip;
    char* final_url = nullptr;
    if (curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &final_url) == CURLE_OK && final_url)
      r.final_url = final_url;
    curl_off_t micros = 0;
    curl_easy_getinfo(easy, CURLINFO_TOTAL_TIME_T, &micros);
    r.seconds = static_cast<double>(micros) / 1e6;
    done.push_back(std::move(r));
    curl_multi_remove_handle(impl_->multi, easy);
    curl_slist_free_all(it->second->connect_to);
    curl_slist_free_all(it->second->headers);
    curl_easy_cleanup(easy);
    impl_->transfers.erase(it);
  }
  return done;
}

}  // namespace strata::crawl
