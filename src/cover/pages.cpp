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

PageLine parse_page_line(std::string_view line, PageRef& out) {
  if (line.empty()) return PageLine::other;
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return PageLine::not_json;
  if (j.value("type", "") != "ref") return PageLine::other;  // images and revisits: not pages
  return page_from_json(j, out) ? PageLine::page : PageLine::no_page;
}

bool page_from_json(const Json& j, PageRef& p) {
  try {
    if (!j.is_object()) return false;
    p.archive = j.value("file", "");
    p.offset = j.value("offset", uint64_t{0});
    if (p.archive.empty() || !j.contains("pageUrl")) return false;
    p.url = j.value("pageUrl", "");
    p.timestamp = j.value("pageTimestamp", "");
    p.title = j.value("pageTitle", "");
    p.host = j.value("pageHost", "");
    p.collection = j.value("collection", "");
    p.length = j.value("length", uint64_t{0});
  } catch (const Json::exception&) {  // a field of the wrong type
    return false;
  }
  return true;
}

Json page_json(const PageRef& p) {
  return {{"file", p.archive},          {"offset", p.offset},
          {"pageUrl", p.url},           {"pageTimestamp", p.timestamp},
          {"pageTitle", p.title},       {"pageHost", p.host},
          {"collection", p.collection}, {"length", p.length}};
}

std::string page_id(const PageRef& page) {
  return page.timestamp + "/" + page.url;
}

std::optional<std::vector<uint64_t>> page_text(const PageRef& page) {
  archive::CheckedRecord checked =
      archive::read_checked_record(page.archive, page.offset, page.url);
  if (!checked.reader) return std::nullopt;
  std::string body;
  if (checked.reader->read_payload(body) != archive::PayloadStatus::ok) return std::nullopt;
  const auto decoded = extract::decode_html(body, checked.reader->record().http.charset);
  return similar::page_shingles(decoded.utf8);
}

Item page_item(const PageRef& page, const Uses& uses, std::optional<std::vector<uint64_t>> text) {
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
  if (uses.texts[size_t(TextAttr::text)] && text) item.set(TextAttr::text, std::move(*text));
  if (uses.collection && !page.collection.empty()) item.collections = {page.collection};
  return item;
}

void PageCollector::add_line(std::string_view line, const std::string& file, uint64_t offset,
                             ProblemLog& problems) {
  PageRef page;
  switch (parse_page_line(line, page)) {
    case PageLine::other:
      return;
    case PageLine::not_json:
      problems.report({file, offset, "bad_record", "not a JSON record"});
      return;
    case PageLine::no_page:
      ++references_;
      problems.report({file, offset, "bad_record", "a reference without its page"});
      return;
    case PageLine::page:
      ++references_;
      const std::pair<std::string, uint64_t> at{page.archive, page.offset};
      pages_.try_emplace(at, std::move(page));  // another image of the same page: kept once
      return;
  }
}

PageItems PageCollector::finish(const Uses& uses, ItemTexts* texts) {
  PageItems out;
  out.references = references_;
  for (const auto& [location, page] : pages_) {
    std::optional<std::vector<uint64_t>> text;
    if (uses.texts[size_t(TextAttr::text)] && !(text = page_text(page))) ++out.without_text;
    Item item = page_item(page, uses, std::move(text));
    if (texts) texts->add(item);
    out.pages.items.push_back(std::move(item));
    out.pages.ids.push_back(page_id(page));
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
