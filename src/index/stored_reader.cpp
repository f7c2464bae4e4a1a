#include "index/stored_reader.hpp"

#include <simdjson.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "index/stored_form.hpp"
#include "url/url.hpp"

namespace strata::index {
namespace {

namespace dom = simdjson::dom;
using Value = dom::element;
using merge::ImageDocument;

// Each reader takes a value that is not null and fails (false) on one of another type,
// where nlohmann's get<T>() would convert or throw: the general path then decides.
bool read(const Value& v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out.assign(s);
  return true;
}

bool read(const Value& v, int64_t& out) {
  return !v.get_int64().get(out);
}

bool read(const Value& v, uint64_t& out) {
  return !v.get_uint64().get(out);
}

bool read(const Value& v, int& out) {
  int64_t n = 0;
  if (!read(v, n) || n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max())
    return false;
  out = static_cast<int>(n);
  return true;
}

bool read(const Value& v, bool& out) {
  return !v.get_bool().get(out);
}

bool read(const Value& v, double& out) {
  return !v.get_double().get(out);
}

bool read(const Value& v, std::vector<std::string>& out) {
  dom::array items;
  if (v.get_array().get(items)) return false;
  out.clear();
  out.reserve(items.size());
  for (Value item : items)
    if (!read(item, out.emplace_back())) return false;
  return true;
}

using Setter = bool (*)(const Value&, ImageDocument&, Moderation&);

template <auto Field>
bool document_field(const Value& v, ImageDocument& d, Moderation&) {
  return read(v, d.*Field);
}

template <auto Field>
bool moderation_field(const Value& v, ImageDocument&, Moderation& m) {
  return read(v, m.*Field);
}

// Every field merge::from_json and parse_document_data read, by name.
struct NamedSetter {
  std::string_view name;
  Setter set;
};
constexpr NamedSetter kSetters[] = {
    {"id", document_field<&ImageDocument::id>},
    {"imgDigest", document_field<&ImageDocument::imgDigest>},
    {"imgUrl", document_field<&ImageDocument::imgUrl>},
    {"imgSurt", document_field<&ImageDocument::imgSurt>},
    {"imgUrlTokens", document_field<&ImageDocument::imgUrlTokens>},
    {"imgMimeType", document_field<&ImageDocument::imgMimeType>},
    {"imgMimeTypeReported", document_field<&ImageDocument::imgMimeTypeReported>},
    {"imgWidth", document_field<&ImageDocument::imgWidth>},
    {"imgHeight", document_field<&ImageDocument::imgHeight>},
    {"imgSize", document_field<&ImageDocument::imgSize>},
    {"imgCrawlTimestamp", document_field<&ImageDocument::imgCrawlTimestamp>},
    {"imgCrawlTimestampLatest", document_field<&ImageDocument::imgCrawlTimestampLatest>},
    {"imgCaptureTimes", document_field<&ImageDocument::imgCaptureTimes>},
    {"imgFile", document_field<&ImageDocument::imgFile>},
    {"imgOffset", document_field<&ImageDocument::imgOffset>},
    {"imgLength", document_field<&ImageDocument::imgLength>},
    {"isInline", document_field<&ImageDocument::isInline>},
    {"imgTitle", document_field<&ImageDocument::imgTitle>},
    {"imgAlt", document_field<&ImageDocument::imgAlt>},
    {"imgCaption", document_field<&ImageDocument::imgCaption>},
    {"pageUrl", document_field<&ImageDocument::pageUrl>},
    {"pageTitle", document_field<&ImageDocument::pageTitle>},
    {"pageUrlTokens", document_field<&ImageDocument::pageUrlTokens>},
    {"pageHost", document_field<&ImageDocument::pageHost>},
    {"pageCrawlTimestamp", document_field<&ImageDocument::pageCrawlTimestamp>},
    {"pageFile", document_field<&ImageDocument::pageFile>},
    {"pageOffset", document_field<&ImageDocument::pageOffset>},
    {"pageLength", document_field<&ImageDocument::pageLength>},
    {"tags", document_field<&ImageDocument::tags>},
    {"imagesInOriginalPage", document_field<&ImageDocument::imagesInOriginalPage>},
    {"imageMetadataChanges", document_field<&ImageDocument::imageMetadataChanges>},
    {"pageMetadataChanges", document_field<&ImageDocument::pageMetadataChanges>},
    {"matchingImages", document_field<&ImageDocument::matchingImages>},
    {"matchingPages", document_field<&ImageDocument::matchingPages>},
    {"refsInMain", document_field<&ImageDocument::refsInMain>},
    {"refsInChrome", document_field<&ImageDocument::refsInChrome>},
    {"refsAsLogo", document_field<&ImageDocument::refsAsLogo>},
    {"collection", document_field<&ImageDocument::collection>},
    {"book", document_field<&ImageDocument::book>},
    {"distinctPages", document_field<&ImageDocument::distinctPages>},
    {"safe", moderation_field<&Moderation::safe>},
    {"blocked", moderation_field<&Moderation::blocked>},
    {"analysis", moderation_field<&Moderation::analysis>},
    {"isDrawing", moderation_field<&Moderation::drawing>},
    {"thumbnail", moderation_field<&Moderation::thumbnail>},
    {"thumbWidth", moderation_field<&Moderation::thumb_width>},
    {"thumbHeight", moderation_field<&Moderation::thumb_height>},
};

Setter setter_of(std::string_view name) {
  for (const NamedSetter& s : kSetters)
    if (s.name == name) return s.set;
  return nullptr;
}

// The setter of each array position (nullptr for a field no reader knows: general path), and
// where the URLs the derived fields follow from are.
struct Layout {
  std::vector<Setter> setters;
  size_t img_url = 0, page_url = 0;
};

const Layout& layout() {
  static const Layout table = [] {
    Layout out;
    for (std::string_view name : stored_field_names()) {
      if (name == "imgUrl") out.img_url = out.setters.size();
      if (name == "pageUrl") out.page_url = out.setters.size();
      out.setters.push_back(setter_of(name));
    }
    return out;
  }();
  return table;
}

// The fields stored_form() could not place in the array (a derived field that differs from
// what its URL gives, a field of a newer layout), by name; unknown names are ignored, as
// merge::from_json ignores them.
bool read_extra_fields(const dom::object& extra, ImageDocument& doc, Moderation& m,
                       std::vector<std::string_view>& given) {
  for (auto [name, v] : extra) {
    if (name == "type") return false;  // the general path checks it
    given.push_back(name);
    const Setter set = setter_of(name);
    if (set && !v.is_null() && !set(v, doc, m)) return false;
  }
  return true;
}

// What document_form() restores: the fields that follow from the URLs, where the URL is given
// and the field is not.
void restore_derived(ImageDocument& doc, bool has_img_url, bool has_page_url,
                     const std::vector<std::string_view>& given) {
  auto missing = [&](std::string_view name) {
    return std::find(given.begin(), given.end(), name) == given.end();
  };
  if (has_img_url && missing("imgSurt")) doc.imgSurt = url::join_surt(doc.imgUrl);
  if (has_img_url && missing("imgUrlTokens")) doc.imgUrlTokens = url::url_tokens(doc.imgUrl);
  if (has_page_url && missing("pageUrlTokens")) doc.pageUrlTokens = url::url_tokens(doc.pageUrl);
}

bool read_values(const dom::array& values, ImageDocument& doc, Moderation& m) {
  const Layout& fields = layout();
  const size_t n = fields.setters.size();
  if (values.size() > n + 1) return false;
  bool has_img_url = false, has_page_url = false;
  std::vector<std::string_view> given;  // names of the extra fields
  size_t position = 0;
  for (Value v : values) {
    if (position == n) {
      dom::object extra;
      if (v.get_object().get(extra) || !read_extra_fields(extra, doc, m, given)) return false;
    } else if (!v.is_null()) {
      const Setter set = fields.setters[position];
      if (!set || !set(v, doc, m)) return false;
      has_img_url |= position == fields.img_url;
      has_page_url |= position == fields.page_url;
    }
    ++position;
  }
  restore_derived(doc, has_img_url, has_page_url, given);
  return true;
}

}  // namespace

bool read_stored_array(std::string_view data, ImageDocument& doc, Moderation& m) {
  if (data.empty() || data.front() != '[') return false;
  thread_local dom::parser parser;
  thread_local std::string padded;  // simdjson reads SIMDJSON_PADDING bytes past the end
  padded.assign(data);
  padded.resize(data.size() + simdjson::SIMDJSON_PADDING);
  dom::array values;
  if (parser.parse(padded.data(), data.size(), false).get_array().get(values)) return false;
  return read_values(values, doc, m);
}

}  // namespace strata::index
