#include "merge/streaming.hpp"

#include <istream>
#include <ostream>
#include <string_view>
#include <vector>

#include "merge/document_json.hpp"
#include "merge/surt_merge.hpp"

namespace strata::merge {
namespace {

std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void emit(std::ostream& out, std::string_view key, const Json& value) {
  out << key << '\t' << dump(value) << '\n';
}

// Keys become the first field of a line: a tab or newline in one would break the format.
bool usable_key(std::string_view key) {
  return key.find_first_of("\t\n") == std::string_view::npos;
}

void map(std::istream& in, std::ostream& out, Counters& counters) {
  std::string line;
  Record record;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      if (!record_from_json(Json::parse(line), record)) {
        counters.add("lines_not_records");
        continue;
      }
    } catch (const Json::exception&) {
      counters.add("lines_malformed");
      continue;
    }
    static const char* names[] = {"records_image", "records_revisit", "records_ref",
                                  "records_dropped_note"};
    counters.add(names[record.index()]);
    const std::string& key = surt_key(record);
    if (key.empty() || !usable_key(key)) {
      counters.add("records_without_surt");
      continue;
    }
    emit(out, key, record_to_json(record));
  }
}

// Calls on_group(key, values) for each run of lines with the same key.
template <typename Handler>
void for_each_group(std::istream& in, Counters& counters, Handler on_group) {
  std::string line, key;
  std::vector<Json> values;
  bool open = false;
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      counters.add("lines_malformed");
      continue;
    }
    std::string_view line_key(line.data(), tab);
    if (open && line_key != key) {
      on_group(key, values);
      values.clear();
    }
    key.assign(line_key);
    open = true;
    try {
      values.push_back(
          Json::parse(line.begin() + static_cast<std::ptrdiff_t>(tab) + 1, line.end()));
    } catch (const Json::exception&) {
      counters.add("lines_malformed");
    }
  }
  if (open) on_group(key, values);
}

void reduce(std::istream& in, std::ostream& out, Counters& counters) {
  SurtGroup group;
  Record record;
  for_each_group(in, counters, [&](const std::string& key, const std::vector<Json>& values) {
    counters.add("surts");
    group = SurtGroup{key, {}, {}, {}};
    for (const auto& value : values) {
      if (!record_from_json(value, record)) continue;
      add_to_group(group, std::move(record));
    }
    for (const auto& digest_group : merge_surt(group, counters)) {
      for (const auto& capture : digest_group.captures)
        emit(out, digest_group.digest, extract::to_json(capture));
      for (const auto& ref : digest_group.refs)
        emit(out, digest_group.digest, extract::to_json(ref));
      if (digest_group.dropped_refs)
        emit(out, digest_group.digest,
             record_to_json(DroppedReferences{digest_group.dropped_refs}));
    }
  });
}

void map2(std::istream& in, std::ostream& out, Counters& counters) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.find('\t') == std::string::npos) {
      counters.add("lines_malformed");
      continue;
    }
    out << line << '\n';
  }
}

void reduce2(std::istream& in, std::ostream& out, Mode mode, Counters& counters) {
  DigestCollector collector;
  Record record;
  for_each_group(in, counters, [&](const std::string& key, const std::vector<Json>& values) {
    collector.reset(key);
    for (const auto& value : values)
      if (record_from_json(value, record)) collector.add(std::move(record));
    for (const auto& doc : build_documents(collector.finish(counters), mode, counters)) {
      counters.add("documents");
      out << doc.id << '\t' << document_json(doc) << '\n';
    }
  });
}

}  // namespace

bool parse_stage(const std::string& text, Stage& out) {
  if (text == "map")
    out = Stage::map;
  else if (text == "reduce")
    out = Stage::reduce;
  else if (text == "map2")
    out = Stage::map2;
  else if (text == "reduce2")
    out = Stage::reduce2;
  else
    return false;
  return true;
}

std::string document_json(const ImageDocument& doc) {
  std::string out;
  append_document_json(doc, out);
  return out;
}

Counters run_streaming(Stage stage, Mode mode, std::istream& in, std::ostream& out) {
  Counters counters;
  switch (stage) {
    case Stage::map:
      map(in, out, counters);
      break;
    case Stage::reduce:
      reduce(in, out, counters);
      break;
    case Stage::map2:
      map2(in, out, counters);
      break;
    case Stage::reduce2:
      reduce2(in, out, mode, counters);
      break;
  }
  return counters;
}

void write_hadoop_counters(const Counters& counters, std::ostream& err, std::string_view group) {
  for (const auto& [name, value] : counters.values())
    err << "reporter:counter:" << group << ',' << name << ',' << value << '\n';
}

}  // namespace strata::merge
