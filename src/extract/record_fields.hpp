#pragma once
// Each extraction record's JSON fields in the order written, as (key, member pointer) pairs
// given to a visitor: the one list the JSON lines are written from (records.cpp) and read
// back with (records.cpp through nlohmann, merge/record_reader.cpp through simdjson).
// RecordFields<R>::kType is the record's "type" value, always written first.
#include <string_view>
#include <type_traits>

#include "extract/records.hpp"

namespace strata::extract {

template <typename Record>
struct RecordFields;

namespace detail {
// The fields an image capture and a revisit share, in the same order.
template <typename Record, typename Field>
void where_captured(Field&& field) {
  field("imgSurt", &Record::imgSurt);
  field("imgUrl", &Record::imgUrl);
  field("timestamp", &Record::timestamp);
  field("collection", &Record::collection);
  field("file", &Record::file);
  field("offset", &Record::offset);
  field("length", &Record::length);
}
}  // namespace detail

template <>
struct RecordFields<ImageCapture> {
  static constexpr char kType[] = "image";
  template <typename Field>
  static void visit(Field&& field) {
    using R = ImageCapture;
    detail::where_captured<R>(field);
    field("recordType", &R::recordType);
    field("status", &R::status);
    field("mimeReported", &R::mimeReported);
    field("mimeDetected", &R::mimeDetected);
    field("width", &R::width);
    field("height", &R::height);
    field("digest", &R::digest);
    field("size", &R::size);
    field("warcDigest", &R::warcDigest);
    field("inline", &R::inline_);
  }
};

template <typename Text>
struct RecordFields<BasicImageRevisit<Text>> {
  static constexpr char kType[] = "revisit";
  template <typename Field>
  static void visit(Field&& field) {
    using R = BasicImageRevisit<Text>;
    detail::where_captured<R>(field);
    field("warcDigest", &R::warcDigest);
    field("refersToUrl", &R::refersToUrl);
    field("refersToSurt", &R::refersToSurt);
    field("refersToDate", &R::refersToDate);
    field("mimeReported", &R::mimeReported);
  }
};

template <typename Text>
struct RecordFields<BasicPageReference<Text>> {
  static constexpr char kType[] = "ref";
  template <typename Field>
  static void visit(Field&& field) {
    using R = BasicPageReference<Text>;
    field("imgSurt", &R::imgSurt);
    field("imgUrl", &R::imgUrl);
    field("imgUrlTokens", &R::imgUrlTokens);
    field("imgAlt", &R::imgAlt);
    field("imgTitle", &R::imgTitle);
    field("imgCaption", &R::imgCaption);
    field("tag", &R::tag);
    field("pageUrl", &R::pageUrl);
    field("pageTimestamp", &R::pageTimestamp);
    field("pageTitle", &R::pageTitle);
    field("pageUrlTokens", &R::pageUrlTokens);
    field("pageHost", &R::pageHost);
    field("imagesInPage", &R::imagesInPage);
    field("collection", &R::collection);
    field("file", &R::file);
    field("offset", &R::offset);
    field("length", &R::length);
    field("inline", &R::inline_);
    field("position", &R::position);
    field(kBook, &R::book);
    field(kPageSketch, &R::pageSketch);
  }
  // Written only when not empty, so that web references stay as they were (and references
  // of pages without text carry no sketch).
  static constexpr char kBook[] = "book";
  static constexpr char kPageSketch[] = "pageSketch";
};

// Whether the line writers leave the field out: an empty optional field.
template <typename Value>
bool omitted_when_written(const char* key, const Value& value) {
  if constexpr (std::is_convertible_v<const Value&, std::string_view>)
    return std::string_view(value).empty() &&
           (std::string_view(key) == RecordFields<PageReference>::kBook ||
            std::string_view(key) == RecordFields<PageReference>::kPageSketch);
  else
    return false;
}

}  // namespace strata::extract
