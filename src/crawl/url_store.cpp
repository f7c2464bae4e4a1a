#include "crawl/url_store.hpp"

#include <lmdb.h>
#include <xxhash.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace strata::crawl {
namespace {

// Sparse: LMDB reserves address space, the file grows with its pages.
constexpr size_t kMapSize = size_t{1} << 40;

void check(int rc, const char* what) {
  if (rc != MDB_SUCCESS)
    throw std::runtime_error(std::string("crawl state: ") + what + ": " + mdb_strerror(rc));
}

MDB_val view(std::string_view s) {
  return MDB_val{s.size(), const_cast<char*>(s.data())};
}

std::string seq_key(uint64_t seq) {  // big-endian, so LMDB's byte order is sequence order
  std::string key(8, '\0');
  for (int i = 7; i >= 0; --i, seq >>= 8)
    key[static_cast<size_t>(i)] = static_cast<char>(seq & 0xFF);
  return key;
}

uint64_t seq_of(const MDB_val& key) {
  uint64_t seq = 0;
  for (size_t i = 0; i < key.mv_size; ++i)
    seq = seq << 8 | static_cast<unsigned char>(static_cast<const char*>(key.mv_data)[i]);
  return seq;
}

// depth, lane, attempts, redirects, then url and via separated by '\n' (neither holds one).
std::string encode(const QueuedUrl& u) {
  return std::to_string(u.depth) + ' ' + std::to_string(static_cast<int>(u.lane)) + ' ' +
         std::to_string(u.attempts) + ' ' + std::to_string(u.redirects) + '\n' + u.url + '\n' +
         u.via;
}

QueuedUrl decode(std::string_view s) {
  QueuedUrl u;
  unsigned depth = 0, lane = 0, attempts = 0, redirects = 0;
  std::string head(s.substr(0, s.find('\n')));
  if (std::sscanf(head.c_str(), "%u %u %u %u", &depth, &lane, &attempts, &redirects) != 4)
    throw std::runtime_error("crawl state: damaged queue entry");
  u.depth = depth;
  u.lane = lane == 0 ? Lane::embed : Lane::link;
  u.attempts = attempts;
  u.redirects = redirects;
  s.remove_prefix(head.size() + 1);
  std::size_t nl = s.find('\n');
  u.url = std::string(s.substr(0, nl));
  if (nl != std::string_view::npos) u.via = std::string(s.substr(nl + 1));
  return u;
}

}  // namespace

struct UrlStore::Impl {
  MDB_env* env = nullptr;
  MDB_dbi seen = 0, queue = 0, digests = 0;
  uint64_t next_seq = 1;

  // Runs `body` in a transaction, committed when it returns, aborted if it throws.
  template <typename Body>
  auto in_txn(bool write, Body body) const {
    MDB_txn* txn = nullptr;
    check(mdb_txn_begin(env, nullptr, write ? 0 : MDB_RDONLY, &txn), "begin");
    try {
      if constexpr (std::is_void_v<decltype(body(txn))>) {
        body(txn);
        check(mdb_txn_commit(txn), "commit");
      } else {
        auto result = body(txn);
        check(mdb_txn_commit(txn), "commit");
        return result;
      }
    } catch (...) {
      mdb_txn_abort(txn);
      throw;
    }
  }

  uint64_t entries(MDB_dbi dbi) const {
    return in_txn(false, [&](MDB_txn* txn) {
      MDB_stat stat;
      check(mdb_stat(txn, dbi, &stat), "stat");
      return static_cast<uint64_t>(stat.ms_entries);
    });
  }
};

UrlStore::UrlStore(const std::filesystem::path& dir) : impl_(new Impl) {
  try {
    std::filesystem::create_directories(dir);
    check(mdb_env_create(&impl_->env), "create");
    check(mdb_env_set_mapsize(impl_->env, kMapSize), "map size");
    check(mdb_env_set_maxdbs(impl_->env, 4), "max dbs");
    // No sync per commit: sync() runs on stop and at the end; a crash loses at most the URLs
    // fetched since, which are fetched again.
    check(mdb_env_open(impl_->env, dir.c_str(), MDB_NOSYNC | MDB_NOMETASYNC, 0644), "open");
    impl_->in_txn(true, [&](MDB_txn* txn) {
      check(mdb_dbi_open(txn, "seen", MDB_CREATE, &impl_->seen), "seen");
      check(mdb_dbi_open(txn, "queue", MDB_CREATE, &impl_->queue), "queue");
      check(mdb_dbi_open(txn, "digests", MDB_CREATE, &impl_->digests), "digests");
      MDB_cursor* cursor = nullptr;
      check(mdb_cursor_open(txn, impl_->queue, &cursor), "cursor");
      MDB_val key, value;
      if (mdb_cursor_get(cursor, &key, &value, MDB_LAST) == MDB_SUCCESS)
        impl_->next_seq = seq_of(key) + 1;
      mdb_cursor_close(cursor);
    });
  } catch (...) {
    if (impl_->env) mdb_env_close(impl_->env);
    delete impl_;
    throw;
  }
}

