#include "cover/pages.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include "archive/locate.hpp"
#include "core/json.hpp"
#include "core/timestamp.hpp"
#include "cover/candidates.hpp"
#include "extract/charset.hpp"
#include "similar/page_sketch.hpp"
#include "url/url.hpp"

namespace strata::cover {
namespace {

using Location = std::pair<std::string, uint64_t>;  // archive file, record offset

// The page's main-text shingles from its archive record, or nullopt when the record cannot
// be read again (moved archive, another record at that offset, damaged bytes).
std::optional<std::vector<uint64_t>> main_text_shingles(const Location& at,
                                                        const std::string& url) {
  archive::CheckedRecord checked = archive::read_checked_record(at.first, at.second, url);
  if (!checked.reader) return std::nullopt;
  std::string body;
  if (checked.reader->read_payload(body) != archive::PayloadStatus::ok) return std::nullopt;
  const auto decoded = extract::decode_html(body, checked.reader->record().http.charset);
  return similar::page_shingles(decoded.utf8);
}

}  // namespace

void PageCollector::add_line(std::string_view line, const std::string& file, uint64_t offset,
                             ProblemLog& problems) {
  if (line.empty()) return;
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    problems.report({file, offset, "bad_record", "not a JSON record"});
    return;
  }
  if (j.value("type", "") != "ref") return;  // images and revisits: not pages
  ++references_;
  const std::string archive = j.value("file", "");
  const uint64_t at = j.value("offset", uint64_t{0});
  if (archive.empty() || !j.contains("pageUrl")) {
    problems.report({file, offset, "bad_record", "a reference without its page"});
    return;
  }
  auto [it, added] = pages_.try_emplace({archive, at});
  if (!added) return;  // another image of the same page
  Page& p = it->second;
  p.url = j.value("pageUrl", "");
  p.timestamp = j.value("pageTimestamp", "");
  p.title = j.value("pageTitle", "");
  p.host = j.value("pageHost", "");
  p.collection = j.value("collection", "");
  p.length = j.value("length", uint64_t{0});
}

PageItems PageCollector::finish(const Uses& uses, ItemTexts* texts) {
  PageItems out;
  out.references = references_;
  for (const auto& [location, page] : pages_) {
    Item item;
    auto set = [&](StringAttr a, const std::string& v) {
      if (uses.strings[size_t(a)] && !v.empty()) item.set(a, v);
    };
    set(StringAttr::url, url::surt(page.url));
    set(StringAttr::page, page.url);
    set(StringAttr::host, page.host);
    set(StringAttr::domain, last_two_labels(page.host));
    if (auto epoch = timestamp_to_epoch(page.timestamp)) {
      item.set(NumberAttr::ts, static_cast<double>(*epoch));
      item.set(NumberAttr::pagets, static_cast<double>(*epoch));
    }
    if (page.length > 0) item.set(NumberAttr::bytes, static_cast<double>(page.length));
    for (TextAttr t : {TextAttr::pagetitle, TextAttr::title})
      if (uses.texts[size_t(t)])
        if (auto words = word_shingles(page.title); !words.empty()) item.set(t, std::move(words));
    if (uses.texts[size_t(TextAttr::text)]) {
      if (auto text = main_text_shingles(location, page.url))
        item.set(TextAttr::text, std::move(*text));
      else
        ++out.without_text;
    }
    if (uses.collection && !page.collection.empty()) item.collections = {page.collection};
    if (texts) texts->add(item);
    out.pages.items.push_back(std::move(item));
    out.pages.ids.push_back(page.timestamp + "/" + page.url);
    out.pages.bytes.push_back(page.length);
  }
  if (texts) texts->finish();
  return out;
}

PageItems read_record_pages(const std::vector<std::string>& inputs, const Uses& uses,
                            ProblemLog& problems, const std::function<void(uint64_t)>& progress,
                            ItemTexts* texts) {
  PageCollector pages;
  std::vector<std::filesystem::path> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(input, ec)) {
      std::vector<std::filesystem::path> parts;
      for (const auto& e : std::filesystem::directory_iterator(input, ec))
        if (e.path().extension() == ".jsonl") parts.push_back(e.path());
      std::sort(parts.begin(), parts.end());
      files.insert(files.end(), parts.begin(), parts.end());
    } else {
      files.emplace_back(input);
    }
  }
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) {
      problems.report({file.string(), 0, "unreadable", "cannot open"});
      continue;
    }
    uint64_t offset = 0;
    for (std::string line; std::getline(in, line); offset += line.size() + 1) {
      pages.add_line(line, file.string(), offset, problems);
      if (progress) progress(1);
    }
  }
  return pages.finish(uses, texts);
}

}  // namespace strata::cover
