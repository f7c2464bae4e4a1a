#pragma once
// The writer of one export format (export.hpp): the exporter hands it the results in order and
// it appends the output's bytes to a piece.
#include <xapian.h>

#include <memory>
#include <string>

#include "export/export.hpp"

namespace strata::exporter {

class FormatWriter {
 public:
  virtual ~FormatWriter() = default;
  virtual void begin(std::string& out) = 0;
  virtual void add(const search::Hit& hit, std::string& out) = 0;
  virtual void end(std::string& out) = 0;
};

// What a writer may use; everything outlives it.
struct WriterContext {
  const search::IndexParts& parts;  // the index read (its archive registry)
  const ExportOptions& options;
  const RowFn& row;
  ExportSummary& summary;
  ProblemSink problems;   // images left out, as they happen
  const ProblemLog& log;  // what `problems` collected, for the reports in the output
};

std::unique_ptr<FormatWriter> make_csv_writer(const WriterContext& context);
std::unique_ptr<FormatWriter> make_jsonl_writer(const WriterContext& context);
std::unique_ptr<FormatWriter> make_warc_writer(const WriterContext& context);
std::unique_ptr<FormatWriter> make_zip_writer(const WriterContext& context);
std::unique_ptr<FormatWriter> make_wacz_writer(const WriterContext& context);

}  // namespace strata::exporter
