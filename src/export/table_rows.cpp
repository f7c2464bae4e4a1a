#include "export/table_rows.hpp"

#include "export/format_writer.hpp"

namespace strata::exporter {
namespace {

std::string quoted(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

class CsvWriter final : public FormatWriter {
 public:
  explicit CsvWriter(const WriterContext& c) : c_(c) {}
  void begin(std::string& out) override { out += csv_line(c_.options.fields); }
  void add(const search::Hit& hit, std::string& out) override {
    out += csv_line(csv_cells(c_.row(hit), c_.options.fields));
    ++c_.summary.written;
  }
  void end(std::string&) override {}

 private:
  WriterContext c_;
};

class JsonlWriter final : public FormatWriter {
 public:
  explicit JsonlWriter(const WriterContext& c) : c_(c) {}
  void begin(std::string&) override {}
  void add(const search::Hit& hit, std::string& out) override {
    out += c_.row(hit).dump(-1, ' ', false, Json::error_handler_t::replace);
    out += '\n';
    ++c_.summary.written;
  }
  void end(std::string&) override {}

 private:
  WriterContext c_;
};

}  // namespace

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_array()) return value.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string joined;
  for (const auto& v : value) joined += (joined.empty() ? "" : " | ") + csv_cell(v);
  return joined;
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + quoted(cells[i]);
  return line + "\r\n";
}

std::vector<std::string> csv_cells(const Json& item, const std::vector<std::string>& fields) {
  std::vector<std::string> cells;
  for (const auto& f : fields) cells.push_back(item.contains(f) ? csv_cell(item[f]) : "");
  return cells;
}

std::unique_ptr<FormatWriter> make_csv_writer(const WriterContext& context) {
  return std::make_unique<CsvWriter>(context);
}

std::unique_ptr<FormatWriter> make_jsonl_writer(const WriterContext& context) {
  return std::make_unique<JsonlWriter>(context);
}

}  // namespace strata::exporter
