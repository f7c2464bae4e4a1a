#include "sample/assets.hpp"

#include <zlib.h>

#include <atomic>
#include <thread>

#include "core/digest.hpp"

namespace strata::sample {
namespace {

// Pooled bases: 16 looks at sizes rounded to 128 px keep the pool to a few thousand
// encodings at any scale (sizes are rounded to 64 px when planned).
constexpr uint64_t kPoolLooks = 16;
int pool_size(int px) {
  return px < 128 ? px : px / 128 * 128;
}

void put32(std::string& s, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s.push_back(static_cast<char>((v >> shift) & 0xff));
}

}  // namespace

Marker marker_for(const std::string& bytes, ImageFormat format, const std::string& text) {
  if (format == ImageFormat::jpeg && bytes.size() > 2) {
    std::string seg = "\xff\xfe";
    seg.push_back(static_cast<char>(((text.size() + 2) >> 8) & 0xff));
    seg.push_back(static_cast<char>((text.size() + 2) & 0xff));
    return Marker{2, seg + text};
  }
  if (format == ImageFormat::png && bytes.size() > 33) {
    std::string data = "Comment";
    data.push_back('\0');
    data += text;
    std::string chunk;
    put32(chunk, static_cast<uint32_t>(data.size()));
    std::string typed = "tEXt" + data;
    chunk += typed;
    put32(chunk, static_cast<uint32_t>(
                     crc32(0, reinterpret_cast<const Bytef*>(typed.data()), typed.size())));
    return Marker{33, chunk};
  }
  if ((format == ImageFormat::gif || format == ImageFormat::gif_animated) && !bytes.empty() &&
      bytes.back() == ';' && text.size() < 256) {
    std::string ext = "\x21\xfe";
    ext.push_back(static_cast<char>(text.size()));
    ext += text;
    ext.push_back('\0');
    return Marker{bytes.size() - 1, ext};
  }
  return Marker{bytes.size(), ""};
}

std::string add_marker(const std::string& bytes, ImageFormat format, const std::string& text) {
  Marker m = marker_for(bytes, format, text);
  return bytes.substr(0, m.at) + m.bytes + bytes.substr(m.at);
}

const Asset& AssetStore::base(const Key& key) {
  auto it = bases_.find(key);
  if (it != bases_.end()) return it->second;
  auto [look, w, h, format, quality] = key;
  Asset a = Asset::of(make_image(make_concept(look), w, h, static_cast<ImageFormat>(format),
                                 quality, PngFilters::up));
  return bases_.emplace(key, std::move(a)).first->second;
}

int AssetStore::add(uint64_t look, int width, int height, ImageFormat format, int quality,
                    int family, int topic) {
  bool pooled = fast_ && (format == ImageFormat::jpeg || format == ImageFormat::png ||
                          format == ImageFormat::gif || format == ImageFormat::gif_animated);
  Asset a;
  if (pooled) {
    a = base(Key{look % kPoolLooks, pool_size(width), pool_size(height), static_cast<int>(format),
                 quality});
    a.marker = marker_for(*a.file, format, "strata-sample variant " + std::to_string(variants_++));
  } else {
    a = Asset::of(make_image(make_concept(look), width, height, format, quality));
  }
  a.family = family;
  a.topic = topic;
  a.look_seed = look;
  assets_.push_back(std::move(a));
  return static_cast<int>(assets_.size()) - 1;
}

int AssetStore::add_encoded(EncodedImage image, int family, int topic) {
  Asset a = Asset::of(std::move(image));
  a.family = family;
  a.topic = topic;
  assets_.push_back(std::move(a));
  return static_cast<int>(assets_.size()) - 1;
}

namespace {

// Runs work(state, i) for i in [0, n) on `threads` threads, each with its own make_state().
template <typename MakeState, typename Work>
void parallel_for(size_t n, int threads, MakeState make_state, Work work) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    auto state = make_state();
    for (size_t i; (i = next.fetch_add(1)) < n;) work(state, i);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

struct Hashers {
  Hasher sha256{DigestAlgorithm::kSha256};
  Hasher sha1{DigestAlgorithm::kSha1};
};

void digest_assets(std::vector<Asset>& assets, int threads) {
  auto make = [] { return Hashers{}; };
  parallel_for(assets.size(), threads, make, [&](Hashers& h, size_t i) {
    for (std::string_view piece : assets[i].pieces()) {
      h.sha256.update(piece);
      h.sha1.update(piece);
    }
    assets[i].sha256 = h.sha256.finish_hex();
    assets[i].sha1 = h.sha1.finish_base32();
  });
}

// Pooled variants share their file and their marker's place, so each file is deflated once
// (the order of `users` does not matter: every file gets the same bytes).
void deflate_files(std::vector<Asset>& assets, int threads) {
  std::map<std::pair<const std::string*, size_t>, std::vector<Asset*>> users;
  for (Asset& a : assets) users[{a.file.get(), a.marker.at}].push_back(&a);
  std::vector<std::vector<Asset*>*> files;
  for (auto& [file, list] : users) files.push_back(&list);
  auto make = [] { return RawDeflater(Effort::fast); };
  parallel_for(files.size(), threads, make, [&](RawDeflater& z, size_t i) {
    std::array<std::string_view, 3> p = files[i]->front()->pieces();
    auto both = std::make_shared<const std::array<Deflated, 2>>(
        std::array<Deflated, 2>{z.segment(p[0]), z.segment(p[2])});
    for (Asset* a : *files[i]) a->deflated = both;
  });
}

}  // namespace

void prepare_assets(std::vector<Asset>& assets, int threads) {
  digest_assets(assets, threads);
  deflate_files(assets, threads);
}

}  // namespace strata::sample
