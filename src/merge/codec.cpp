#include "merge/codec.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace strata::merge {
namespace {

// A string's length takes one byte below this, else this byte and a u32 (most fields are
// short: a third less to buffer, sort and spill than with u32 lengths).
constexpr uint8_t kLongString = 255;

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  template <typename T>
  void raw(T value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void str(std::string_view s) {
    if (s.size() < kLongString) {
      out_.push_back(static_cast<char>(s.size()));
    } else {
      out_.push_back(static_cast<char>(kLongString));
      raw(static_cast<uint32_t>(s.size()));
    }
    out_.append(s);
  }

 private:
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  void raw(T& value) {
    need(sizeof value);
    std::memcpy(&value, in_.data() + pos_, sizeof value);
    pos_ += sizeof value;
  }
  void str(std::string& s) {
    std::string_view view;
    str(view);
    s.assign(view);
  }
  void str(std::string_view& s) {
    uint8_t short_size = 0;
    raw(short_size);
    uint32_t size = short_size;
    if (short_size == kLongString) raw(size);
    need(size);
    s = in_.substr(pos_, size);
    pos_ += size;
  }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  void need(size_t n) const {
    if (in_.size() - pos_ < n) throw std::runtime_error("merge codec: truncated record");
  }
  std::string_view in_;
  size_t pos_ = 0;
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
  io.raw(p.length), io.raw(p.inline_);
}

// Writer::raw takes values, Reader::raw references: adapt Writer to the shared lists.
struct ConstWriter {
  Writer& w;
  template <typename T>
  void raw(const T& v) {
    w.raw(v);
  }
  void str(std::string_view s) { w.str(s); }
};

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

}  // namespace

void encode(const Record& record, std::string& out) {
  Writer writer(out);
  ConstWriter io{writer};
  if (const auto* c = std::get_if<ImageCapture>(&record)) {
    out.push_back(kCaptureTag);
    fields(io, *c);
  } else if (const auto* r = std::get_if<ImageRevisit>(&record)) {
    out.push_back(kRevisitTag);
    revisit_fields(io, *r);
  } else if (const auto* p = std::get_if<PageReference>(&record)) {
    out.push_back(kReferenceTag);
    reference_fields(io, *p);
  } else {
    out.push_back(kDroppedTag);
    io.raw(std::get<DroppedReferences>(record).count);
  }
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
  View& view = *this;
  if (bytes_.empty() || bytes_[0] != tag_of(view))
    throw std::runtime_error("merge codec: not the expected record type");
  Reader io(bytes_.substr(1));
  view_fields(io, view);
  if (!io.at_end()) throw std::runtime_error("merge codec: trailing bytes after a record");
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
  std::string bytes(1, kCaptureTag);
  Writer writer(bytes);
  ConstWriter io{writer};
  fields(io, capture);
  return EncodedCapture(bytes);
}

}  // namespace strata::merge
