#include "index/document_builder.hpp"

#include <algorithm>
#include <unordered_set>

#include "analyze/embedding.hpp"
#include "core/digest.hpp"
#include "core/json.hpp"
#include "index/analysis.hpp"
#include "index/book_facts.hpp"
#include "index/capture_dates.hpp"
#include "index/decorative.hpp"
#include "index/hash_values.hpp"
#include "index/position_prior.hpp"
#include "index/schema.hpp"
#include "index/stored_form.hpp"
#include "index/stored_reader.hpp"
#include "index/timestamp_value.hpp"

namespace strata::index {
namespace {

constexpr size_t kMaxTermBytes = 240;
constexpr size_t kIdTermHexDigits = 32;
// Bytes of SHA-256 in a URL term: lookups compare the stored URL, so a rare collision costs
// one more document read (1 in ~10^12 per other URL), never a wrong answer.
constexpr size_t kUrlHashBytes = 5;

std::string lower_ascii(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string term(std::string_view prefix, std::string_view word) {
  std::string t(prefix);
  t += word;
  return t;
}

// A field's words, each counted once (wdf += field weight at its first occurrence only):
// a word repeated in the field, or in several of a merged document's captions, is the same
// evidence as one occurrence, and it no longer lengthens the document (BM25's length
// normalisation then favours no document for having been merged from more references).
// Later occurrences keep their positions, for phrases.
void index_values(Xapian::Document& xd, size_t field, const std::vector<std::string>& vals) {
  const unsigned weight = kTextFields[field].weight;
  const bool positional = kTextFields[field].positional;
  Xapian::termpos pos = 1 + static_cast<Xapian::termpos>(field) * kFieldPositions;
  const Xapian::termpos end = pos + kFieldPositions;
  std::unordered_set<std::string> counted;
  for (const std::string& value : vals) {
    for (const Token& tok : analyze(value)) {
      const unsigned wdf = counted.insert(tok.stem).second ? weight : 0;
      if (positional && pos < end)
        xd.add_posting(tok.stem, pos++, wdf);
      else if (wdf > 0)
        xd.add_term(tok.stem, wdf);
    }
    pos = std::min(end, pos + kValueGap);
  }
}

// The image URL's sort key for ties (slot::img_url): the URL after its scheme, cut to
// kTieBreakKeyBytes. A value is stored for every document, so the whole URL would cost
// ~50 bytes per document; ties past the cut fall back to document order.
std::string tie_break_key(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t from = scheme == std::string::npos ? 0 : scheme + 3;
  return url.substr(from, kTieBreakKeyBytes);
}

// The alt texts, and a site logo's site name: what its alt would say ("(logo)" says nothing).
std::vector<std::string> alt_values(const merge::ImageDocument& d) {
  std::vector<std::string> alts = d.imgAlt;
  if (std::string name = site_logo_name(d); !name.empty()) alts.push_back(std::move(name));
  return alts;
}

// A book image's authors, subjects and chapter heading, searchable beside its caption and
// title, with a page title's weight: an EPUB chapter's page title is the book's title, so its
// heading ("The Pool of Tears") is what names the chapter, as a web page's title names the
// page. Nothing for a web image.
std::vector<std::string> book_text(const merge::ImageDocument& d) {
  std::optional<BookFacts> facts = parse_book_facts(d.book);
  if (!facts) return {};
  std::vector<std::string> text = facts->author;
  text.insert(text.end(), facts->subject.begin(), facts->subject.end());
  if (!facts->chapter.empty()) text.push_back(facts->chapter);
  return text;
}

std::vector<std::string> field_values(const merge::ImageDocument& d, std::string_view name) {
  if (name == "imgTitle") return d.imgTitle;
  if (name == "imgAlt") return alt_values(d);
  if (name == "imgCaption") return d.imgCaption;
  if (name == "imgUrlTokens") return {d.imgUrlTokens};
  // A page's title and URL name its main content: chrome and logos, the same on every page of
  // the site, are not what they describe (the blog's header picture is not the post's subject).
  if (place_of(d) != Place::content) return {};
  if (name == "pageTitle") return {d.pageTitle};
  if (name == "pageUrlTokens") return {d.pageUrlTokens};
  return book_text(d);
}

void add_number(Xapian::Document& xd, Xapian::valueno slot, double v) {
  xd.add_value(slot, Xapian::sortable_serialise(v));
}

void add_values(Xapian::Document& xd, const merge::ImageDocument& d, const Moderation& m) {
  xd.add_value(slot::timestamp, pack_timestamp(d.imgCrawlTimestamp));
  add_number(xd, slot::area, static_cast<double>(d.imgWidth) * d.imgHeight);
  if (m.classified()) add_number(xd, slot::safe, m.safe);
  xd.add_value(slot::img_url, tie_break_key(d.imgUrl));
  if (m.phash) xd.add_value(slot::phash, phash_value(*m.phash));
  if (m.pdq) xd.add_value(slot::pdq, pdq_value(*m.pdq));
  if (m.embedding) xd.add_value(slot::embedding, analyze::embedding_bytes(*m.embedding));
}

void add_filter_terms(Xapian::Document& xd, const merge::ImageDocument& d, const Moderation& m) {
  xd.add_boolean_term(id_term(d.id));
  std::string sub = mime_subtype(d.imgMimeType);
  if (!sub.empty()) xd.add_boolean_term(term(prefix::mime, sub));
  std::string host = lower_ascii(d.pageHost);
  if (!host.empty() && host.size() < kMaxTermBytes) {
    xd.add_boolean_term(term(prefix::host, host));
    for (const auto& p : parent_domains(host)) xd.add_boolean_term(term(prefix::domain, p));
  }
  for (const auto& c : d.collection)
    if (!c.empty() && c.size() < kMaxTermBytes) xd.add_boolean_term(term(prefix::collection, c));
  if (m.blocked) xd.add_boolean_term(std::string(prefix::blocked));
  if (!safe_search_shows(m.safe)) xd.add_boolean_term(std::string(prefix::safe_hidden));
  if (m.drawing) xd.add_boolean_term(std::string(prefix::drawing));
  if (!decorative_reason(d).empty()) xd.add_boolean_term(std::string(prefix::decorative));
  if (place_of(d) == Place::chrome) xd.add_boolean_term(std::string(prefix::chrome));
  if (!d.imgDigest.empty() && d.imgDigest != d.id && d.imgDigest.size() < kMaxTermBytes)
    xd.add_boolean_term(term(prefix::digest, d.imgDigest));
  if (d.isInline) xd.add_boolean_term(std::string(prefix::inline_img));
  if (!d.imgUrl.empty()) xd.add_boolean_term(url_term(prefix::img_url, d.imgUrl));
  if (!d.pageUrl.empty()) xd.add_boolean_term(url_term(prefix::page_url, d.pageUrl));
  if (std::optional<BookFacts> book = parse_book_facts(d.book)) {
    xd.add_boolean_term(std::string(prefix::book));
    if (std::string code = book_language_code(book->language); !code.empty())
      xd.add_boolean_term(std::string(kBookLanguagePrefix) + code);
    if (book->year && !book_year_term(*book->year).empty())
      xd.add_boolean_term(book_year_term(*book->year));
  }
}

}  // namespace

std::string id_term(const std::string& id) {
  // A SHA-256 hex id (every compact/legacy id) is stored as the raw bytes of its first 128
  // bits: the id term is in every document's termlist and has a postlist entry of its own,
  // and 128 bits keep ids apart (a collision among 10^12 images has odds of ~10^-15).
  auto nibble = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  const bool hex64 =
      id.size() == 64 && std::all_of(id.begin(), id.end(), [&](char c) { return nibble(c) >= 0; });
  if (!hex64) return term(prefix::id, id);
  std::string raw(prefix::id);
  for (size_t i = 0; i < kIdTermHexDigits; i += 2)
    raw += static_cast<char>(nibble(id[i]) * 16 + nibble(id[i + 1]));
  return raw;
}

std::string url_term(std::string_view prefix, const std::string& url) {
  // Lookups compare the stored URL, so a short hash is enough and keeps the term small.
  Hasher sha256(DigestAlgorithm::kSha256);
  sha256.update(url);
  return term(prefix, sha256.finish().substr(0, kUrlHashBytes));
}

std::vector<std::string> parent_domains(const std::string& host) {
  std::vector<std::string> out;
  for (size_t dot = host.find('.'); dot != std::string::npos; dot = host.find('.', dot + 1))
    if (dot + 1 < host.size()) out.push_back(host.substr(dot + 1));
  return out;
}

std::string mime_subtype(const std::string& mime) {
  std::string m = lower_ascii(mime.substr(0, mime.find(';')));
  m.erase(std::remove_if(m.begin(), m.end(), [](char c) { return c == ' ' || c == '\t'; }),
          m.end());
  size_t slash = m.find('/');
  return slash == std::string::npos ? m : m.substr(slash + 1);
}

std::string document_data(const merge::ImageDocument& doc, const Moderation& m) {
  Json j = merge::to_json(doc);
  j["safe"] = m.safe;
  j["blocked"] = m.blocked;
  if (!m.analysis.empty()) j["analysis"] = m.analysis;
  if (m.drawing) j["isDrawing"] = true;
  if (!m.thumbnail.empty()) {
    j["thumbnail"] = m.thumbnail;
    j["thumbWidth"] = m.thumb_width;
    j["thumbHeight"] = m.thumb_height;
  }
  return stored_form(std::move(j)).dump();
}

namespace {

void read_moderation(const Json& j, Moderation& m) {
  read_field(j, "safe", m.safe);
  read_field(j, "blocked", m.blocked);
  read_field(j, "analysis", m.analysis);
  read_field(j, "isDrawing", m.drawing);
  read_field(j, "thumbnail", m.thumbnail);
  read_field(j, "thumbWidth", m.thumb_width);
  read_field(j, "thumbHeight", m.thumb_height);
}

}  // namespace

bool parse_document_data(const std::string& data, merge::ImageDocument& doc, Moderation& m) {
  doc.distinctPages = 0;
  if (read_stored_array(data, doc, m)) {
    merge::fill_distinct_pages(doc);
    return true;
  }
  try {
    const Json j = document_form(Json::parse(data));
    if (!merge::from_json(j, doc)) return false;
    read_moderation(j, m);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

namespace {

void read_hashes(const Xapian::Document& xd, Moderation& m) {
  m.phash = phash_from_value(xd.get_value(slot::phash));
  m.pdq = pdq_from_value(xd.get_value(slot::pdq));
}

}  // namespace

bool read_indexed_document(const StoredData& stored, const Xapian::Document& xd,
                           merge::ImageDocument& doc, Moderation& m) {
  if (!parse_document_data(stored.unpack(xd.get_data()), doc, m)) return false;
  read_hashes(xd, m);
  return true;
}

void read_slot_moderation(const Xapian::Document& xd, Moderation& m) {
  read_hashes(xd, m);
  m.embedding = analyze::embedding_from_bytes(xd.get_value(slot::embedding));
}

bool same_slot_moderation(const Moderation& a, const Moderation& b) {
  return a.phash == b.phash && a.pdq == b.pdq && a.embedding == b.embedding;
}

Xapian::Document build_document(const merge::ImageDocument& doc, const Moderation& m) {
  return build_document(doc, m, document_data(doc, m));
}

Xapian::Document document_values(const merge::ImageDocument& doc, const Moderation& m) {
  Xapian::Document xd;
  add_values(xd, doc, m);
  add_capture_dates(xd, doc);  // its terms too, unused
  return xd;
}

bool same_indexed_text(const merge::ImageDocument& a, const merge::ImageDocument& b) {
  for (const auto& field : kTextFields)
    if (field_values(a, field.name) != field_values(b, field.name)) return false;
  return true;
}

Xapian::Document build_document(const merge::ImageDocument& doc, const Moderation& m,
                                std::string data) {
  Xapian::Document xd;
  for (size_t k = 0; k < kTextFields.size(); ++k)
    index_values(xd, k, field_values(doc, kTextFields[k].name));
  add_values(xd, doc, m);
  add_filter_terms(xd, doc, m);
  add_capture_dates(xd, doc);
  xd.set_data(std::move(data));
  return xd;
}

}  // namespace strata::index
