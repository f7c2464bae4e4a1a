#include "export/image_warc.hpp"

namespace strata::exporter {

ImageWarc::ImageWarc(const std::string& filename, const std::string& description) : warc_(buffer_) {
  warc_.write_warcinfo({{"software", "Strata (strata export)"},
                        {"format", "WARC File Format 1.1"},
                        {"description", "Images of a search result set: " + description}},
                       filename);
}

archive::WrittenRecord ImageWarc::image(const ArchivedImage& image) {
  const auto& r = image.record;
  if (r.format == archive::Format::warc) return warc_.write_copy(r.version, r.headers, image.bytes);
  archive::WarcRecordSpec spec;
  spec.type =
      image.record.http.present ? archive::RecordType::response : archive::RecordType::resource;
  spec.target_uri = r.target_uri;
  spec.date = r.date;
  spec.block = image.bytes;
  if (!r.http.present) spec.content_type = r.content_type;
  return warc_.write(spec);
}

void ImageWarc::report(const Json& report) {
  archive::WarcRecordSpec spec;
  spec.type = archive::RecordType::metadata;
  spec.target_uri = "urn:strata:export:report";
  spec.content_type = "application/json";
  spec.block = report.dump(-1, ' ', false, Json::error_handler_t::replace);
  warc_.write(spec);
}

void ImageWarc::take(std::string& out) {
  out += buffer_.str();
  buffer_.str({});
}

}  // namespace strata::exporter
