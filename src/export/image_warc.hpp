#pragma once
// The WARC of an export (warc, and each archive/*.warc.gz of a wacz): a warcinfo naming the
// export, each image's archived record copied as it was (an ARC record becomes a WARC/1.1
// response with the same block), and a closing metadata record listing what was left out.
// Records are gzip members buffered until take().
#include <sstream>
#include <string>

#include "archive/warc_writer.hpp"
#include "export/export.hpp"
#include "export/image_records.hpp"

namespace strata::exporter {

class ImageWarc {
 public:
  ImageWarc(const std::string& filename, const std::string& description);
  archive::WrittenRecord image(const ArchivedImage& image);
  // A metadata record (application/json) with `report`: what was written and left out.
  void report(const Json& report);
  // Moves the bytes written so far to the end of `out`.
  void take(std::string& out);

 private:
  std::ostringstream buffer_;
  archive::WarcWriter warc_;
};

}  // namespace strata::exporter
