#include "export/image_records.hpp"

#include "archive/locate.hpp"
#include "archive/reader.hpp"

namespace strata::exporter {

std::optional<ArchivedImage> read_image(const search::IndexParts& parts,
                                        const merge::ImageDocument& doc,
                                        const std::vector<std::filesystem::path>& roots,
                                        bool want_payload, const ProblemSink& problems) {
  auto fail = [&](std::string kind, std::string detail) {
    problems({doc.imgFile, doc.imgOffset, std::move(kind), doc.imgDigest + ": " + detail});
    return std::nullopt;
  };
  if (doc.isInline || doc.imgUrl.empty())
    return fail("inline_image", "an inline (data:) image has no record of its own");
  const auto entry = parts.registered_archive(doc.imgFile);
  if (!entry) return fail("archive_not_registered", "the archive is not registered in the index");
  const archive::Located located = archive::locate_archive(*entry, roots);
  if (located.file.empty()) return fail("archive_unavailable", located.error);
  archive::CheckedRecord checked =
      archive::read_checked_record(located.file, doc.imgOffset, doc.imgUrl);
  if (!checked.reader) return fail("record_unavailable", checked.error);
  ArchivedImage image;
  const auto status = want_payload ? checked.reader->read_payload(image.bytes, kMaxImageRecord)
                                   : checked.reader->read_block(image.bytes, kMaxImageRecord);
  if (status != archive::PayloadStatus::ok)
    return fail("record_damaged", "the record is " + std::string(archive::to_string(status)));
  image.record = checked.reader->record();
  if (image.record.type == archive::RecordType::revisit)
    return fail("revisit_record", "the document points at a revisit, not at the image's bytes");
  return image;
}

}  // namespace strata::exporter
