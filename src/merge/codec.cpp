#include "merge/codec.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <variant>

#include "core/small_copy.hpp"
#include "merge/sorter.hpp"

namespace strata::merge {
namespace {

// A string's length takes one byte below this, else this byte and a u32 (most fields are
// short: a third less to buffer, sort and spill than with u32 lengths).
constexpr uint8_t kLongString = 255;

// Writes into room sized by Sizer beforehand (no growth checks, no staging copy).
class Writer {
 public:
  explicit Writer(char* out) : out_(out) {}
  char* end() const { return out_; }
  template <typename T>
  void raw(const T& value) {
    std::memcpy(out_, &value, sizeof value);
    out_ += sizeof value;
  }
  void str(std::string_view s) {
    if (s.size() < kLongString) {
      *out_++ = static_cast<char>(s.size());
    } else {
      *out_++ = static_cast<char>(kLongString);
      raw(static_cast<uint32_t>(s.size()));
    }
    copy_small(out_, s.data(), s.size());
    out_ += s.size();
  }

 private:
  char* out_;
};

// Counts, at most, the bytes of a record that are not its strings' text: the tag, the
// lengths (5 bytes each at most) and the integers.
class FixedSizer {
 public:
  template <typename T>
  void raw(const T& value) {
    size_ += sizeof value;
  }
  void str(std::string_view) { size_ += 5; }
  size_t size() const { return size_; }

 private:
  size_t size_ = 0;
};

// A Writer into room of unknown sufficiency: room for every record's fixed bytes is kept
// aside, so only the strings' text is checked. A string that does not fit is skipped and the
// record marked as not fitting; writing goes on within bounds.
class BoundedWriter : public Writer {
 public:
  BoundedWriter(char* out, size_t text_room) : Writer(out), text_room_(text_room) {}
  void str(std::string_view s) {
    if (s.size() > text_room_) return void(fits_ = false);
    text_room_ -= s.size();
    Writer::str(s);
  }
  bool fits() const { return fits_; }

 private:
  size_t text_room_;
  bool fits_ = true;
};

// Counts the bytes Writer will write.
class Sizer {
 public:
  template <typename T>
  void raw(const T& value) {
    size_ += sizeof value;
  }
  void str(std::string_view s) { size_ += (s.size() < kLongString ? 1 : 5) + s.size(); }
  size_t size() const { return size_; }

 private:
  size_t size_ = 0;
};

// Reads through an index, not a pointer: a string's text is checked against the end only by
// the next field's check or by finish() (one check per field, not two: every field of every
// record is read here, some twice), so the index may pass the end before finish() says so.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in.data()), size_(in.size()) {}
  template <typename T>
  void raw(T& value) {
    if (at_ + sizeof value > size_) truncated();
    std::memcpy(&value, in_ + at_, sizeof value);
    at_ += sizeof value;
  }
  // Checked at once: the text is copied.
  void str(std::string& s) {
    std::string_view view;
    str(view);
    finish_field();
    s.assign(view);
  }
  // The view is valid only once finish() has passed; inlined into the field lists.
  [[gnu::always_inline]] void str(std::string_view& s) {
    if (at_ >= size_) truncated();
    uint32_t size = static_cast<uint8_t>(in_[at_++]);
    if (size == kLongString) raw(size);
    s = std::string_view(in_ + at_, size);
    at_ += size;
  }
  // Throws unless the record's fields end exactly at the end of the input.
  void finish() const {
    finish_field();
    if (at_ != size_) throw std::runtime_error("merge codec: trailing bytes after a record");
  }

 private:
  void finish_field() const {
    if (at_ > size_) truncated();
  }
  [[noreturn, gnu::cold]] static void truncated() {
    throw std::runtime_error("merge codec: truncated record");
  }
  const char* in_;
  size_t size_;
  size_t at_ = 0;
};

// One field list per record type, used both ways so encode and decode cannot drift apart.
template <typename IO, typename C>
void fields(IO& io, C& c) {
  io.str(c.imgSurt), io.str(c.imgUrl), io.str(c.timestamp), io.str(c.collection);
  io.str(c.file), io.raw(c.offset), io.raw(c.length), io.str(c.recordType), io.raw(c.status);
  io.str(c.mimeReported), io.str(c.mimeDetected), io.raw(c.width), io.raw(c.height);
  io.str(c.digest), io.raw(c.size), io.str(c.warcDigest), io.raw(c.inline_);
}

template <typename IO, typename R>
void revisit_fields(IO& io, R& r) {
  io.str(r.imgSurt), io.str(r.imgUrl), io.str(r.timestamp), io.str(r.collection);
  io.str(r.file), io.raw(r.offset), io.raw(r.length), io.str(r.warcDigest);
  io.str(r.refersToUrl), io.str(r.refersToSurt), io.str(r.refersToDate), io.str(r.mimeReported);
}

template <typename IO, typename P>
void reference_fields(IO& io, P& p) {
  io.str(p.imgSurt), io.str(p.imgUrl), io.str(p.imgUrlTokens), io.str(p.imgAlt);
  io.str(p.imgTitle), io.str(p.imgCaption), io.str(p.tag), io.str(p.pageUrl);
  io.str(p.pageTimestamp), io.str(p.pageTitle), io.str(p.pageUrlTokens), io.str(p.pageHost);
  io.raw(p.imagesInPage), io.str(p.collection), io.str(p.file), io.raw(p.offset);
  io.raw(p.length), io.raw(p.inline_), io.str(p.position), io.str(p.book);
  io.str(p.pageSketch);
}

// What Encoded<View> reads: its record's tag byte and field list.
template <typename IO>
void view_fields(IO& io, ReferenceView& view) {
  reference_fields(io, view);
}
template <typename IO>
void view_fields(IO& io, CaptureView& view) {
  fields(io, view);
}
template <typename IO>
void view_fields(IO& io, RevisitView& view) {
  revisit_fields(io, view);
}
char tag_of(const ReferenceView&) {
  return kReferenceTag;
}
char tag_of(const CaptureView&) {
  return kCaptureTag;
}
char tag_of(const RevisitView&) {
  return kRevisitTag;
}

// The tag byte, then the record's field list, through a Writer or a Sizer.
template <typename IO>
void record_fields(IO& io, const Record& record) {
  if (const auto* c = std::get_if<ImageCapture>(&record)) {
    io.raw(kCaptureTag);
    fields(io, *c);
  } else if (const auto* r = std::get_if<ImageRevisit>(&record)) {
    io.raw(kRevisitTag);
    revisit_fields(io, *r);
  } else if (const auto* p = std::get_if<PageReference>(&record)) {
    io.raw(kReferenceTag);
    reference_fields(io, *p);
  } else {
    io.raw(kDroppedTag);
    io.raw(std::get<DroppedReferences>(record).count);
  }
}

}  // namespace

