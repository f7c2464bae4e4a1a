#include "merge/pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>
#include <variant>

#include "core/report.hpp"
#include "merge/chunk_recycler.hpp"
#include "merge/codec.hpp"
#include "merge/document_json.hpp"
#include "merge/key_hash.hpp"
#include "merge/shared_digests.hpp"
#include "merge/sorter.hpp"
#include "merge/streaming.hpp"
#include "merge/surt_merge.hpp"

namespace strata::merge {
namespace {

// Counted per record or per key: built once, not per call.
const std::string kSurts = "surts", kDocuments = "documents",
                  kDocumentsFromJob1 = "documents_built_in_job1";

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Runs work(i, counters) for i in [0, n) on up to `jobs` threads; counters are merged. The CPU
// of every worker but the busiest is added to `times` (may be null).
void parallel_for(size_t n, unsigned jobs, Counters& counters, MergeTimes* times,
                  const std::function<void(size_t, Counters&, size_t worker)>& work) {
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::exception_ptr error;
  double cpu_sum = 0, cpu_max = 0;
  auto worker = [&](size_t w) {
    const double start = thread_cpu_seconds();
    Counters local;
    try {
      for (size_t i; (i = next++) < n;) work(i, local, w);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
    }
    std::lock_guard lock(mutex);
    counters.merge(local);
    const double cpu = thread_cpu_seconds() - start;
    cpu_sum += cpu;
    cpu_max = std::max(cpu_max, cpu);
  };
  size_t threads = std::max<size_t>(1, std::min<size_t>(jobs, n));
  std::vector<std::thread> pool;
  for (size_t w = 1; w < threads; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (auto& t : pool) t.join();
  if (times) times->overlapped_cpu_s += cpu_sum - cpu_max;
  if (error) std::rethrow_exception(error);
}

// Sorts each buffer's last records (spilled, or kept as an in-memory run), in parallel.
void finish(std::vector<std::unique_ptr<SpillBuffer>>& buffers, MergeTimes* times) {
  Counters none;
  parallel_for(buffers.size(), static_cast<unsigned>(buffers.size()), none, times,
               [&](size_t i, Counters&, size_t) { buffers[i]->finish(); });
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

// Phase 1: every record keyed by its SURT; returns the digests found under several SURTs.
SharedDigests read_sources(const std::vector<Source>& sources, const MergeOptions& options,
                           uint64_t budget, RunSet& runs, Counters& counters) {
  unsigned workers = std::max<unsigned>(1, std::min<unsigned>(options.jobs, sources.size()));
  std::vector<std::unique_ptr<SpillBuffer>> buffers;
  for (unsigned w = 0; w < workers; ++w)
    buffers.push_back(std::make_unique<SpillBuffer>(runs, budget / workers));
  // A 16th of the memory for the (digest, SURT) pairs: 16 bytes each.
  std::vector<DigestSightings> sightings(workers, DigestSightings(options.memory / 256 / workers));
  parallel_for(
      sources.size(), workers, counters, options.times, [&](size_t i, Counters& local, size_t w) {
        RecordCounts counts;
        sources[i](
            [&](const Record& record) {
              ++counts.by_kind[record.index()];
              const std::string& key = surt_key(record);
              if (key.empty()) return void(++counts.without_surt);
              uint64_t hash = key_hash(key);  // once, for the sightings and the sorter
              if (const auto* capture = std::get_if<ImageCapture>(&record))
                if (!capture->digest.empty()) sightings[w].note(capture->digest, hash);
              RunSet::Place place = runs.place(key, hash);
              size_t key_at = key_offset(record, key);
              if (key_at == kKeyApart)
                return buffers[w]->add_written(place, key, encoded_size(record),
                                               [&record](char* out) { encode(record, out); });
              buffers[w]->add_unsized(
                  place, key,
                  [&record](char* out, size_t room) { return encode(record, out, room); }, key_at);
            },
            local);
        counts.add_to(local);
      });
  finish(buffers, options.times);
  return SharedDigests(sightings);
}

using Group = BasicDigestGroup<EncodedReference, EncodedCapture>;

// A record read in place when its bytes stay put (in-memory runs), else copied.
template <typename Encoded>
Encoded view_or_copy(std::string_view bytes, bool stable) {
  return stable ? Encoded::in_place(bytes) : Encoded(bytes);
}

// Hands one encoded value to a job's reducer: captures, references (both built where the
// reducer keeps them) and revisits (job 1 only: it resolves them) as views (in place or copied),
// the rest decoded into `scratch`.
template <typename Reducer>
void feed(Reducer& reducer, std::string_view bytes, bool stable, Record& scratch) {
  char tag = bytes.empty() ? '\0' : bytes[0];
  if (tag == kReferenceTag) return reducer.emplace_reference(bytes, !stable);
  if (tag == kCaptureTag) return reducer.emplace_capture(bytes, !stable);
  if constexpr (requires { reducer.add_revisit(EncodedRevisit::in_place(bytes)); })
    if (tag == kRevisitTag) return reducer.add_revisit(view_or_copy<EncodedRevisit>(bytes, stable));
  decode(bytes, scratch);
  reducer.add(std::move(scratch));
}

// Job 1's output for job 2, keyed by digest; captures and references keep their bytes (copied:
// the chunks of phase 1 they lie in go on to job 2's buffers, ChunkRecycler).
void emit_digest_group(const Group& group, SpillBuffer& out, std::string& bytes) {
  for (const auto& capture : group.captures) out.add(group.digest, capture.bytes());
  for (const auto& ref : group.refs) out.add(group.digest, ref.bytes());
  if (!group.dropped_refs) return;
  bytes.clear();
  encode(DroppedReferences{group.dropped_refs}, bytes);
  out.add(group.digest, bytes);
}

// The group's documents as JSON lines in id order; returns how many (the callers count them in
// plain integers: a Counters lookup per document showed in profiles).
int64_t append_documents(Group& group, ReferenceOrder order, Mode mode, Counters& counters,
                         std::string& out) {
  thread_local DocumentBuilder<DocumentView> builder;  // reused: see DocumentBuilder
  std::span<DocumentView> docs = builder.build(group, mode, counters, order);
  for (const auto& doc : docs) {
    append_document_json(doc, out);
    out.push_back('\n');
  }
  return static_cast<int64_t>(docs.size());
}

constexpr int64_t kSurtsPerRecyclerPass = 16;

// Job 1 over one SURT partition; values fed to SurtMerger as they stream by. A digest found
// under this SURT only gets its documents built here, as one value of kDocumentsTag that job 2
// writes out in digest order; the others go to job 2 record by record.
class SurtReducer : public GroupVisitor {
 public:
  // Reads partition `p` of `in`, telling `recycler` how far it got.
  SurtReducer(Counters& counters, SpillBuffer& out, const SharedDigests& shared, Mode mode,
              const RunSet& in, size_t p, ChunkRecycler& recycler)
      : counters_(counters),
        merger_(counters),
        out_(out),
        shared_(shared),
        mode_(mode),
        in_(in),
        partition_(p),
        recycler_(recycler) {}
  ~SurtReducer() override {
    if (surts_) counters_.add(kSurts, surts_);
    if (documents_) {
      counters_.add(kDocuments, documents_);
      counters_.add(kDocumentsFromJob1, documents_);
    }
  }
  SurtReducer(const SurtReducer&) = delete;
  SurtReducer& operator=(const SurtReducer&) = delete;
  void begin(std::string_view key) override {
    ++surts_;
    merger_.reset();
    // Every kSurtsPerRecyclerPass SURTs only: hashing the key and passing areas for every SURT
    // showed in profiles, and a chunk (up to 64 KiB) holds about a hundred SURTs.
    if (recycler_.active() && surts_ % kSurtsPerRecyclerPass == 0)
      recycler_.passed(partition_, in_.place(key).rank);
  }
  void value(std::string_view bytes, bool stable) override {
    bool reference = !bytes.empty() && bytes[0] == kReferenceTag;
    if (reference && merger_.skip_reference_without_images()) return;  // not decoded
    feed(merger_, bytes, stable, record_);
  }
  void end() override {
    for (auto& group : merger_.finish()) {
      if (shared_.shared(group.digest)) {
        emit_digest_group(group, out_, bytes_);
        continue;
      }
      bytes_.assign(1, kDocumentsTag);
      int64_t n = append_documents(group, ReferenceOrder::unknown, mode_, counters_, bytes_);
      if (!n) continue;
      documents_ += n;
      out_.add(group.digest, bytes_);
    }
  }

 private:
  Counters& counters_;
  BasicSurtMerger<EncodedReference, EncodedCapture, EncodedRevisit> merger_;
  SpillBuffer& out_;
  const SharedDigests& shared_;
  Mode mode_;
  const RunSet& in_;
  size_t partition_;
  ChunkRecycler& recycler_;
  // Counted once at the end: a Counters lookup per SURT showed in profiles.
  int64_t surts_ = 0, documents_ = 0;
  Record record_;
  std::string bytes_;
};

// Phase 2: job 1 per SURT; its output keyed by digest, in chunks of phase 1's arena as soon as
// job 1 has read past them.
void merge_surts(const RunSet& in, const SharedDigests& shared, const MergeOptions& options,
                 uint64_t budget, RunSet& out, Counters& counters) {
  ChunkRecycler recycler(in);
  std::vector<std::unique_ptr<SpillBuffer>> buffers;
  for (unsigned w = 0; w < options.jobs; ++w)
    buffers.push_back(std::make_unique<SpillBuffer>(out, budget / options.jobs, &recycler));
  parallel_for(in.partitions(), options.jobs, counters, options.times,
               [&](size_t p, Counters& local, size_t w) {
                 {
                   SurtReducer reducer(local, *buffers[w], shared, options.mode, in, p, recycler);
                   merge_partition(in, p, reducer);
                 }
                 recycler.finished(p);
               });
  finish(buffers, options.times);
}

void write(std::ostream& out, std::string_view text) {
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// Job 2 over one digest partition: documents as append_documents writes them; job 1's
// finished ones (kDocumentsTag) as they are. Lines are gathered and written kWriteBytes at a
// time (an ostream::write per digest showed in profiles); flush() writes the rest.
class DigestReducer : public GroupVisitor {
 public:
  DigestReducer(Mode mode, Counters& counters, std::ostream& out)
      : mode_(mode), counters_(counters), out_(out) {}
  ~DigestReducer() override {
    if (documents_) counters_.add(kDocuments, documents_);
  }
  DigestReducer(const DigestReducer&) = delete;
  DigestReducer& operator=(const DigestReducer&) = delete;
  void begin(std::string_view key) override { collector_.reset(key); }
  void value(std::string_view bytes, bool stable) override {
    if (bytes.empty() || bytes[0] != kDocumentsTag) return feed(collector_, bytes, stable, record_);
    lines_.append(bytes.substr(1));
    if (lines_.size() >= kWriteBytes) flush();
  }
  void end() override {
    documents_ += append_documents(collector_.finish(counters_), ReferenceOrder::sorted, mode_,
                                   counters_, lines_);
    if (lines_.size() >= kWriteBytes) flush();
  }
  // Writes the lines gathered so far; call after the partition's last digest.
  void flush() {
    write(out_, lines_);
    lines_.clear();
  }

 private:
  Mode mode_;
  Counters& counters_;
  std::ostream& out_;
  BasicDigestCollector<EncodedReference, EncodedCapture> collector_;
  Record record_;
  static constexpr size_t kWriteBytes = 64 << 10;
  std::string lines_;
  int64_t documents_ = 0;  // counted once at the end, like SurtReducer's
};

// Appends the file `from` to `out`.
void append_file(const std::filesystem::path& from, std::ostream& out) {
  std::ifstream in(from, std::ios::binary);
  std::vector<char> block(1 << 20);
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
    write(out, {block.data(), static_cast<size_t>(in.gcount())});
}

// Phases 3 and 4: job 2 per digest partition. Partitions are ranges of digests in order
// (KeyOrder::lexicographic), so their documents, one partition after the other, are in id
// order: the first partition is written to `out` as it is made, the others to part files
// appended to `out` in order once all are done.
void build_documents(const RunSet& in, const MergeOptions& options, Counters& counters,
                     std::ostream& out) {
  std::vector<std::filesystem::path> parts(in.partitions());
  parallel_for(in.partitions(), options.jobs, counters, options.times,
               [&](size_t p, Counters& local, size_t) {
                 std::ofstream part;
                 if (p > 0) {
                   parts[p] = options.work_dir / ("documents-" + std::to_string(p) + ".part");
                   part.open(parts[p], std::ios::binary);
                 }
                 DigestReducer reducer(options.mode, local, p > 0 ? part : out);
                 merge_partition(in, p, reducer);
                 reducer.flush();
                 if (p > 0 && !part) throw std::runtime_error("cannot write " + parts[p].string());
               });
  for (size_t p = 1; p < parts.size(); ++p) {
    append_file(parts[p], out);
    std::filesystem::remove(parts[p]);
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
  // digest sightings of phase 1 (a 16th), the groups being reduced (bounded by the per-key cap),
  // read buffers and the program itself.
  uint64_t budget = std::max<uint64_t>(opts.memory / 8 * 3, 1);
  RunSet by_surt(opts.work_dir, "surt", opts.jobs, KeyOrder::hashed);
  SharedDigests shared = read_sources(sources, opts, budget, by_surt, counters);
  // Digest order: each partition's documents come out sorted by id, the partitions in order.
  RunSet by_digest(opts.work_dir, "digest", opts.jobs, KeyOrder::lexicographic);
  merge_surts(by_surt, shared, opts, budget, by_digest, counters);
  counters.add("spilled_runs",
               static_cast<int64_t>(by_surt.spilled_runs() + by_digest.spilled_runs()));
  counters.add("spilled_bytes",
               static_cast<int64_t>(by_surt.spilled_bytes() + by_digest.spilled_bytes()));
  by_surt.remove_files();  // its in-memory runs hold values of by_digest's, or lend them chunks
  build_documents(by_digest, opts, counters, out);
  by_digest.clear();
  by_surt.clear();
  return counters;
}

Json table2_rows(const Counters& c) {
  const int64_t base = c.get("records_ref");
  auto pct = [](int64_t a, int64_t b) {
    return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0;
  };
  auto row = [&](const char* stage, int64_t n, Json share, Json change) {
    return Json{{"stage", stage}, {"count", n}, {"% no-dedup", share}, {"vs. prev. %", change}};
  };
  const int64_t surt = c.get("surt_digest_groups");
  const int64_t digest = c.get("digests_merged");
  return Json::array(
      {row("Image captures (+resolved revisits)",
           c.get("records_image") + c.get("revisits_resolved"), nullptr, nullptr),
       row("Image metadata records (no dedup)", base, pct(base, base), nullptr),
       row("Matching SURT (job 1)", surt, pct(surt, base), pct(surt, base) - 100.0),
       row("Matching digest (job 2)", digest, pct(digest, base), pct(digest, surt) - 100.0)});
}

std::string table2_report(const Counters& counters) {
  return report_text(Json{{"Table 2", table2_rows(counters)}});
}

}  // namespace strata::merge
