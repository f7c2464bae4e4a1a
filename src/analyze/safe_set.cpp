#include "analyze/safe_set.hpp"

#include <zip.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <memory>
#include <sstream>

#include "analyze/image.hpp"
#include "archive/reader.hpp"

namespace strata::analyze {

namespace fs = std::filesystem;

namespace {

constexpr std::array<const char*, 5> kShownLabels = {"photo", "graphic", "painting", "drawing",
                                                     "page"};
constexpr std::array<const char*, 2> kHiddenLabels = {"explicit", "suggestive"};

bool is_image(std::string_view bytes) {
  ImageHeader header;
  const DecodeStatus status = probe_image(bytes, DecodeLimits{}, header);
  return status == DecodeStatus::ok || status == DecodeStatus::too_large;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
  return fields;
}

bool is_zip(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".epub" || ext == ".zip";
}

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

using ZipPtr = std::unique_ptr<zip_t, decltype(&zip_discard)>;

std::string read_member(zip_t* zip, zip_uint64_t index, zip_uint64_t size) {
  std::unique_ptr<zip_file_t, decltype(&zip_fclose)> file(zip_fopen_index(zip, index, 0),
                                                          &zip_fclose);
  if (!file) return {};
  std::string bytes(size, '\0');
  const zip_int64_t got = zip_fread(file.get(), bytes.data(), size);
  bytes.resize(got < 0 ? 0 : size_t(got));
  return bytes;
}

void zip_images(const SafeSetRow& row, const fs::path& path, std::vector<SetImage>& out,
                std::vector<std::string>& errors) {
  int code = 0;
  ZipPtr zip(zip_open(path.c_str(), ZIP_RDONLY, &code), &zip_discard);
  if (!zip) {
    errors.push_back(path.string() + ": not a readable zip");
    return;
  }
  const zip_int64_t n = zip_get_num_entries(zip.get(), 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    if (zip_stat_index(zip.get(), zip_uint64_t(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
      continue;
    const std::string name = st.name;
    if (row.item != "*" && row.item != name) continue;
    std::string bytes = read_member(zip.get(), zip_uint64_t(i), st.size);
    if (row.item == "*" && !is_image(bytes)) continue;
    SetImage& image = out.emplace_back(SetImage{row, std::move(bytes)});
    image.row.item = name;
  }
}

// Appends the reader's current record when it carries an image.
void take_record_image(archive::ArchiveReader& reader, const SafeSetRow& row,
                       std::vector<SetImage>& out) {
  const auto& record = reader.record();
  if (record.type != archive::RecordType::response && record.type != archive::RecordType::resource)
    return;
  const std::string item = std::to_string(record.location());
  std::string bytes;
  if (reader.read_payload(bytes) != archive::PayloadStatus::ok || !is_image(bytes)) return;
  SetImage& image = out.emplace_back(SetImage{row, std::move(bytes)});
  image.row.item = item;
}

void archive_images(const SafeSetRow& row, const fs::path& path, std::vector<SetImage>& out,
                    std::vector<std::string>& errors) {
  const auto ignore = [](const auto&...) {};
  if (row.item == "*") {
    auto reader = archive::ArchiveReader::open(path, {}, ignore);
    while (reader->next()) take_record_image(*reader, row, out);
    return;
  }
  auto reader = archive::read_record_at(path.string(), std::stoull(row.item), {}, ignore);
  if (reader)
    take_record_image(*reader, row, out);
  else
    errors.push_back(path.string() + ": no record at " + row.item);
}

}  // namespace

bool label_must_show(const std::string& label) {
  return std::find(kShownLabels.begin(), kShownLabels.end(), label) != kShownLabels.end();
}

bool known_label(const std::string& label) {
  return label_must_show(label) ||
         std::find(kHiddenLabels.begin(), kHiddenLabels.end(), label) != kHiddenLabels.end();
}

std::vector<SafeSetRow> read_safe_set(const fs::path& file, std::vector<std::string>& errors) {
  std::vector<SafeSetRow> rows;
  std::ifstream in(file);
  if (!in) errors.push_back(file.string() + ": cannot read");
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const auto fields = split_tabs(line);
    const std::string where = file.string() + ":" + std::to_string(line_no) + ": ";
    if (fields.size() < 3) {
      errors.push_back(where + "expected source, item, label and note separated by tabs");
      continue;
    }
    if (!known_label(fields[2])) {
      errors.push_back(where + "unknown label " + fields[2]);
      continue;
    }
    if (fields[1].empty()) {
      errors.push_back(where + "empty item");
      continue;
    }
    rows.push_back({fields[0], fields[1], fields[2], fields.size() > 3 ? fields[3] : "", line_no});
  }
  return rows;
}

std::vector<SetImage> load_set_images(const SafeSetRow& row, const fs::path& data_root,
                                      std::vector<std::string>& errors) {
  std::vector<SetImage> out;
  const fs::path path = data_root / row.source;
  const std::size_t errors_before = errors.size();
  if (!fs::is_regular_file(path)) {
    errors.push_back(path.string() + ": not found");
    return out;
  }
  try {
    if (row.item == "-")
      out.push_back({row, read_whole(path)});
    else if (is_zip(path))
      zip_images(row, path, out, errors);
    else
      archive_images(row, path, out, errors);
  } catch (const std::exception& e) {  // a bad offset (std::stoull) or an unreadable file
    errors.push_back(path.string() + ": " + e.what());
  }
  if (out.empty() && errors.size() == errors_before && row.item != "*")
    errors.push_back(path.string() + ": no image at item " + row.item);
  return out;
}

}  // namespace strata::analyze
