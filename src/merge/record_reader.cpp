#include "merge/record_reader.hpp"

#include <simdjson.h>

#include <climits>
#include <cstring>
#include <type_traits>
#include <variant>
#include <vector>

#include "extract/record_fields.hpp"

namespace strata::merge {
namespace {

namespace dom = simdjson::dom;
using extract::RecordFields;

// A record's fields as (JSON key, member), in the order extraction writes them.
template <typename R>
struct FieldTable {
  using Member = std::variant<std::string R::*, uint64_t R::*, int R::*, bool R::*>;
  struct Entry {
    std::string_view key;
    Member member;
  };
  std::vector<Entry> entries;

  FieldTable() {
    RecordFields<R>::visit([this](const char* key, auto member) {
      entries.push_back({key, Member(member)});
    });
  }
  // The entry of `key`: the one after `next` when the line keeps extraction's order (one
  // comparison), else found by a scan; nullptr for a key the record does not have (ignored,
  // as nlohmann's reader ignores it).
  const Entry* find(std::string_view key, size_t& next) const {
    if (next < entries.size() && entries[next].key == key) return &entries[next++];
    for (size_t i = 0; i < entries.size(); ++i)
      if (entries[i].key == key) return next = i + 1, &entries[i];
    return nullptr;
  }
};

template <typename R>
const FieldTable<R>& table() {
  static const FieldTable<R> fields;
  return fields;
}

// `out` holding an R with every field at its default, its strings' memory kept.
template <typename R>
R& fresh(Record& out) {
  auto* r = std::get_if<R>(&out);
  if (!r) return out.emplace<R>();
  RecordFields<R>::visit([r](const char*, auto member) {
    auto& field = r->*member;
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>)
      field.clear();
    else
      field = {};
  });
  return *r;
}

// Sets one field from its JSON value as nlohmann's read_field would (null: the default);
// false for a value of another JSON type or out of the field's range, which nlohmann's
// conversions would handle (the line goes to it).
template <typename R>
bool set_field(R& r, const typename FieldTable<R>::Member& member, dom::element value) {
  return std::visit(
      [&](auto m) {
        auto& field = r.*m;
        using T = std::decay_t<decltype(field)>;
        if (value.is_null()) return field = T{}, true;
        if constexpr (std::is_same_v<T, std::string>) {
          std::string_view text;
          if (value.get_string().get(text)) return false;
          field.assign(text);
        } else if constexpr (std::is_same_v<T, bool>) {
          if (value.get_bool().get(field)) return false;
        } else if constexpr (std::is_same_v<T, uint64_t>) {
          if (value.get_uint64().get(field)) return false;
        } else {
          int64_t number;
          if (value.get_int64().get(number) || number < INT_MIN || number > INT_MAX) return false;
          field = static_cast<int>(number);
        }
        return true;
      },
      member);
}

// The fields after "type" into a fresh R; false when nlohmann must read the line.
template <typename R>
bool read_fields(dom::object::iterator at, dom::object::iterator end, Record& out) {
  const FieldTable<R>& fields = table<R>();
  R& r = fresh<R>(out);
  size_t next = 0;
  for (; at != end; ++at) {
    std::string_view key = at.key();
    if (key == "type") return false;  // a second "type": nlohmann keeps the last
    const auto* entry = fields.find(key, next);
    if (entry && !set_field(r, entry->member, at.value())) return false;
  }
  return true;
}

}  // namespace

struct RecordReader::Parser {
  dom::parser dom;
  std::vector<char> padded;  // the line, then SIMDJSON_PADDING bytes simdjson may read

  // The record of a line that starts with its "type" as extraction writes it; false when
  // nlohmann must read the line.
  bool read(std::string_view line, Record& out) {
    if (padded.size() < line.size() + simdjson::SIMDJSON_PADDING)
      padded.resize(line.size() + simdjson::SIMDJSON_PADDING);
    std::memcpy(padded.data(), line.data(), line.size());
    dom::element element;
    dom::object object;
    if (dom.parse(padded.data(), line.size(), false).get(element) ||
        element.get_object().get(object))
      return false;
    auto at = object.begin();
    std::string_view type;
    if (at == object.end() || at.key() != "type" || at.value().get_string().get(type)) return false;
    ++at;
    if (type == RecordFields<ImageCapture>::kType)
      return read_fields<ImageCapture>(at, object.end(), out);
    if (type == RecordFields<PageReference>::kType)
      return read_fields<PageReference>(at, object.end(), out);
    if (type == RecordFields<ImageRevisit>::kType)
      return read_fields<ImageRevisit>(at, object.end(), out);
    return false;
  }
};

RecordReader::RecordReader() : parser_(std::make_unique<Parser>()) {}
RecordReader::~RecordReader() = default;

RecordReader::Result RecordReader::read(std::string_view line, Record& out) {
  if (parser_->read(line, out)) return Result::record;
  try {
    return record_from_json(Json::parse(line), out) ? Result::record : Result::not_record;
  } catch (const Json::exception& e) {
    error_ = e.what();
    return Result::malformed;
  }
}

}  // namespace strata::merge
