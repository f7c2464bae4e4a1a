#include "server/api.hpp"

#include <algorithm>

#include "analyze/pdq.hpp"
#include "analyze/phash.hpp"
#include "core/json.hpp"
#include "index/near_duplicate_groups.hpp"
#include "search/searcher.hpp"
#include "server/api_book_fields.hpp"
#include "server/api_items.hpp"
#include "server/api_params.hpp"
#include "server/url_encode.hpp"
#include "url/url.hpp"

namespace strata::server {
namespace {

std::string query_string(const Params& params, const std::string& drop) {
  std::string qs;
  for (const auto& [k, v] : params) {
    if (k == drop) continue;
    qs += (qs.empty() ? "" : "&") + url_encode(k) + "=" + url_encode(v);
  }
  return qs;
}

std::string link_with(const RequestContext& ctx, const Params& params, const std::string& name,
                      const std::string& value) {
  std::string qs = query_string(params, name);
  return ctx.base + ctx.path + "?" + qs + (qs.empty() ? "" : "&") + name + "=" + value;
}

Json item_field(const search::Hit& hit, const std::string& f, const std::string& wayback) {
  const auto& d = hit.doc;
  if (f == "imgDigest") return d.imgDigest.empty() ? d.id : d.imgDigest;
  if (f == "imgSrc") return d.imgUrl;
  if (f == "imgMimeType") return d.imgMimeType;
  if (f == "imgHeight") return d.imgHeight;
  if (f == "imgWidth") return d.imgWidth;
  if (f == "imgTstamp") return d.imgCrawlTimestamp;
  if (f == "imgTstampLatest") return d.imgCrawlTimestampLatest;
  if (f == "imgTitle") return d.imgTitle;
  if (f == "imgAlt") return d.imgAlt;
  if (f == "imgCaption") return d.imgCaption;
  if (f == "imgSurt") return url::surt(d.imgUrl);  // Arquivo's key, not the join key
  if (f == "pageURL") return d.pageUrl;
  if (f == "pageTstamp") return d.pageCrawlTimestamp;
  if (f == "pageTitle") return d.pageTitle;
  if (f == "pageHost") return d.pageHost;
  if (f == "pageImages") return d.imagesInOriginalPage;
  if (f == "collection") return d.collection;
  if (f == "matchingImages") return d.matchingImages;
  if (f == "matchingPages") return d.matchingPages;
  if (f == "distinctPages") return d.distinctPages > 0 ? d.distinctPages : d.matchingPages;
  if (f == "imageMetadataChanges") return d.imageMetadataChanges;
  if (f == "pageMetadataChanges") return d.pageMetadataChanges;
  if (f == "groupId") {
    const auto leader = index::group_leader(hit.group);
    return leader ? Json(analyze::phash_hex(*leader)) : Json();
  }
  if (f == "groupSize") return hit.group_size;
  if (f == "collapsedImages") return hit.group_matches > 1 ? hit.group_matches - 1 : 0;
  if (f == "phash")
    return hit.moderation.phash ? Json(analyze::phash_hex(*hit.moderation.phash)) : Json();
  if (f == "pdq") return hit.moderation.pdq ? Json(analyze::pdq_hex(*hit.moderation.pdq)) : Json();
  if (f == "safe") return hit.moderation.safe < 0 ? Json() : Json(1.0 - hit.moderation.safe);
  if (f == "imgLinkToArchive")
    return d.imgUrl.empty() ? Json() : Json(wayback + d.imgCrawlTimestamp + "im_/" + d.imgUrl);
  // A scanned book's page is not archived: its pageURL is the book viewer's (docs/books.md);
  // an EPUB's chapter is.
  if (f == "pageLinkToArchive")
    return d.pageUrl.empty() || !page_archived(d)
               ? Json()
               : Json(wayback + d.pageCrawlTimestamp + "/" + d.pageUrl);
  return book_field(d, f);
}

Json item(const search::Hit& hit, const std::vector<std::string>& fields,
          const std::string& wayback) {
  Json j = Json::object();
  for (const auto& f : fields) {
    Json v = item_field(hit, f, wayback);
    if (!v.is_null()) j[f] = std::move(v);
  }
  return j;
}

Json redundancy_json(const search::RedundancySummary& s) {
  return {{"expression", s.expression},
          {"window", s.window},
          {"kept", s.kept},
          {"exactComponents", s.exact_components},
          {"ilpComponents", s.ilp_components},
          {"greedyComponents", s.greedy_components},
          {"cappedResults", s.capped},
          {"greedyBound", s.greedy_bound},
          {"candidates", s.candidates}};
}

Json envelope(const ApiConfig& config, const RequestContext& ctx) {
  Json j = Json::object();
  j["serviceName"] = config.service_name;
  j["linkToService"] = ctx.base + ctx.path;
  return j;
}

Reply json_reply(int status, const Json& body, bool pretty) {
  Reply r;
  r.status = status;
  r.body = body.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
  return r;
}

}  // namespace

Reply bad_request(const std::string& parameter, const std::string& message,
                  const ApiConfig& config) {
  Json j = Json::object();
  j["error"] = {{"parameter", parameter}, {"message", message}};
  j["serviceName"] = config.service_name;
  j["totalItems"] = 0;
  j["numberOfResponseItems"] = 0;
  j["offset"] = 0;
  j["responseItems"] = Json::array();
  return json_reply(400, j, false);
}

Reply image_search(Xapian::Database& db, const Params& params, const RequestContext& ctx,
                   const ApiConfig& config) {
  const SearchRunner run = [&db](const search::SearchRequest& r, ShardAnswer&) {
    return search::search(db, r);
  };
  return image_search(run, params, ctx, config);
}

Reply image_search(const SearchRunner& run, const Params& params, const RequestContext& ctx,
                   const ApiConfig& config) {
  ApiRequest req;
  search::SearchResult res;
  ShardAnswer shards;
  try {
    req = parse_api_params(params, config);
    res = run(req.search, shards);
  } catch (const search::RequestError& e) {
    return bad_request(e.parameter, e.what(), config);
  }
  const unsigned offset = req.search.offset, max = req.search.max_items;
  const std::string wayback =
      config.replay_prefix.empty() ? ctx.base + "/wayback/" : config.replay_prefix;
  Json j = envelope(config, ctx);
  if (req.pretty) j["linkToDocumentation"] = config.documentation;
  j["linkToMoreFields"] = link_with(ctx, params, "more", "pageHost,matchingImages,safe");
  const uint64_t pages_over = res.redundancy ? res.redundancy->kept : res.total;
  uint64_t next = std::min<uint64_t>(uint64_t{offset} + max, pages_over);
  uint64_t prev = offset > max ? offset - max : 0;
  j["nextPage"] = link_with(ctx, params, "offset", std::to_string(next));
  j["previousPage"] = link_with(ctx, params, "offset", std::to_string(prev));
  j["totalItems"] = res.total;
  j["numberOfResponseItems"] = res.hits.size();
  j["offset"] = offset;
  Json returnability = Json::object();
  for (const auto& f : req.fields) returnability[f] = true;
  j["fieldReturnability"] = returnability;
  Json years = Json::object();
  for (const auto& [y, n] : res.years) years[y] = n;
  j["years"] = years;
  Json items = Json::array();
  for (const auto& hit : res.hits) {
    items.push_back(item(hit, req.fields, wayback));
    if (res.redundancy) items.back()["covers"] = hit.covers;
  }
  j["responseItems"] = std::move(items);
  if (res.redundancy) j["redundancy"] = redundancy_json(*res.redundancy);
  if (shards.shards) {
    j["partialResults"] = !shards.missing.empty();
    j["shards"] = {{"total", shards.shards}, {"missing", shards.missing.size()}};
  }
  return json_reply(200, j, req.pretty);
}

Json api_item(const search::Hit& hit, const std::vector<std::string>& fields,
              const std::string& wayback) {
  return item(hit, fields, wayback);
}

std::string api_link(const RequestContext& ctx, const Params& params, const std::string& name,
                     const std::string& value) {
  return link_with(ctx, params, name, value);
}

Reply api_reply(int status, const Json& body, bool pretty) {
  return json_reply(status, body, pretty);
}

}  // namespace strata::server
