#pragma once
// The items' texts (shingle sets) held apart from the items, so that an offline cover of
// pages keeps within its memory budget (docs/redundancy.md, "Algorithms"): the texts are the
// bulk of a page item (185 shingles, 1.5 KB, against ~200 bytes for the rest). They are
// serialized in the order the items are added, in chunks of at most a quarter of the budget;
// while everything fits in one chunk it stays in memory, else each chunk is one LZ4 frame of a
// spill file (merge/run_file.hpp), so that a reader can start at any chunk (written as the
// items come once the first chunk is full, and read back record by record: no chunk is held
// as bytes). The shingle index
// (candidates.cpp) reads them once in order; the pair tests (cover.cpp) hold one chunk at a
// time and stream the chunks after it.
//
// Failure contract: throws CoverError (candidates.hpp) when the spill folder cannot be made or
// the file cannot be written or read back; nothing else (beyond std::bad_alloc).
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cover/candidates.hpp"
#include "cover/item.hpp"
#include "cover/spill_sort.hpp"

namespace strata::merge {
class RunFileWriter;
}

namespace strata::cover {

class ItemTexts {
 public:
  explicit ItemTexts(const SpillOptions& spill);
  ~ItemTexts();
  ItemTexts(const ItemTexts&) = delete;
  ItemTexts& operator=(const ItemTexts&) = delete;

  // The next item's texts, moved out of `item` (every item is added, in order: the k-th
  // added is item k until reorder()).
  void add(Item& item);
  // Ends the input (before anything is read).
  void finish();
  // The items were put in another order: item k is now the one added as order[k].
  void reorder(std::span<const size_t> order);

  size_t items() const { return records_; }
  size_t chunks() const { return chunk_first_.size(); }
  // The chunk holding item `item`'s texts, and the position it was added at (its record).
  size_t chunk_of(uint32_t item) const;
  uint32_t record_of(uint32_t item) const {
    return record_of_item_.empty() ? item : record_of_item_[item];
  }
  uint32_t first_record(size_t chunk) const { return chunk_first_[chunk]; }
  uint64_t runs_written() const { return folder_.runs_written(); }

  // Calls visit(record, item, texts) for each item of chunks [from, to) in record order,
  // until it returns false.
  using Visit = std::function<bool(uint32_t record, uint32_t item, Item::Texts& texts)>;
  void read(size_t from, size_t to, const Visit& visit) const;

  // What an item with these texts takes in memory once read back (its copy included), as
  // the chunks are cut: the pair tests hold one chunk's items.
  static uint64_t memory_cost(const Item::Texts& texts);

 private:
  void end_chunk();
  void write_buffer();

  uint64_t chunk_budget_;
  SpillFolder folder_;
  std::filesystem::path file_;
  std::unique_ptr<merge::RunFileWriter> writer_;
  std::string buffer_;  // the open chunk's records (the only chunk when nothing spilled)
  uint64_t buffer_cost_ = 0;
  std::vector<uint32_t> chunk_first_;    // each chunk's first record
  std::vector<uint64_t> frame_offsets_;  // each chunk's frame in file_, and the file's end
  std::vector<uint32_t> item_of_record_, record_of_item_;  // empty: the identity
  uint32_t records_ = 0;
  bool finished_ = false;
};

}  // namespace strata::cover
