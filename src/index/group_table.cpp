#include "index/group_table.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>

namespace strata::index {
namespace {

constexpr std::string_view kHeaderKey = "strata:group-table";
constexpr std::string_view kChunkPrefix = "strata:group-table:";

std::string chunk_key(uint32_t chunk) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", chunk);
  return std::string(kChunkPrefix) + hex;
}

void put_varint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(char(v | 0x80));
  out.push_back(char(v));
}

// Reads from a chunk's bytes; `ok` turns false past the end.
struct Reader {
  std::string_view in;
  bool ok = true;
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
      const auto byte = static_cast<unsigned char>(in.front());
      in.remove_prefix(1);
      v |= uint64_t{byte & 0x7fu} << shift;
      if (byte < 0x80) return v;
    }
    ok = false;
    return 0;
  }
  std::string_view bytes(size_t n) {
    if (in.size() < n) return ok = false, std::string_view();
    const std::string_view out = in.substr(0, n);
    in.remove_prefix(n);
    return out;
  }
};

// What a row holds; older tables (no PDQ) are rebuilt.
constexpr std::string_view kFormat = "v2";

// Row: docid delta, pHash, width, height, first capture, digest (length, bytes), leader, then
// 1 and the 32 bytes of the PDQ hash, or 0.
void encode_rows(const GroupTable& t, size_t begin, size_t end, std::string& out) {
  Xapian::docid last = 0;
  for (size_t i = begin; i < end; ++i) {
    const similar::Image& image = t.images[i];
    put_varint(out, t.docids[i] - last);
    last = t.docids[i];
    put_varint(out, image.phash);
    put_varint(out, static_cast<uint32_t>(image.width));
    put_varint(out, static_cast<uint32_t>(image.height));
    put_varint(out, static_cast<uint64_t>(image.first_capture));
    put_varint(out, image.digest.size());
    out += image.digest;
    put_varint(out, t.leaders[i]);
    out.push_back(image.pdq ? 1 : 0);
    if (image.pdq)
      for (const uint64_t word : *image.pdq)
        for (int byte = 0; byte < 8; ++byte) out.push_back(char(word >> (8 * byte)));
  }
}

bool decode_rows(std::string_view chunk, GroupTable& t) {
  Reader r{chunk};
  Xapian::docid last = 0;
  while (r.ok && !r.in.empty()) {
    last += static_cast<Xapian::docid>(r.varint());
    similar::Image image;
    image.phash = r.varint();
    image.width = static_cast<int>(static_cast<uint32_t>(r.varint()));
    image.height = static_cast<int>(static_cast<uint32_t>(r.varint()));
    image.first_capture = static_cast<int64_t>(r.varint());
    image.digest = r.bytes(r.varint());
    const auto leader = static_cast<Xapian::docid>(r.varint());
    const std::string_view has_pdq = r.bytes(1);
    if (r.ok && has_pdq[0] == 1) {
      const std::string_view bytes = r.bytes(32);
      if (r.ok) {
        image.pdq.emplace();
        for (size_t b = 0; b < 32; ++b)
          (*image.pdq)[b / 8] |= uint64_t(static_cast<unsigned char>(bytes[b])) << (8 * (b % 8));
      }
    } else if (r.ok && has_pdq[0] != 0) {
      return false;
    }
    if (!r.ok || (!t.docids.empty() && last <= t.docids.back())) return false;
    t.docids.push_back(last);
    t.images.push_back(std::move(image));
    t.leaders.push_back(leader);
  }
  return r.ok;
}

std::string header(Xapian::rev revision, size_t rows) {
  return std::string(kFormat) + " " + std::to_string(revision) + " " + std::to_string(rows);
}

}  // namespace

void invalidate_group_table(Xapian::WritableDatabase& db) {
  db.set_metadata(std::string(kHeaderKey), "");
}

std::vector<std::string> group_table_keys(const Xapian::Database& db) {
  std::vector<std::string> keys;
  const std::string prefix(kHeaderKey);  // the chunks' prefix starts with the header's key
  for (auto key = db.metadata_keys_begin(prefix); key != db.metadata_keys_end(prefix); ++key)
    if (is_group_table_key(*key)) keys.push_back(*key);
  return keys;
}

bool is_group_table_key(std::string_view key) {
  return key == kHeaderKey || key.starts_with(kChunkPrefix);
}

void drop_group_table(Xapian::WritableDatabase& db) {
  for (const std::string& key : group_table_keys(db)) db.set_metadata(key, "");
}

size_t GroupTable::find(Xapian::docid docid) const {
  const auto it = std::lower_bound(docids.begin(), docids.end(), docid);
  return it != docids.end() && *it == docid ? size_t(it - docids.begin()) : size();
}

std::optional<GroupTable> load_group_table(const Xapian::Database& db) {
  if (db.size() != 1) return std::nullopt;  // see save_group_table
  const std::string expected = std::string(kFormat) + " " + std::to_string(db.get_revision()) + " ";
  const std::string head = db.get_metadata(std::string(kHeaderKey));
  if (!head.starts_with(expected)) return std::nullopt;
  const size_t space = expected.size() - 1;
  size_t rows = 0;
  if (std::from_chars(head.data() + space + 1, head.data() + head.size(), rows).ec != std::errc())
    return std::nullopt;
  GroupTable table;
  table.docids.reserve(rows), table.images.reserve(rows), table.leaders.reserve(rows);
  const std::string prefix(kChunkPrefix);
  for (auto key = db.metadata_keys_begin(prefix); key != db.metadata_keys_end(prefix); ++key)
    if (!decode_rows(db.get_metadata(*key), table)) return std::nullopt;
  if (table.size() != rows) return std::nullopt;
  return table;
}

void save_group_table(Xapian::WritableDatabase& db, const GroupTable& table,
                      const std::optional<std::vector<uint32_t>>& chunks) {
  // A table describes one index. Over shards combined (docs/scale.md) none is kept: Xapian has
  // no revision for them, and each shard's next write regroups it whole.
  if (db.size() != 1) return;
  std::vector<uint32_t> numbers;
  if (chunks) {
    numbers = *chunks;
  } else {
    drop_group_table(db);  // the header is written again below
    for (const Xapian::docid docid : table.docids)
      if (numbers.empty() || numbers.back() != docid >> kGroupChunkBits)
        numbers.push_back(docid >> kGroupChunkBits);
  }
  std::string bytes;
  for (const uint32_t chunk : numbers) {
    const auto first = Xapian::docid(chunk) << kGroupChunkBits;
    const auto begin = std::lower_bound(table.docids.begin(), table.docids.end(), first);
    const auto end = std::lower_bound(begin, table.docids.end(), first + (1u << kGroupChunkBits));
    bytes.clear();
    encode_rows(table, size_t(begin - table.docids.begin()), size_t(end - table.docids.begin()),
                bytes);
    db.set_metadata(chunk_key(chunk), bytes);  // empty: the chunk is deleted
  }
  // Inside the caller's transaction: its commit makes the next revision.
  db.set_metadata(std::string(kHeaderKey), header(db.get_revision() + 1, table.size()));
}

}  // namespace strata::index
