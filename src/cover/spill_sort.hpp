#pragma once
// Sorting fixed-size records within a memory budget, for the shingle index (candidates.cpp):
// records are buffered up to the budget, each full buffer is sorted and spilled as a run (an
// LZ4 file, merge/run_file.hpp: the merge's own spill format), and the runs are read back as
// one k-way merge (runs merged in passes of at most kMaxFanIn). When everything fits, nothing
// touches the disk: the buffer is sorted and read in place. The order is total (a strict
// weak order that ties only equal records), so the result never depends on the budget.
//
// Failure contract: throws CoverError (candidates.hpp) when the spill folder cannot be made
// or a run cannot be written or read back; nothing else (beyond std::bad_alloc).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cover/candidates.hpp"
#include "merge/run_file.hpp"

namespace strata::cover {

// A private folder for spill runs inside `parent` (the system's temporary folder when
// empty), made on the first spill and removed with its runs on destruction.
class SpillFolder {
 public:
  explicit SpillFolder(std::filesystem::path parent) : parent_(std::move(parent)) {}
  ~SpillFolder();
  SpillFolder(const SpillFolder&) = delete;
  SpillFolder& operator=(const SpillFolder&) = delete;
  // Makes the folder now (throws CoverError, naming the parent and why, when it cannot).
  void create();
  // A new run file's path (the folder made first when needed).
  std::filesystem::path next_file();
  uint64_t runs_written() const { return files_; }

 private:
  std::filesystem::path parent_, path_;
  uint64_t files_ = 0;
};

// Runs merged at once; more are merged in passes (each open run holds ~200 KB of buffers).
inline constexpr size_t kMaxFanIn = 64;

// Writes and reads runs of trivially copyable records (their bytes as in memory).
namespace spill_detail {
void write_run(const std::filesystem::path& file, std::string_view bytes);
struct RunReader {
  RunReader(const std::filesystem::path& file, size_t size_of_record);
  // False at the end of the run.
  bool next(char* to);
  std::unique_ptr<merge::RunFileReader> reader;
  size_t record_size;
};
}  // namespace spill_detail

template <typename Record, typename Less>
class SpillSorter {
  static_assert(std::is_trivially_copyable_v<Record>);

 public:
  // `budget`: bytes of buffered records (at least one record's worth is used).
  SpillSorter(uint64_t budget, SpillFolder& folder, Less less = {})
      : capacity_(std::max<uint64_t>(1, budget / sizeof(Record))), folder_(folder), less_(less) {}
  // Its runs go as soon as it is done with (the folder goes at the end).
  ~SpillSorter() {
    std::error_code ignored;
    for (const auto& run : runs_) std::filesystem::remove(run, ignored);
  }
  SpillSorter(const SpillSorter&) = delete;
  SpillSorter& operator=(const SpillSorter&) = delete;

  void add(const Record& r) {
    if (buffer_.size() == capacity_) spill();
    if (buffer_.capacity() == buffer_.size())
      buffer_.reserve(static_cast<size_t>(std::min<uint64_t>(
          capacity_, std::max<uint64_t>(1024, 2 * static_cast<uint64_t>(buffer_.size())))));
    buffer_.push_back(r);
  }
  uint64_t runs() const { return runs_.size(); }

  // Ends the input: sorts what is buffered (spilled when runs were written before) and merges
  // runs down to kMaxFanIn. The records may then be read, any number of times.
  void finish() {
    if (!runs_.empty() && !buffer_.empty()) spill();
    if (runs_.empty())
      std::sort(buffer_.begin(), buffer_.end(), less_);
    else
      buffer_ = {};  // the runs hold everything: the buffer's memory goes back
    while (runs_.size() > kMaxFanIn) {
      std::vector<std::filesystem::path> next;
      for (size_t from = 0; from < runs_.size(); from += kMaxFanIn) {
        const size_t to = std::min(runs_.size(), from + kMaxFanIn);
        if (to - from == 1) {
          next.push_back(runs_[from]);
          continue;
        }
        Reader in(*this, from, to);
        std::string bytes;
        const auto file = folder_.next_file();
        {
          merge::RunFileWriter out(file);
          try {
            for (Record r; in.next(r);) {
              bytes.append(reinterpret_cast<const char*>(&r), sizeof r);
              if (bytes.size() >= (1 << 16)) out.write(bytes), bytes.clear();
            }
            out.write(bytes);
            out.end_frame();
            out.close();
          } catch (const std::runtime_error& e) {
            throw CoverError(std::string("spill: ") + e.what());
          }
        }
        std::error_code ignored;  // a run left behind goes with the folder
        for (size_t k = from; k < to; ++k) std::filesystem::remove(runs_[k], ignored);
        next.push_back(file);
      }
      runs_ = std::move(next);
    }
  }

  // The records in order (after finish()).
  class Reader {
   public:
    explicit Reader(const SpillSorter& s) : Reader(s, 0, s.runs_.size()) {}
    bool next(Record& out) {
      if (memory_) {
        if (at_ == memory_->size()) return false;
        out = (*memory_)[at_++];
        return true;
      }
      if (heap_.empty()) return false;
      const Head head = heap_.top();
      heap_.pop();
      out = head.record;
      push(head.run);
      return true;
    }

   private:
    friend class SpillSorter;
    struct Head {
      Record record;
      size_t run;
    };
    struct Later {
      Less less;
      bool operator()(const Head& x, const Head& y) const {
        return less(y.record, x.record) || (!less(x.record, y.record) && y.run < x.run);
      }
    };
    Reader(const SpillSorter& s, size_t from, size_t to) : heap_(Later{s.less_}) {
      if (s.runs_.empty()) {
        memory_ = &s.buffer_;
        return;
      }
      try {
        for (size_t k = from; k < to; ++k)
          readers_.emplace_back(
              std::make_unique<spill_detail::RunReader>(s.runs_[k], sizeof(Record)));
      } catch (const std::runtime_error& e) {
        throw CoverError(std::string("spill: ") + e.what());
      }
      for (size_t k = 0; k < readers_.size(); ++k) push(k);
    }
    void push(size_t run) {
      Head h{{}, run};
      bool more;
      try {
        more = readers_[run]->next(reinterpret_cast<char*>(&h.record));
      } catch (const std::runtime_error& e) {
        throw CoverError(std::string("spill: ") + e.what());
      }
      if (more) heap_.push(h);
    }
    const std::vector<Record>* memory_ = nullptr;
    size_t at_ = 0;
    std::vector<std::unique_ptr<spill_detail::RunReader>> readers_;
    std::priority_queue<Head, std::vector<Head>, Later> heap_;
  };
  Reader read() const { return Reader(*this); }

 private:
  void spill() {
    std::sort(buffer_.begin(), buffer_.end(), less_);
    const auto file = folder_.next_file();
    spill_detail::write_run(
        file, {reinterpret_cast<const char*>(buffer_.data()), buffer_.size() * sizeof(Record)});
    runs_.push_back(file);
    buffer_.clear();
  }

  uint64_t capacity_;
  SpillFolder& folder_;
  Less less_;
  std::vector<Record> buffer_;
  std::vector<std::filesystem::path> runs_;
};

}  // namespace strata::cover