size_t encoded_size(const Record& record) {
  Sizer sizer;
  record_fields(sizer, record);
  return sizer.size();
}

void encode(const Record& record, char* out) {
  Writer writer(out);
  record_fields(writer, record);
}

namespace {

// The most fixed bytes (FixedSizer) of any record type.
size_t max_fixed_bytes() {
  size_t most = 0;
  for (const Record& record : {Record(ImageCapture{}), Record(ImageRevisit{}),
                               Record(PageReference{}), Record(DroppedReferences{})}) {
    FixedSizer sizer;
    record_fields(sizer, record);
    most = std::max(most, sizer.size());
  }
  return most;
}

}  // namespace

size_t encode(const Record& record, char* out, size_t room) {
  static const size_t fixed_bytes = max_fixed_bytes();
  if (room < fixed_bytes) return 0;
  BoundedWriter writer(out, room - fixed_bytes);
  record_fields(writer, record);
  return writer.fits() ? static_cast<size_t>(writer.end() - out) : 0;
}

void encode(const Record& record, std::string& out) {
  size_t at = out.size();
  out.resize(at + encoded_size(record));
  encode(record, out.data() + at);
}

size_t key_offset(const Record& record, const std::string& key) {
  const std::string* img_surt = std::visit(
      [](const auto& r) -> const std::string* {
        if constexpr (requires { r.imgSurt; })
          return &r.imgSurt;
        else
          return nullptr;
      },
      record);
  if (img_surt != &key) return kKeyApart;
  return 1 + (key.size() < kLongString ? 1 : 5);  // the tag byte, then the length
}

void decode(std::string_view bytes, Record& out) {
  if (bytes.empty()) throw std::runtime_error("merge codec: empty record");
  Reader io(bytes.substr(1));
  switch (bytes[0]) {
    case kCaptureTag:
      fields(io, out.emplace<ImageCapture>());
      return;
    case kRevisitTag:
      revisit_fields(io, out.emplace<ImageRevisit>());
      return;
    case kReferenceTag:
      reference_fields(io, out.emplace<PageReference>());
      return;
    case kDroppedTag:
      io.raw(out.emplace<DroppedReferences>().count);
      return;
    default:
      throw std::runtime_error("merge codec: unknown record type");
  }
}

template <typename View>
Encoded<View>::Encoded(std::string_view bytes, bool copy) : bytes_(bytes) {
  if (copy) {
    owned_.reset(new char[bytes.size()]);
    std::memcpy(owned_.get(), bytes.data(), bytes.size());
    bytes_ = {owned_.get(), bytes.size()};
  }
  read_fields();
}

template <typename View>
Encoded<View> Encoded<View>::adopt(std::unique_ptr<char[]> bytes, size_t size) {
  Encoded encoded({bytes.get(), size}, false);
  encoded.owned_ = std::move(bytes);
  return encoded;
}

template <typename View>
void Encoded<View>::read_fields() {
  View& view = *this;
  if (bytes_.empty() || bytes_[0] != tag_of(view))
    throw std::runtime_error("merge codec: not the expected record type");
  Reader io(bytes_.substr(1));
  view_fields(io, view);
  io.finish();
}

template <typename View>
Encoded<View>::Encoded(const Record& record)
    : Encoded([&record] {
        std::string bytes;
        encode(record, bytes);
        return bytes;
      }()) {}

template <typename View>
Encoded<View>& Encoded<View>::operator=(const Encoded& other) {
  if (this != &other) *this = Encoded(other);
  return *this;
}

template class Encoded<ReferenceView>;
template class Encoded<CaptureView>;
template class Encoded<RevisitView>;

EncodedCapture encode(const CaptureView& capture) {
  Sizer sizer;
  fields(sizer, capture);
  size_t size = 1 + sizer.size();
  std::unique_ptr<char[]> bytes(new char[size]);
  bytes[0] = kCaptureTag;
  Writer writer(bytes.get() + 1);
  fields(writer, capture);
  return EncodedCapture::adopt(std::move(bytes), size);
}

}  // namespace strata::merge
