#include "index/stored_data.hpp"

#include <zdict.h>
#include <zstd.h>

#include <map>
#include <mutex>

#include "index/schema.hpp"

namespace strata::index {

// zstd levels for stored documents: 12 makes them ~9 % smaller than the default 3 for a few
// tens of microseconds per document written; reading costs the same at any level.
constexpr int kSmallLevel = 12, kFastLevel = 3;

struct ZstdDictionary {
  explicit ZstdDictionary(std::string dict_bytes)
      : bytes(std::move(dict_bytes)), ddict(ZSTD_createDDict(bytes.data(), bytes.size())) {}
  ~ZstdDictionary() {
    for (ZSTD_CDict* cdict : cdicts) ZSTD_freeCDict(cdict);
    ZSTD_freeDDict(ddict);
  }
  ZstdDictionary(const ZstdDictionary&) = delete;
  ZstdDictionary& operator=(const ZstdDictionary&) = delete;

  // Only writers compress: building the compression tables costs far more than a query.
  const ZSTD_CDict* compression(Compression level) const {
    const auto i = static_cast<size_t>(level);
    std::call_once(cdict_once[i], [&] {
      cdicts[i] = ZSTD_createCDict(bytes.data(), bytes.size(),
                                   level == Compression::fast ? kFastLevel : kSmallLevel);
    });
    return cdicts[i];
  }

  const std::string bytes;
  ZSTD_DDict* const ddict;
  mutable std::once_flag cdict_once[2];
  mutable ZSTD_CDict* cdicts[2] = {nullptr, nullptr};
};

namespace {

// Dictionary size: the largest zstd can train from the samples, tried from 256 KB down (larger
// dictionaries hold more of the documents' common words: 64 -> 256 KB made them ~5 % smaller).
constexpr size_t kLargestDictionary = 256 * 1024, kSmallestDictionary = 16 * 1024;

std::string train_dictionary(const std::string& joined, const std::vector<size_t>& sizes) {
  for (size_t capacity = kLargestDictionary; capacity >= kSmallestDictionary; capacity /= 2) {
    std::string dict(capacity, '\0');
    const size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), joined.data(), sizes.data(),
                                           static_cast<unsigned>(sizes.size()));
    if (ZDICT_isError(n)) continue;
    dict.resize(n);
    return dict;
  }
  return "";
}

// Readers open the index per request: read and decode an index's dictionary once per process.
// An index's dictionary never changes once written, so its UUID identifies it.
std::mutex cache_mutex;
std::map<std::string, std::shared_ptr<const ZstdDictionary>> cache;

std::shared_ptr<const ZstdDictionary> make_dictionary(std::string bytes) {
  auto made = std::make_shared<const ZstdDictionary>(std::move(bytes));
  return made->ddict ? made : nullptr;
}

std::shared_ptr<const ZstdDictionary> cached_dictionary(const Xapian::Database& db) {
  const std::string uuid = db.get_uuid();
  std::lock_guard lock(cache_mutex);
  if (auto it = cache.find(uuid); it != cache.end()) return it->second;
  std::string bytes = db.get_metadata(std::string(kMetaDictionary));
  if (bytes.empty()) return nullptr;  // may come later: not cached
  auto made = make_dictionary(std::move(bytes));
  if (made && !uuid.empty()) cache[uuid] = made;
  return made;
}

// Stored frames leave out zstd's 4-byte magic number (4 bytes per document). What follows it
// starts with the frame header descriptor, whose reserved and unused bits are 0, so it is
// never '[' or '{' (plain JSON) and never the magic's first byte: the three forms stay apart.
constexpr std::string_view kZstdMagic = "\x28\xB5\x2F\xFD";

std::string whole_frame(const std::string& stored) {
  if (stored.compare(0, kZstdMagic.size(), kZstdMagic) == 0) return stored;
  std::string frame(kZstdMagic);
  frame += stored;
  return frame;
}

}  // namespace

StoredData::StoredData(const Xapian::Database& db) : dict_(cached_dictionary(db)) {}

StoredData::~StoredData() = default;

StoredData::StoredData(StoredData&&) noexcept = default;
StoredData& StoredData::operator=(StoredData&&) noexcept = default;

bool StoredData::is_plain(const std::string& stored) {
  return stored.empty() || stored.front() == '[' || stored.front() == '{';
}

std::string StoredData::pack(const std::string& json, Compression level) const {
  if (!dict_) return json;
  thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(),
                                                                         ZSTD_freeCCtx);
  ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_dictIDFlag, 0);  // one dictionary per index
  const ZSTD_CDict* cdict = dict_->compression(level);
  if (!cdict) return json;
  ZSTD_CCtx_refCDict(cctx.get(), cdict);
  std::string out(ZSTD_compressBound(json.size()), '\0');
  const size_t n = ZSTD_compress2(cctx.get(), out.data(), out.size(), json.data(), json.size());
  if (ZSTD_isError(n) || n < kZstdMagic.size()) return json;
  out.resize(n);
  return out.substr(kZstdMagic.size());
}

std::string StoredData::unpack(const std::string& stored) const {
  if (is_plain(stored)) return stored;
  if (!dict_) return "";
  const std::string frame = whole_frame(stored);
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1u << 26))
    return "";
  thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(),
                                                                         ZSTD_freeDCtx);
  std::string out(size, '\0');
  const size_t n = ZSTD_decompress_usingDDict(dctx.get(), out.data(), out.size(), frame.data(),
                                              frame.size(), dict_->ddict);
  if (ZSTD_isError(n) || n != size) return "";
  return out;
}

bool StoredData::train(Xapian::WritableDatabase& db, const std::vector<std::string>& samples) {
  std::string joined;
  std::vector<size_t> sizes;
  for (const auto& s : samples) {
    joined += s;
    sizes.push_back(s.size());
  }
  const std::string dict = train_dictionary(joined, sizes);
  if (dict.empty()) return false;
  auto made = make_dictionary(dict);
  if (!made) return false;
  db.set_metadata(std::string(kMetaDictionary), dict);
  dict_ = std::move(made);
  return true;
}

}  // namespace strata::index
