#include "merge/pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <variant>

#include "merge/codec.hpp"
#include "merge/document_json.hpp"
#include "merge/sorter.hpp"
#include "merge/streaming.hpp"
#include "merge/surt_merge.hpp"

namespace strata::merge {
namespace {

// Counted per record or per key: built once, not per call.
const std::string kSurts = "surts", kDocuments = "documents";

// Runs work(i, counters) for i in [0, n) on up to `jobs` threads; counters are merged.
void parallel_for(size_t n, unsigned jobs, Counters& counters,
                  const std::function<void(size_t, Counters&, size_t worker)>& work) {
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::exception_ptr error;
  auto worker = [&](size_t w) {
    Counters local;
    try {
      for (size_t i; (i = next++) < n;) work(i, local, w);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
    }
    std::lock_guard lock(mutex);
    counters.merge(local);
  };
  size_t threads = std::max<size_t>(1, std::min<size_t>(jobs, n));
  std::vector<std::thread> pool;
  for (size_t w = 1; w < threads; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// Records per kind, counted in plain integers (a Counters lookup per record shows in
// profiles) and added to Counters once per source.
struct RecordCounts {
  int64_t by_kind[std::variant_size_v<Record>] = {};
  int64_t without_surt = 0;
  void add_to(Counters& counters) const {
    static const char* names[] = {"records_image", "records_revisit", "records_ref",
                                  "records_dropped_note"};
    for (size_t i = 0; i < std::size(by_kind); ++i)
      if (by_kind[i]) counters.add(names[i], by_kind[i]);
    if (without_surt) counters.add("records_without_surt", without_surt);
  }
};

// Phase 1: every record keyed by its SURT.
void read_sources(const std::vector<Source>& sources, const MergeOptions& options, uint64_t budget,
                  RunSet& runs, Counters& counters) {
  unsigned workers = std::max<unsigned>(1, std::min<unsigned>(options.jobs, sources.size()));
  std::vector<std::unique_ptr<SpillBuffer>> buffers;
  for (unsigned w = 0; w < workers; ++w)
    buffers.push_back(std::make_unique<SpillBuffer>(runs, budget / workers));
  parallel_for(sources.size(), workers, counters, [&](size_t i, Counters& local, size_t w) {
    RecordCounts counts;
    sources[i](
        [&](const Record& record) {
          ++counts.by_kind[record.index()];
          const std::string& key = surt_key(record);
          if (key.empty()) return void(++counts.without_surt);
          buffers[w]->add_written(
              key, encoded_size(record), [&record](char* out) { encode(record, out); },
              key_offset(record, key));
        },
        local);
    counts.add_to(local);
  });
  for (auto& buffer : buffers) buffer->finish();
}

using Group = BasicDigestGroup<EncodedReference, EncodedCapture>;

// A record read in place when its bytes stay put (in-memory runs), else copied.
template <typename Encoded>
Encoded view_or_copy(std::string_view bytes, bool stable) {
  return stable ? Encoded::in_place(bytes) : Encoded(bytes);
}

// Hands one encoded value to a job's reducer: captures, references and revisits (job 1 only:
// it resolves them) as views (in place or copied), the rest decoded into `scratch`.
template <typename Reducer>
void feed(Reducer& reducer, std::string_view bytes, bool stable, Record& scratch) {
  char tag = bytes.empty() ? '\0' : bytes[0];
  if (tag == kReferenceTag)
    return reducer.add_reference(view_or_copy<EncodedReference>(bytes, stable));
  if (tag == kCaptureTag) return reducer.add_capture(view_or_copy<EncodedCapture>(bytes, stable));
  if constexpr (requires { reducer.add_revisit(EncodedRevisit::in_place(bytes)); })
    if (tag == kRevisitTag) return reducer.add_revisit(view_or_copy<EncodedRevisit>(bytes, stable));
  decode(bytes, scratch);
  reducer.add(std::move(scratch));
}

// Job 1's output for job 2, keyed by digest; captures and references keep their bytes: those
// read in place from phase 1's in-memory runs are not even copied (the runs outlive job 2).
void emit_digest_groups(std::vector<Group>&& groups, SpillBuffer& out, std::string& bytes) {
  for (auto& group : groups) {
    for (const auto& capture : group.captures)
      out.add(group.digest, capture.bytes(), capture.viewed_in_place());
    for (const auto& ref : group.refs) out.add(group.digest, ref.bytes(), ref.viewed_in_place());
    if (!group.dropped_refs) continue;
    bytes.clear();
    encode(DroppedReferences{group.dropped_refs}, bytes);
    out.add(group.digest, bytes);
  }
}

// Job 1 over one SURT partition; values fed to SurtMerger as they stream by.
class SurtReducer : public GroupVisitor {
 public:
  SurtReducer(Counters& counters, SpillBuffer& out)
      : counters_(counters), merger_(counters), out_(out) {}
  void begin(std::string_view) override {
    counters_.add(kSurts);
    merger_.reset();
  }
  void value(std::string_view bytes, bool stable) override {
    feed(merger_, bytes, stable, record_);
  }
  void end() override { emit_digest_groups(merger_.finish(), out_, bytes_); }

 private:
  Counters& counters_;
  BasicSurtMerger<EncodedReference, EncodedCapture, EncodedRevisit> merger_;
  SpillBuffer& out_;
  Record record_;
  std::string bytes_;
};

// Phase 2: job 1 per SURT; its output keyed by digest.
void merge_surts(const RunSet& in, unsigned jobs, uint64_t budget, RunSet& out,
                 Counters& counters) {
  std::vector<std::unique_ptr<SpillBuffer>> buffers;
  for (unsigned w = 0; w < jobs; ++w)
    buffers.push_back(std::make_unique<SpillBuffer>(out, budget / jobs));
  parallel_for(in.partitions(), jobs, counters, [&](size_t p, Counters& local, size_t w) {
    SurtReducer reducer(local, *buffers[w]);
    merge_partition(in, p, reducer);
  });
  for (auto& buffer : buffers) buffer->finish();
}

// Job 2 over one digest partition: documents as JSON lines in id order, each prefixed with
// "id\t" when `with_id` (part files that phase 4 merges by id).
class DigestReducer : public GroupVisitor {
 public:
  DigestReducer(Mode mode, Counters& counters, std::ostream& out, bool with_id = true)
      : mode_(mode), counters_(counters), out_(out), with_id_(with_id) {}
  void begin(std::string_view key) override { collector_.reset(key); }
  void value(std::string_view bytes, bool stable) override {
    feed(collector_, bytes, stable, record_);
  }
  void end() override {
    auto& group = collector_.finish(counters_);
    for (const auto& doc : build_documents<DocumentView>(group, mode_, counters_)) {
      counters_.add(kDocuments);
      line_.clear();
      if (with_id_) line_.append(doc.id).push_back('\t');
      append_document_json(doc, line_);
      line_.push_back('\n');
      out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
    }
  }

 private:
  Mode mode_;
  Counters& counters_;
  std::ostream& out_;
  bool with_id_;
  BasicDigestCollector<EncodedReference, EncodedCapture> collector_;
  Record record_;
  std::string line_;
};

// Phase 3: job 2 per digest partition into sorted part files.
std::vector<std::filesystem::path> build_parts(const RunSet& in, const MergeOptions& options,
                                               Counters& counters) {
  std::vector<std::filesystem::path> parts(in.partitions());
  parallel_for(in.partitions(), options.jobs, counters, [&](size_t p, Counters& local, size_t) {
    parts[p] = options.work_dir / ("documents-" + std::to_string(p) + ".part");
    std::ofstream out(parts[p], std::ios::binary);
    DigestReducer reducer(options.mode, local, out);
    merge_partition(in, p, reducer);
    if (!out) throw std::runtime_error("cannot write " + parts[p].string());
  });
  return parts;
}

// Phase 4: the part files merged by id; the id prefix is dropped.
void merge_parts(const std::vector<std::filesystem::path>& parts, std::ostream& out) {
  struct Part {
    std::ifstream in;
    std::string line;
    std::string_view id() const { return std::string_view(line).substr(0, line.find('\t')); }
  };
  std::vector<std::unique_ptr<Part>> open;
  for (const auto& path : parts) {
    auto part = std::make_unique<Part>();
    part->in.open(path, std::ios::binary);
    if (std::getline(part->in, part->line)) open.push_back(std::move(part));
  }
  auto greater = [&](size_t a, size_t b) { return open[a]->id() > open[b]->id(); };
  std::priority_queue<size_t, std::vector<size_t>, decltype(greater)> heap(greater);
  for (size_t i = 0; i < open.size(); ++i) heap.push(i);
  while (!heap.empty()) {
    size_t i = heap.top();
    heap.pop();
    out << std::string_view(open[i]->line).substr(open[i]->line.find('\t') + 1) << '\n';
    if (std::getline(open[i]->in, open[i]->line)) heap.push(i);
  }
}

}  // namespace

Counters run_merge(const std::vector<Source>& sources, const MergeOptions& options,
                   std::ostream& out) {
  MergeOptions opts = options;
  opts.jobs = std::max(1u, opts.jobs);
  if (opts.work_dir.empty()) throw std::runtime_error("merge: no work dir");
  std::filesystem::create_directories(opts.work_dir);
  Counters counters;
  // 3/8 of the memory for each job's buffers: job 1's in-memory runs live until phase 3
  // ends (job 2's entries point into them) while job 2's buffers fill; the last quarter is for the
  // groups being reduced (bounded by the per-key cap), read buffers and the program itself.
  uint64_t budget = std::max<uint64_t>(opts.memory / 8 * 3, 1);
  RunSet by_surt(opts.work_dir, "surt", opts.jobs, KeyOrder::hashed);
  read_sources(sources, opts, budget, by_surt, counters);
  // Digest order: each partition's documents come out sorted by id for phase 4.
  RunSet by_digest(opts.work_dir, "digest", opts.jobs, KeyOrder::lexicographic);
  merge_surts(by_surt, opts.jobs, budget, by_digest, counters);
  counters.add("spilled_runs",
               static_cast<int64_t>(by_surt.spilled_runs() + by_digest.spilled_runs()));
  counters.add("spilled_bytes",
               static_cast<int64_t>(by_surt.spilled_bytes() + by_digest.spilled_bytes()));
  by_surt.remove_files();  // its in-memory runs hold values of by_digest's
  if (by_digest.partitions() == 1) {
    // One partition is already in id order: no part file to merge.
    DigestReducer reducer(opts.mode, counters, out, false);
    merge_partition(by_digest, 0, reducer);
  } else {
    auto parts = build_parts(by_digest, opts, counters);
    merge_parts(parts, out);
    for (const auto& part : parts) std::filesystem::remove(part);
  }
  by_digest.clear();
  by_surt.clear();
  return counters;
}

Source jsonl_file_source(std::filesystem::path file, std::function<void(uint64_t)> on_bytes) {
  return [file = std::move(file), on_bytes](const RecordEmit& emit, Counters& counters) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      counters.add("input_files_unreadable");
      return;
    }
    std::string line;
    Record record;
    while (std::getline(in, line)) {
      if (on_bytes) on_bytes(line.size() + 1);
      if (line.empty()) continue;
      try {
        if (record_from_json(Json::parse(line), record))
          emit(record);
        else
          counters.add("lines_not_records");
      } catch (const Json::exception&) {
        counters.add("lines_malformed");
      }
    }
  };
}

std::string table2_report(const Counters& c) {
  int64_t base = c.get("records_ref");
  auto row = [base](std::ostringstream& out, const char* label, int64_t n, int64_t prev) {
    char line[160];
    auto pct = [](int64_t a, int64_t b) {
      return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0;
    };
    if (prev < 0)
      std::snprintf(line, sizeof line, "%-34s %14lld %8.1f%% %9s\n", label,
                    static_cast<long long>(n), pct(n, base), "-");
    else
      std::snprintf(line, sizeof line, "%-34s %14lld %8.1f%% %+8.1f%%\n", label,
                    static_cast<long long>(n), pct(n, base), pct(n, prev) - 100.0);
    out << line;
  };
  std::ostringstream out;
  out << "Stage                                       Count  % no-dedup  vs. prev.\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-34s %14lld\n", "Image captures (+resolved revisits)",
                static_cast<long long>(c.get("records_image") + c.get("revisits_resolved")));
  out << line;
  row(out, "Image metadata records (no dedup)", base, -1);
  row(out, "Matching SURT (job 1)", c.get("surt_digest_groups"), base);
  row(out, "Matching digest (job 2)", c.get("digests_merged"), c.get("surt_digest_groups"));
  return out.str();
}

}  // namespace strata::merge
