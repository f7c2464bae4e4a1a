#pragma once
// The crawl's on-disk state in one LMDB environment (a folder): the URL-seen set (16-byte
// XXH3-128 keys of seen_key), the queued URLs by sequence number (removed once fetched, so a
// stopped crawl resumes with exactly what was left), and the payload digests already written
// (for revisit records). Memory use is the OS page cache only. Throws std::runtime_error when
// the folder cannot be opened or written (a failure of the run, not of one URL).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace strata::crawl {

enum class Lane : uint8_t { embed = 0, link = 1 };  // front-queue priorities, embeds first

struct QueuedUrl {
  std::string url;
  std::string via;     // the page that linked or embedded it; "" for seeds
  uint32_t depth = 0;  // link hops from a seed (embeds and redirects add none)
  Lane lane = Lane::link;
  uint32_t attempts = 0;   // fetches that ended in a retryable failure
  uint32_t redirects = 0;  // redirects followed to reach it
};

struct CaptureRef {  // the first capture of a payload, for revisits
  std::string record_id, uri, date;
};

class UrlStore {
 public:
  explicit UrlStore(const std::filesystem::path& dir);
  ~UrlStore();
  UrlStore(const UrlStore&) = delete;
  UrlStore& operator=(const UrlStore&) = delete;

  // Adds `key` to the seen set; false when it was already there.
  bool mark_seen(std::string_view key);
  uint64_t enqueue(const QueuedUrl& url);  // returns its sequence number
  void update(uint64_t seq, const QueuedUrl& url);
  std::optional<QueuedUrl> load(uint64_t seq) const;
  void remove(uint64_t seq);
  // Every queued URL, in sequence order.
  void for_each_queued(const std::function<void(uint64_t, const QueuedUrl&)>& visit) const;
  std::optional<CaptureRef> capture_of(std::string_view payload_digest) const;
  void remember_capture(std::string_view payload_digest, const CaptureRef& capture);
  uint64_t seen_count() const;
  uint64_t queued_count() const;
  void sync();  // flushes to disk (on stop and at the end)

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace strata::crawl
