#include "index/stored_data.hpp"

#include <zdict.h>
#include <zstd.h>

#include <map>
#include <mutex>

#include "index/schema.hpp"

namespace strata::index {

struct ZstdDictionary {
  explicit ZstdDictionary(std::string dict_bytes)
      : bytes(std::move(dict_bytes)), ddict(ZSTD_createDDict(bytes.data(), bytes.size())) {}
  ~ZstdDictionary() {
    ZSTD_freeCDict(cdict);
    ZSTD_freeDDict(ddict);
  }
  ZstdDictionary(const ZstdDictionary&) = delete;
  ZstdDictionary& operator=(const ZstdDictionary&) = delete;

  // Only writers compress: building the compression tables costs far more than a query.
  const ZSTD_CDict* compression() const {
    std::call_once(cdict_once, [this] { cdict = ZSTD_createCDict(bytes.data(), bytes.size(), 3); });
    return cdict;
  }

  const std::string bytes;
  ZSTD_DDict* const ddict;
  mutable std::once_flag cdict_once;
  mutable ZSTD_CDict* cdict = nullptr;
};

namespace {

constexpr size_t kDictionaryBytes = 64 * 1024;

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

bool is_zstd_frame(const std::string& s) {
  return s.size() >= 4 && static_cast<unsigned char>(s[0]) == 0x28 &&
         static_cast<unsigned char>(s[1]) == 0xB5 && static_cast<unsigned char>(s[2]) == 0x2F &&
         static_cast<unsigned char>(s[3]) == 0xFD;
}

}  // namespace

StoredData::StoredData(const Xapian::Database& db) : dict_(cached_dictionary(db)) {}

StoredData::~StoredData() = default;
StoredData::StoredData(StoredData&&) noexcept = default;
StoredData& StoredData::operator=(StoredData&&) noexcept = default;

std::string StoredData::pack(const std::string& json) const {
  if (!dict_) return json;
  thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(),
                                                                         ZSTD_freeCCtx);
  ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_dictIDFlag, 0);  // one dictionary per index
  if (!dict_->compression()) return json;
  ZSTD_CCtx_refCDict(cctx.get(), dict_->compression());
  std::string out(ZSTD_compressBound(json.size()), '\0');
  const size_t n = ZSTD_compress2(cctx.get(), out.data(), out.size(), json.data(), json.size());
  if (ZSTD_isError(n)) return json;
  out.resize(n);
  return out;
}

std::string StoredData::unpack(const std::string& stored) const {
  if (!is_zstd_frame(stored)) return stored;
  if (!dict_) return "";
  const unsigned long long size = ZSTD_getFrameContentSize(stored.data(), stored.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1u << 26))
    return "";
  thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(),
                                                                         ZSTD_freeDCtx);
  std::string out(size, '\0');
  const size_t n = ZSTD_decompress_usingDDict(dctx.get(), out.data(), out.size(), stored.data(),
                                              stored.size(), dict_->ddict);
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
  std::string dict(kDictionaryBytes, '\0');
  const size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), joined.data(), sizes.data(),
                                         static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(n)) return false;
  dict.resize(n);
  auto made = make_dictionary(dict);
  if (!made) return false;
  db.set_metadata(std::string(kMetaDictionary), dict);
  dict_ = std::move(made);
  return true;
}

}  // namespace strata::index