UrlStore::~UrlStore() {
  mdb_env_sync(impl_->env, 1);
  mdb_env_close(impl_->env);
  delete impl_;
}

bool UrlStore::mark_seen(std::string_view key) {
  XXH128_hash_t hash = XXH3_128bits(key.data(), key.size());
  char bytes[16];
  std::memcpy(bytes, &hash.high64, 8);
  std::memcpy(bytes + 8, &hash.low64, 8);
  return impl_->in_txn(true, [&](MDB_txn* txn) {
    MDB_val k = view({bytes, 16}), v = view("");
    int rc = mdb_put(txn, impl_->seen, &k, &v, MDB_NOOVERWRITE);
    if (rc == MDB_KEYEXIST) return false;
    check(rc, "seen put");
    return true;
  });
}

uint64_t UrlStore::enqueue(const QueuedUrl& url) {
  uint64_t seq = impl_->next_seq++;
  update(seq, url);
  return seq;
}

void UrlStore::update(uint64_t seq, const QueuedUrl& url) {
  impl_->in_txn(true, [&](MDB_txn* txn) {
    std::string key = seq_key(seq), value = encode(url);
    MDB_val k = view(key), v = view(value);
    check(mdb_put(txn, impl_->queue, &k, &v, 0), "queue put");
  });
}

std::optional<QueuedUrl> UrlStore::load(uint64_t seq) const {
  return impl_->in_txn(false, [&](MDB_txn* txn) -> std::optional<QueuedUrl> {
    std::string key = seq_key(seq);
    MDB_val k = view(key), v;
    if (mdb_get(txn, impl_->queue, &k, &v) != MDB_SUCCESS) return std::nullopt;
    return decode({static_cast<const char*>(v.mv_data), v.mv_size});
  });
}

void UrlStore::remove(uint64_t seq) {
  impl_->in_txn(true, [&](MDB_txn* txn) {
    std::string key = seq_key(seq);
    MDB_val k = view(key);
    int rc = mdb_del(txn, impl_->queue, &k, nullptr);
    if (rc != MDB_NOTFOUND) check(rc, "queue del");
  });
}

void UrlStore::for_each_queued(const std::function<void(uint64_t, const QueuedUrl&)>& visit) const {
  impl_->in_txn(false, [&](MDB_txn* txn) {
    MDB_cursor* cursor = nullptr;
    check(mdb_cursor_open(txn, impl_->queue, &cursor), "cursor");
    MDB_val k, v;
    for (int rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST); rc == MDB_SUCCESS;
         rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT))
      visit(seq_of(k), decode({static_cast<const char*>(v.mv_data), v.mv_size}));
    mdb_cursor_close(cursor);
  });
}

std::optional<CaptureRef> UrlStore::capture_of(std::string_view payload_digest) const {
  return impl_->in_txn(false, [&](MDB_txn* txn) -> std::optional<CaptureRef> {
    MDB_val k = view(payload_digest), v;
    if (mdb_get(txn, impl_->digests, &k, &v) != MDB_SUCCESS) return std::nullopt;
    std::string_view s(static_cast<const char*>(v.mv_data), v.mv_size);
    std::size_t a = s.find('\n'), b = s.find('\n', a + 1);
    return CaptureRef{std::string(s.substr(0, a)), std::string(s.substr(a + 1, b - a - 1)),
                      std::string(s.substr(b + 1))};
  });
}

void UrlStore::remember_capture(std::string_view payload_digest, const CaptureRef& capture) {
  impl_->in_txn(true, [&](MDB_txn* txn) {
    std::string value = capture.record_id + '\n' + capture.uri + '\n' + capture.date;
    MDB_val k = view(payload_digest), v = view(value);
    check(mdb_put(txn, impl_->digests, &k, &v, 0), "digest put");
  });
}

uint64_t UrlStore::seen_count() const {
  return impl_->entries(impl_->seen);
}
uint64_t UrlStore::queued_count() const {
  return impl_->entries(impl_->queue);
}
void UrlStore::sync() {
  check(mdb_env_sync(impl_->env, 1), "sync");
}

}  // namespace strata::crawl
