#include "cover/documents.hpp"

#include <algorithm>
#include <fstream>

#include "analyze/record.hpp"
#include "core/timestamp.hpp"
#include "cover/candidates.hpp"
#include "cover/item_texts.hpp"
#include "index/cover_terms.hpp"
#include "index/stored_data.hpp"
#include "similar/groups.hpp"
#include "url/url.hpp"

namespace strata::cover {
namespace {

std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += v + "\n";
  return out;
}

std::string text_of(const merge::ImageDocument& doc, TextAttr t) {
  switch (t) {
    case TextAttr::alt:
      return joined(doc.imgAlt);
    case TextAttr::title:
      return joined(doc.imgTitle);
    case TextAttr::caption:
      return joined(doc.imgCaption);
    case TextAttr::text:
      return joined(doc.imgAlt) + joined(doc.imgTitle) + joined(doc.imgCaption);
    case TextAttr::pagetitle:
      return doc.pageTitle;
    case TextAttr::count:
      break;
  }
  return "";
}

std::string string_of(const merge::ImageDocument& doc, StringAttr a) {
  switch (a) {
    case StringAttr::digest:
      return doc.imgDigest;
    case StringAttr::url:
      return doc.imgSurt.empty() ? doc.imgUrl : doc.imgSurt;
    case StringAttr::imghost:
      return url::host(doc.imgUrl);
    case StringAttr::host:
      return doc.pageHost;
    case StringAttr::domain:
      return last_two_labels(doc.pageHost);
    case StringAttr::page:
      return doc.pageUrl;
    case StringAttr::mime:
      return doc.imgMimeType;
    case StringAttr::count:
      break;
  }
  return "";
}

std::optional<double> time_of(const std::string& ts14) {
  if (auto epoch = timestamp_to_epoch(ts14)) return static_cast<double>(*epoch);
  return std::nullopt;
}

std::optional<double> number_of(const merge::ImageDocument& doc, const index::Moderation& m,
                                NumberAttr a) {
  const bool sized = doc.imgWidth > 0 && doc.imgHeight > 0;
  switch (a) {
    case NumberAttr::ts:
      return time_of(doc.imgCrawlTimestamp);
    case NumberAttr::tslast:
      return time_of(doc.imgCrawlTimestampLatest);
    case NumberAttr::pagets:
      return time_of(doc.pageCrawlTimestamp);
    case NumberAttr::width:
      return doc.imgWidth > 0 ? std::optional<double>(doc.imgWidth) : std::nullopt;
    case NumberAttr::height:
      return doc.imgHeight > 0 ? std::optional<double>(doc.imgHeight) : std::nullopt;
    case NumberAttr::area:
      return sized ? std::optional<double>(double(doc.imgWidth) * doc.imgHeight) : std::nullopt;
    case NumberAttr::bytes:
      return doc.imgSize > 0 ? std::optional<double>(double(doc.imgSize)) : std::nullopt;
    case NumberAttr::safe:
      return m.classified() ? std::optional<double>(m.safe) : std::nullopt;
    case NumberAttr::rank:  // set by the caller, over search results only
    case NumberAttr::count:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::string last_two_labels(const std::string& host) {
  const size_t last = host.rfind('.');
  if (last == std::string::npos || last == 0) return host;
  const size_t before = host.rfind('.', last - 1);
  return before == std::string::npos ? host : host.substr(before + 1);
}

Item item_from_document(const merge::ImageDocument& doc, const index::Moderation& m,
                        const Uses& uses) {
  Item item;
  for (size_t k = 0; k < uses.strings.size(); ++k)
    if (uses.strings[k])
      if (std::string v = string_of(doc, StringAttr(k)); !v.empty()) item.set(StringAttr(k), v);
  for (size_t k = 0; k < uses.numbers.size(); ++k)
    if (uses.numbers[k])
      if (auto v = number_of(doc, m, NumberAttr(k))) item.set(NumberAttr(k), *v);
  for (size_t k = 0; k < uses.texts.size(); ++k)
    if (uses.texts[k])
      if (auto shingles = word_shingles(text_of(doc, TextAttr(k))); !shingles.empty())
        item.set(TextAttr(k), std::move(shingles));
  // Flat and tiny pictures have no reliable pHash: as if they had none, so they never
  // cover or are covered by a Hamming atom (and blank images form no giant cluster).
  if (uses.phash && m.phash &&
      similar::gate(*m.phash, doc.imgWidth, doc.imgHeight) == similar::Gate::ok)
    item.phash = m.phash;
  if (uses.collection) item.collections = doc.collection;
  return item;
}

IndexItems read_index(const std::string& dir, const Uses& uses,
                      const std::function<void(uint64_t)>& progress, ItemTexts* texts) {
  IndexItems out;
  try {
    Xapian::Database db(dir);
    index::StoredData stored(db);
    uint64_t since = 0;
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      merge::ImageDocument doc;
      index::Moderation m;
      if (!index::read_indexed_document(stored, db.get_document(*it), doc, m)) {
        ++out.unreadable;
        continue;
      }
      out.items.push_back(item_from_document(doc, m, uses));
      if (texts) texts->add(out.items.back());
      out.ids.push_back(doc.id);
      out.docids.push_back(*it);
      out.bytes.push_back(doc.imgSize);
      if (progress && ++since == 1024) progress(since), since = 0;
    }
    if (progress && since) progress(since);
    if (texts) texts->finish();
  } catch (const Xapian::Error& e) {
    throw CoverError("cannot read the index " + dir + ": " + e.get_description());
  }
  return out;
}

void store_named_cover(const std::string& dir, const std::string& name,
                       std::span<const Xapian::docid> hidden, const Json& about) {
  const std::string term = index::covered_term(name);
  try {
    Xapian::WritableDatabase db(dir, Xapian::DB_OPEN);
    db.begin_transaction();
    std::vector<Xapian::docid> previous(db.postlist_begin(term), db.postlist_end(term));
    for (Xapian::docid id : previous) {
      Xapian::Document doc = db.get_document(id);
      doc.remove_term(term);
      db.replace_document(id, doc);
    }
    for (Xapian::docid id : hidden) {
      Xapian::Document doc = db.get_document(id);
      doc.add_boolean_term(term);
      db.replace_document(id, doc);
    }
    db.set_metadata(std::string(index::kMetaCoverPrefix) + name, about.dump());
    db.commit_transaction();
  } catch (const Xapian::Error& e) {
    throw CoverError("cannot store the cover in " + dir + ": " + e.get_description());
  }
}

Json named_covers(const Xapian::Database& db) {
  Json out = Json::object();
  const std::string prefix(index::kMetaCoverPrefix);
  for (auto it = db.metadata_keys_begin(prefix); it != db.metadata_keys_end(prefix); ++it) {
    Json about = Json::parse(db.get_metadata(*it), nullptr, false);
    out[(*it).substr(prefix.size())] = about.is_discarded() ? Json::object() : about;
  }
  return out;
}

std::unordered_map<std::string, uint64_t> read_phashes(const std::string& file,
                                                       ProblemLog& problems) {
  std::unordered_map<std::string, uint64_t> out;
  std::ifstream in(file);
  if (!in) problems.report({file, 0, "unreadable", "cannot open"});
  uint64_t offset = 0;
  for (std::string line; std::getline(in, line); offset += line.size() + 1) {
    analyze::AnalysisRecord record;
    const Json j = Json::parse(line, nullptr, false);
    bool ok = false;
    try {
      ok = !j.is_discarded() && analyze::from_json(j, record);
    } catch (const Json::exception&) {  // a field of the wrong type
    }
    if (!ok)
      problems.report({file, offset, "bad_analysis_record", "not an analysis record"});
    else if (record.phash)
      out.emplace(record.digest, *record.phash);
  }
  return out;
}

}  // namespace strata::cover
