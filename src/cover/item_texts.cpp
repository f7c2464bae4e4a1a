#include "cover/item_texts.hpp"

#include <algorithm>
#include <cstring>

#include "merge/run_file.hpp"

namespace strata::cover {
namespace {

// A record: a count byte, then per text its attribute byte, its size (uint32) and its
// shingles (uint64 each), as in memory.
template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Decodes `count` records from `take(to, bytes)` (the chunk's bytes in order); false when
// `visit` asked to stop. Each shingle set is read straight into its vector.
template <typename Take>
bool decode(uint32_t first, uint32_t count, Take&& take,
            const std::vector<uint32_t>& item_of_record, const ItemTexts::Visit& visit) {
  for (uint32_t record = first; record < first + count; ++record) {
    uint8_t texts_count = 0;
    take(reinterpret_cast<char*>(&texts_count), 1);
    Item::Texts texts(texts_count);
    for (auto& [attr, shingles] : texts) {
      uint8_t attr_byte = 0;
      uint32_t size = 0;
      take(reinterpret_cast<char*>(&attr_byte), 1);
      take(reinterpret_cast<char*>(&size), sizeof size);
      attr = static_cast<TextAttr>(attr_byte);
      shingles.resize(size);
      take(reinterpret_cast<char*>(shingles.data()), size * sizeof(uint64_t));
    }
    if (!visit(record, item_of_record.empty() ? record : item_of_record[record], texts))
      return false;
  }
  return true;
}

}  // namespace

ItemTexts::ItemTexts(const SpillOptions& spill)
    : chunk_budget_(std::max<uint64_t>(1, spill.memory / 4)), folder_(spill.temp) {}

ItemTexts::~ItemTexts() = default;

uint64_t ItemTexts::memory_cost(const Item::Texts& texts) {
  uint64_t cost = sizeof(Item) + 128;  // the copy of the item, its strings roughly
  for (const auto& [attr, shingles] : texts)
    cost += sizeof(texts[0]) + shingles.size() * sizeof(uint64_t);
  return cost;
}

void ItemTexts::add(Item& item) {
  const Item::Texts texts = item.take_texts();
  const uint64_t cost = memory_cost(texts);
  if (buffer_cost_ > 0 && buffer_cost_ + cost > chunk_budget_) end_chunk();
  if (buffer_cost_ == 0) chunk_first_.push_back(records_);
  put(buffer_, static_cast<uint8_t>(texts.size()));
  for (const auto& [attr, shingles] : texts) {
    put(buffer_, static_cast<uint8_t>(attr));
    put(buffer_, static_cast<uint32_t>(shingles.size()));
    buffer_.append(reinterpret_cast<const char*>(shingles.data()),
                   shingles.size() * sizeof(uint64_t));
  }
  buffer_cost_ += cost;
  ++records_;
  if (writer_ && buffer_.size() >= (1 << 16)) write_buffer();  // spilling: no chunk buffered
}

void ItemTexts::write_buffer() {
  try {
    for (size_t at = 0; at < buffer_.size(); at += 1 << 16)
      writer_->write(std::string_view(buffer_).substr(at, 1 << 16));
  } catch (const std::runtime_error& e) {
    throw CoverError(std::string("spill: ") + e.what());
  }
  buffer_.clear();
}

// The open chunk goes to the file as one frame (the file made with the first).
void ItemTexts::end_chunk() {
  if (!writer_) {
    try {
      file_ = folder_.next_file();
      writer_ = std::make_unique<merge::RunFileWriter>(file_);
    } catch (const std::runtime_error& e) {
      throw CoverError(std::string("spill: ") + e.what());
    }
    frame_offsets_.push_back(0);
  }
  write_buffer();
  if (buffer_.capacity() > (1 << 20)) buffer_ = std::string();  // the first chunk's memory
  try {
    frame_offsets_.push_back(writer_->end_frame());
  } catch (const std::runtime_error& e) {
    throw CoverError(std::string("spill: ") + e.what());
  }
  buffer_cost_ = 0;
}

void ItemTexts::finish() {
  if (finished_) return;
  finished_ = true;
  if (!writer_) {  // one chunk: it stays in memory
    buffer_.shrink_to_fit();
    return;
  }
  if (buffer_cost_ > 0) end_chunk();
  buffer_ = {};
  try {
    writer_->close();
  } catch (const std::runtime_error& e) {
    throw CoverError(std::string("spill: ") + e.what());
  }
  writer_.reset();
}

void ItemTexts::reorder(std::span<const size_t> order) {
  std::vector<uint32_t> item_of(records_), record_of(records_);
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t before = order[k];
    const uint32_t record = record_of_item_.empty() ? before : record_of_item_[before];
    record_of[k] = record;
    item_of[record] = static_cast<uint32_t>(k);
  }
  item_of_record_ = std::move(item_of);
  record_of_item_ = std::move(record_of);
}

size_t ItemTexts::chunk_of(uint32_t item) const {
  const uint32_t record = record_of(item);
  return static_cast<size_t>(std::upper_bound(chunk_first_.begin(), chunk_first_.end(), record) -
                             chunk_first_.begin()) -
         1;
}

void ItemTexts::read(size_t from, size_t to, const Visit& visit) const {
  auto records_in = [&](size_t c) {
    return (c + 1 < chunks() ? chunk_first_[c + 1] : records_) - chunk_first_[c];
  };
  if (frame_offsets_.empty()) {  // in memory: one chunk
    if (from == 0 && to > 0 && !chunk_first_.empty()) {
      const char* at = buffer_.data();
      decode(
          0, records_in(0),
          [&](char* out, size_t n) {
            std::memcpy(out, at, n);
            at += n;
          },
          item_of_record_, visit);
    }
    return;
  }
  for (size_t c = from; c < to && c < chunks(); ++c) {
    bool more = true;
    try {
      merge::RunFileReader in(file_, frame_offsets_[c], frame_offsets_[c + 1]);
      more = decode(
          chunk_first_[c], records_in(c), [&](char* out, size_t n) { in.read(out, n); },
          item_of_record_, visit);
    } catch (const CoverError&) {
      throw;  // the visitor's own
    } catch (const std::runtime_error& e) {
      throw CoverError(std::string("spill: ") + e.what());
    }
    if (!more) return;
  }
}

}  // namespace strata::cover
