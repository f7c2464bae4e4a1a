#include "merge/sorter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <queue>
#include <stdexcept>

#include "merge/text.hpp"

namespace strata::merge {

// The first 8 key bytes as a big-endian number: most comparisons end here.
uint64_t key_prefix(std::string_view key) {
  uint64_t prefix = 0;
  for (size_t i = 0; i < 8; ++i)
    prefix = (prefix << 8) | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0);
  return prefix;
}

size_t partition_of(std::string_view key, size_t partitions) {
  return partitions <= 1 ? 0 : fnv1a64(key) % partitions;
}

std::filesystem::path RunSet::next_file() {
  std::lock_guard lock(mutex_);
  return dir_ / (name_ + "-" + std::to_string(files_++) + ".run");
}

void RunSet::add(Run run) {
  std::lock_guard lock(mutex_);
  runs_.push_back(std::move(run));
}

uint64_t RunSet::spilled_runs() const {
  std::lock_guard lock(mutex_);
  return std::count_if(runs_.begin(), runs_.end(), [](const Run& r) { return !r.memory; });
}

void RunSet::clear() {
  std::lock_guard lock(mutex_);
  for (const auto& run : runs_) {
    std::error_code ignored;
    if (!run.memory) std::filesystem::remove(run.file, ignored);
  }
  runs_.clear();
}

void SpillBuffer::add(std::string_view key, std::string_view value) {
  auto partition = static_cast<uint32_t>(partition_of(key, runs_.partitions()));
  entries_.push_back({partition, static_cast<uint32_t>(key.size()),
                      static_cast<uint32_t>(value.size()), arena_.size(), key_prefix(key)});
  arena_.append(key);
  arena_.append(value);
  if (arena_.size() + entries_.size() * sizeof(Entry) > budget_) flush(true);
}

void SpillBuffer::finish() {
  flush(false);
}

std::string SpillBuffer::serialize(std::vector<uint64_t>& offsets) const {
  std::string out;
  out.reserve(arena_.size() + entries_.size() * 8);
  offsets.assign(runs_.partitions() + 1, 0);
  size_t e = 0;
  for (size_t p = 0; p < runs_.partitions(); ++p) {
    offsets[p] = out.size();
    for (; e < entries_.size() && entries_[e].partition == p; ++e) {
      const Entry& entry = entries_[e];
      out.append(reinterpret_cast<const char*>(&entry.key_size), 4);
      out.append(reinterpret_cast<const char*>(&entry.value_size), 4);
      out.append(arena_, entry.offset, entry.key_size + entry.value_size);
    }
  }
  offsets.back() = out.size();
  return out;
}

void SpillBuffer::flush(bool to_file) {
  if (entries_.empty()) return;
  const char* base = arena_.data();
  std::sort(entries_.begin(), entries_.end(), [base](const Entry& a, const Entry& b) {
    if (a.partition != b.partition) return a.partition < b.partition;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return std::string_view(base + a.offset, a.key_size) <
           std::string_view(base + b.offset, b.key_size);
  });
  Run run;
  auto bytes = std::make_shared<std::string>(serialize(run.offsets));
  if (to_file) {
    run.file = runs_.next_file();
    std::ofstream out(run.file, std::ios::binary);
    out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
    if (!out) throw std::runtime_error("cannot write merge run " + run.file.string());
  } else {
    run.memory = std::move(bytes);
  }
  runs_.add(std::move(run));
  arena_.clear();
  arena_.shrink_to_fit();
  entries_.clear();
  entries_.shrink_to_fit();
}

namespace {

// Reads one partition of one run, record by record.
class Cursor {
 public:
  Cursor(const Run& run, size_t p) : pos_(run.offsets[p]), end_(run.offsets[p + 1]) {
    if (run.memory) {
      memory_ = std::string_view(*run.memory);
    } else {
      file_.reset(std::fopen(run.file.c_str(), "rb"));
      if (!file_) throw std::runtime_error("cannot read merge run " + run.file.string());
      std::setvbuf(file_.get(), nullptr, _IOFBF, 1 << 20);
      std::fseek(file_.get(), static_cast<long>(pos_), SEEK_SET);
    }
  }
  bool next() {
    if (pos_ >= end_) return false;
    uint32_t sizes[2];
    read(reinterpret_cast<char*>(sizes), 8, scratch_sizes_);
    std::string_view body = read(nullptr, sizes[0] + sizes[1], buffer_);
    key_ = body.substr(0, sizes[0]);
    value_ = body.substr(sizes[0]);
    return true;
  }
  std::string_view key() const { return key_; }
  std::string_view value() const { return value_; }

 private:
  // From memory: a view; from a file: into `buffer` (or `to`, when given).
  std::string_view read(char* to, size_t n, std::string& buffer) {
    std::string_view out;
    if (file_) {
      buffer.resize(n);
      if (std::fread(buffer.data(), 1, n, file_.get()) != n)
        throw std::runtime_error("merge run truncated");
      out = buffer;
    } else {
      out = memory_.substr(pos_, n);
    }
    if (to) std::memcpy(to, out.data(), n);
    pos_ += n;
    return out;
  }
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> file_;
  std::string_view memory_;
  uint64_t pos_, end_;
  std::string buffer_, scratch_sizes_;
  std::string_view key_, value_;
};

}  // namespace

void merge_partition(const RunSet& runs, size_t p, const GroupHandler& on_group) {
  std::vector<std::unique_ptr<Cursor>> cursors;
  for (const auto& run : runs.runs())
    if (run.offsets[p] < run.offsets[p + 1]) cursors.push_back(std::make_unique<Cursor>(run, p));
  auto greater = [&](size_t a, size_t b) {
    if (cursors[a]->key() != cursors[b]->key()) return cursors[a]->key() > cursors[b]->key();
    return a > b;
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(greater)> heap(greater);
  for (size_t i = 0; i < cursors.size(); ++i)
    if (cursors[i]->next()) heap.push(i);
  // Values are copied into one arena per group: a file cursor's next() reuses its buffer.
  std::string key, arena;
  std::vector<std::pair<size_t, size_t>> spans;
  std::vector<std::string_view> values;
  auto emit = [&] {
    values.clear();
    for (auto [offset, size] : spans) values.emplace_back(arena.data() + offset, size);
    on_group(key, values);
    arena.clear();
    spans.clear();
  };
  while (!heap.empty()) {
    size_t i = heap.top();
    heap.pop();
    if (!spans.empty() && cursors[i]->key() != key) emit();
    if (spans.empty()) key.assign(cursors[i]->key());
    spans.emplace_back(arena.size(), cursors[i]->value().size());
    arena.append(cursors[i]->value());
    if (cursors[i]->next()) heap.push(i);
  }
  if (!spans.empty()) emit();
}

}  // namespace strata::merge
