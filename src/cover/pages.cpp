#include "cover/pages.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <streambuf>

#include "archive/locate.hpp"
#include "core/json.hpp"
#include "core/timestamp.hpp"
#include "cover/candidates.hpp"
#include "extract/charset.hpp"
#include "similar/page_sketch.hpp"
#include "store/record_store.hpp"
#include "url/url.hpp"

namespace strata::cover {
namespace {

// One page capture, as its references describe it.
struct Page {
  std::string url, timestamp, title, host, collection;
  uint64_t length = 0;
};
using Location = std::pair<std::string, uint64_t>;  // archive file, record offset

// The last two labels of a host (as documents.cpp's `domain`).
std::string last_two_labels(const std::string& host) {
  const size_t last = host.rfind('.');
  if (last == std::string::npos || last == 0) return host;
  const size_t before = host.rfind('.', last - 1);
  return before == std::string::npos ? host : host.substr(before + 1);
}

class PageCollector {
 public:
  // One line of extraction JSONL; lines that are not JSON objects are reported.
  void add_line(std::string_view line, const std::string& file, uint64_t offset,
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

  PageItems finish(const Uses& uses) {
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
      out.pages.items.push_back(std::move(item));
      out.pages.ids.push_back(page.timestamp + "/" + page.url);
      out.pages.bytes.push_back(page.length);
    }
    return out;
  }

 private:
  // The page's main-text shingles from its archive record, or nullopt when the record cannot
  // be read again (moved archive, another record at that offset, damaged bytes).
  static std::optional<std::vector<uint64_t>> main_text_shingles(const Location& at,
                                                                 const std::string& url) {
    archive::CheckedRecord checked = archive::read_checked_record(at.first, at.second, url);
    if (!checked.reader) return std::nullopt;
    std::string body;
    if (checked.reader->read_payload(body) != archive::PayloadStatus::ok) return std::nullopt;
    const auto decoded = extract::decode_html(body, checked.reader->record().http.charset);
    return similar::page_shingles(decoded.utf8);
  }

  std::map<Location, Page> pages_;  // in location order: the result does not depend on input order
  uint64_t references_ = 0;
};

// Hands each line written to it to the collector (the record store exports to a stream).
class LineSink : public std::streambuf {
 public:
  LineSink(PageCollector& pages, ProblemLog& problems, std::string name,
           const std::function<void(uint64_t)>& progress)
      : pages_(pages), problems_(problems), name_(std::move(name)), progress_(progress) {}

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    if (c == '\n') {
      pages_.add_line(line_, name_, offset_, problems_);
      offset_ += line_.size() + 1;
      line_.clear();
      if (progress_) progress_(1);
    } else {
      line_.push_back(static_cast<char>(c));
    }
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize k = 0; k < n; ++k) overflow(traits_type::to_int_type(s[k]));
    return n;
  }

 private:
  PageCollector& pages_;
  ProblemLog& problems_;
  std::string name_, line_;
  uint64_t offset_ = 0;
  const std::function<void(uint64_t)>& progress_;
};

}  // namespace

PageItems read_record_pages(const std::vector<std::string>& inputs, const Uses& uses,
                            ProblemLog& problems, const std::function<void(uint64_t)>& progress) {
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
  return pages.finish(uses);
}

PageItems read_index_pages(const std::string& dir, const Uses& uses, ProblemLog& problems,
                           const std::function<void(uint64_t)>& progress) {
  if (!std::filesystem::exists(store::store_file(dir)))
    throw CoverError("no record store in " + dir +
                     " (an index made by strata index keeps one; index-docs does not)");
  PageCollector pages;
  try {
    store::RecordStore records(dir);
    records.select_affected(0);  // every live record
    LineSink sink(pages, problems, store::store_file(dir).string(), progress);
    std::ostream out(&sink);
    records.export_affected(out);
  } catch (const std::runtime_error& e) {
    throw CoverError(std::string("cannot read the record store: ") + e.what());
  }
  return pages.finish(uses);
}

}  // namespace strata::cover
