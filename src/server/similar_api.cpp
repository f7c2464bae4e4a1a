#include "server/similar_api.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include "analyze/embedding.hpp"
#include "analyze/phash.hpp"
#include "analyze/thumbnail.hpp"
#include "index/document_builder.hpp"
#include "index/hash_values.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "search/request.hpp"
#include "server/api_items.hpp"
#include "server/api_params.hpp"
#include "server/similar_visual.hpp"
#include "similar/groups.hpp"

namespace strata::server {
namespace {

// near: the pHash near-duplicates; visual: those, then the visual neighbours.
enum class Mode { near, visual };

// The query image: its pHash (none: no near-duplicates are looked for), its embedding (visual
// mode), and the documents it is (left out of its own results).
struct QueryImage {
  std::optional<uint64_t> phash;
  std::optional<similar::EmbeddingCode> embedding;
  std::string digest;
  std::set<Xapian::docid> own_documents;
};

// A refusal: `parameter` names what was wrong ("digest", "body", "distance", ...).
struct Refusal {
  int status;
  std::string parameter, message;
};

Reply refuse(const Refusal& r, const ApiConfig& config) {
  Reply reply = bad_request(r.parameter, r.message, config);
  reply.status = r.status;
  return reply;
}

int parse_distance(const Params& params) {
  auto [first, end] = params.equal_range("distance");
  if (first == end) return similar::kNearDuplicateRadius;
  const std::string& v = std::prev(end)->second;
  int d = -1;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || d < 0 ||
      d > similar::kNearDuplicateRadius)
    throw Refusal{
        400, "distance",
        "distance must be an integer from 0 to " + std::to_string(similar::kNearDuplicateRadius)};
  return d;
}

Mode parse_mode(const Params& params) {
  auto [first, end] = params.equal_range("mode");
  if (first == end || std::prev(end)->second == "near") return Mode::near;
  if (std::prev(end)->second == "visual") return Mode::visual;
  throw Refusal{400, "mode", "mode must be near (pHash near-duplicates) or visual"};
}

bool usable(uint64_t phash) {
  return similar::gate(phash) == similar::Gate::ok;
}

// A flat picture's pHash matches every other flat picture: refused rather than answered in
// near mode; visual mode looks for its visual neighbours only.
void check_phash(QueryImage& q, Mode mode, const std::string& parameter) {
  if (mode == Mode::visual) {
    if (q.phash && !usable(*q.phash)) q.phash.reset();
    return;
  }
  if (!q.phash)
    throw Refusal{422, parameter, "this image has no pHash (not decodable, or not analysed yet)"};
  if (!usable(*q.phash))
    throw Refusal{422, parameter,
                  "a flat or nearly flat picture: its pHash has too little detail to compare"};
}

// The documents of `digest`: its id term (where the id is the digest) or its digest term.
std::set<Xapian::docid> documents_of(Xapian::Database& db, const std::string& digest) {
  std::set<Xapian::docid> docs;
  for (const std::string& term :
       {index::id_term(digest), std::string(index::prefix::digest) + digest})
    for (auto it = db.postlist_begin(term); it != db.postlist_end(term); ++it) docs.insert(*it);
  return docs;
}

bool is_blocked(Xapian::Database& db, Xapian::docid doc) {
  const std::string term(index::prefix::blocked);
  auto it = db.postlist_begin(term);
  if (it != db.postlist_end(term)) it.skip_to(doc);
  return it != db.postlist_end(term) && *it == doc;
}

// Blocked images are unknown here, as everywhere; with shards missing, a digest the others do
// not hold may be theirs (503).
QueryImage indexed_query(Xapian::Database& db, const Params& params, Mode mode,
                         size_t shards_missing) {
  auto [first, end] = params.equal_range("digest");
  if (first == end || std::prev(end)->second.empty())
    throw Refusal{400, "digest", "digest is required (the imgDigest of an indexed image)"};
  QueryImage q;
  q.digest = std::prev(end)->second;
  q.own_documents = documents_of(db, q.digest);
  std::erase_if(q.own_documents, [&](Xapian::docid doc) { return is_blocked(db, doc); });
  if (q.own_documents.empty() && shards_missing > 0)
    throw Refusal{
        503, "digest",
        std::to_string(shards_missing) + " shard(s) down: the image may be there; try again"};
  if (q.own_documents.empty()) throw Refusal{404, "digest", "no image with this digest"};
  for (Xapian::docid doc : q.own_documents) {
    const Xapian::Document d = db.get_document(doc);
    if (!q.phash) q.phash = index::phash_from_value(d.get_value(index::slot::phash));
    if (mode == Mode::visual && !q.embedding)  // near mode lists near-duplicates only
      q.embedding = analyze::embedding_from_bytes(d.get_value(index::slot::embedding));
  }
  check_phash(q, mode, "digest");
  if (mode == Mode::visual && !q.embedding)
    throw Refusal{422, "digest",
                  "this image has no visual embedding (not classified, or analysed before "
                  "embeddings existed: analyse it again)"};
  return q;
}

// Decoded and hashed as the analysis does (the thumbnail step's decode feeds the pHash), so an
// upload of an indexed image's bytes gets that image's pHash.
QueryImage uploaded_query(std::string_view bytes, Mode mode) {
  if (bytes.empty()) throw Refusal{400, "body", "POST the image's bytes as the request body"};
  analyze::ThumbnailOptions options;
  options.keep_animation = false;
  options.limits.max_pixels = kMaxUploadPixels;
  options.limits.max_frames = 1;
  analyze::Thumbnail thumb;
  switch (analyze::make_thumbnail(bytes, options, thumb)) {
    case analyze::DecodeStatus::ok:
      break;
    case analyze::DecodeStatus::too_large:
      throw Refusal{413, "body",
                    "the image is larger than " + std::to_string(kMaxUploadPixels) + " pixels"};
    default:
      throw Refusal{415, "body", "not an image Strata can decode (JPEG, PNG, GIF, WebP, ...)"};
  }
  QueryImage q;
  q.phash = analyze::phash_rgb(thumb.decoded.rgb.data(), thumb.decoded.width, thumb.decoded.height);
  check_phash(q, mode, "body");
  if (mode == Mode::visual && !(q.embedding = upload_embedding(thumb)))
    throw Refusal{503, "mode",
                  "visual similarity of an upload needs the NSFW model on the server "
                  "(scripts/setup-npm), and it could not run"};
  return q;
}

// One listed image: a near-duplicate (its pHash distance) or a visual neighbour (its cosine).
struct Found {
  Xapian::docid doc;
  std::optional<int> distance;
  std::optional<float> similarity;
};

// The matches a client may see (safe search, decorative images), the query's own left out:
// the near-duplicates by distance, then (visual mode) the visual neighbours by similarity.
std::vector<Found> visible_matches(const SimilarSnapshot& snapshot, const QueryImage& q,
                                   int distance, const search::SearchRequest& request) {
  std::vector<Found> out;
  VisualFilter filter{request.safe, request.show_decorative, q.own_documents};
  if (q.phash) {
    for (const auto& m : snapshot.index.all_within(*q.phash, distance)) {
      const SimilarEntry& e = snapshot.entries[m.entry];
      if (q.own_documents.count(e.doc)) continue;
      if (request.safe && !e.shown_under_safe_search) continue;
      if (e.decorative && !request.show_decorative) continue;
      out.push_back({e.doc, m.distance, std::nullopt});
      filter.excluded.insert(e.doc);
    }
  }
  if (q.embedding)
    for (const VisualNeighbour& n : visual_neighbours(snapshot, *q.embedding, filter))
      out.push_back({n.doc, std::nullopt, n.similarity});
  return out;
}

// The page's items, each with its distance; documents deleted since the snapshot are skipped.
Json page_items(Xapian::Database& db, const search::IndexParts& parts,
                const std::vector<Found>& found, const ApiRequest& req,
                const std::string& wayback) {
  Json items = Json::array();
  const size_t begin = std::min<size_t>(req.search.offset, found.size());
  const size_t end = std::min<size_t>(begin + req.search.max_items, found.size());
  for (size_t k = begin; k < end; ++k) {
    search::Hit hit;
    try {
      Xapian::Document d = db.get_document(found[k].doc);
      if (!index::read_indexed_document(parts.stored(found[k].doc), d, hit.doc, hit.moderation))
        continue;
    } catch (const Xapian::DocNotFoundError&) {
      continue;
    }
    Json item = api_item(hit, req.fields, wayback);
    if (found[k].distance) item["distance"] = *found[k].distance;
    if (found[k].similarity) item["similarity"] = std::round(*found[k].similarity * 1000) / 1000;
    items.push_back(std::move(item));
  }
  return items;
}

Reply answer(Xapian::Database& db, const search::IndexParts& parts, const SimilarSnapshot& snapshot,
             const QueryImage& q, const ApiRequest& req, int distance, Mode mode,
             const Params& params, const RequestContext& ctx, const ApiConfig& config, bool links,
             const ShardAnswer* shards) {
  const auto found = visible_matches(snapshot, q, distance, req.search);
  const unsigned offset = req.search.offset, max = req.search.max_items;
  Json j = Json::object();
  j["serviceName"] = config.service_name;
  j["linkToService"] = ctx.base + ctx.path;
  if (req.pretty) j["linkToDocumentation"] = config.documentation;
  if (links) {  // an upload cannot be repeated by a link
    uint64_t next = std::min<uint64_t>(uint64_t{offset} + max, found.size());
    j["nextPage"] = api_link(ctx, params, "offset", std::to_string(next));
    j["previousPage"] =
        api_link(ctx, params, "offset", std::to_string(offset > max ? offset - max : 0));
  }
  j["totalItems"] = found.size();
  j["offset"] = offset;
  Json query = {{"distance", distance}, {"mode", mode == Mode::visual ? "visual" : "near"}};
  if (q.phash) query["phash"] = analyze::phash_hex(*q.phash);
  if (!q.digest.empty()) query["digest"] = q.digest;
  j["query"] = query;
  Json returnability = Json::object();
  for (const auto& f : req.fields) returnability[f] = true;
  returnability["distance"] = true;
  if (mode == Mode::visual) returnability["similarity"] = true;
  j["fieldReturnability"] = returnability;
  Json items =
      page_items(db, parts, found, req,
                 config.replay_prefix.empty() ? ctx.base + "/wayback/" : config.replay_prefix);
  j["numberOfResponseItems"] = items.size();
  j["responseItems"] = std::move(items);
  if (shards) {  // as /imagesearch says it
    j["partialResults"] = !shards->missing.empty();
    j["shards"] = {{"total", shards->shards}, {"missing", shards->missing.size()}};
  }
  return api_reply(200, j, req.pretty);
}

// Parameters as /imagesearch reads them (fields, more, offset, maxItems, safeSearch,
// decorative, prettyPrint); `q` and the filters do not apply here and are refused.
ApiRequest parse_params(const Params& params, const ApiConfig& config) {
  for (const char* name : {"q", "from", "to", "type", "size", "siteSearch", "collection"})
    if (params.count(name))
      throw Refusal{400, name, std::string(name) + " does not apply to similar images"};
  try {
    return parse_api_params(params, config);
  } catch (const search::RequestError& e) {
    throw Refusal{400, e.parameter, e.what()};
  }
}

// `upload`: the uploaded bytes (POST), or null for a query by digest (GET).
Reply similar(Xapian::Database& db, const search::IndexParts& parts,
              const SimilarSnapshot& snapshot, const std::string_view* upload, const Params& params,
              const RequestContext& ctx, const ApiConfig& config, const ShardAnswer* shards) {
  try {
    const ApiRequest req = parse_params(params, config);
    const int distance = parse_distance(params);
    const Mode mode = parse_mode(params);
    const QueryImage q = upload
                             ? uploaded_query(*upload, mode)
                             : indexed_query(db, params, mode, shards ? shards->missing.size() : 0);
    return answer(db, parts, snapshot, q, req, distance, mode, params, ctx, config,
                  upload == nullptr, shards);
  } catch (const Refusal& r) {
    return refuse(r, config);
  }
}

}  // namespace

Reply similar_by_digest(Xapian::Database& db, const search::IndexParts& parts,
                        const SimilarSnapshot& snapshot, const Params& params,
                        const RequestContext& ctx, const ApiConfig& config,
                        const ShardAnswer* shards) {
  return similar(db, parts, snapshot, nullptr, params, ctx, config, shards);
}

Reply similar_by_upload(Xapian::Database& db, const search::IndexParts& parts,
                        const SimilarSnapshot& snapshot, std::string_view image_bytes,
                        const Params& params, const RequestContext& ctx, const ApiConfig& config,
                        const ShardAnswer* shards) {
  return similar(db, parts, snapshot, &image_bytes, params, ctx, config, shards);
}

}  // namespace strata::server
