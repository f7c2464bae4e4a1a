#include "server/openapi.hpp"

#include "core/json.hpp"

namespace strata::server {

std::string openapi_json() {
  auto param = [](const char* name, const char* desc) {
    return Json{{"name", name},
                {"in", "query"},
                {"required", false},
                {"description", desc},
                {"schema", {{"type", "string"}}}};
  };
  Json params = Json::array({
      param("q",
            "words (any may match), \"phrases\", -exclusions, site: type: size: safe: collection: "
            "kind: language: pubyear: (Y, Y1-Y2, Y1- or -Y2) "
            "decorative: collapse: (Arquivo's: groupId collapses, off/imgDigest does not) "
            "redundancy:EXPR or redundancy:\"EXPR WITH SPACES\" (as the redundancy parameter, "
            "which wins) cover:NAME (as the cover parameter, which wins)"),
      param("from", "capture date lower bound: yyyy, yyyyMM, yyyyMMdd ... yyyyMMddHHmmss"),
      param("to", "capture date upper bound (inclusive), same formats"),
      param("type", "comma list of image types: jpg,png,gif,..."),
      param("size", "sm (<=65536 px2), md (<=810000), lg (>810000), all"),
      param("safeSearch",
            "on (only classified images with a safe-search score <= 0.49: calibrated thresholds "
            "over the five NSFW classes) or off; default and lock set "
            "by the operator; repeated: on if any is on"),
      param("siteSearch", "comma list of hosts (www. optional) or *.domain"),
      param("collection", "comma list of collections"),
      param("kind",
            "web (web archive images), book (scanned-book and EPUB images) or all (default); "
            "book images have the fields kind bookTitle author pubYear subject language bookPage "
            "bookPageIndex bookId bookImageUrl bookFormat (scan or epub) bookChapter (fields= "
            "or more=)"),
      param("language",
            "comma list of book languages, ISO 639 codes (en, fr; a tag such as pt-BR counts as "
            "pt): book images in any of them only; other than 2-8 letters: 400"),
      param("pubYearFrom",
            "book images published in or after this year (0-9999; not the capture date: see "
            "from); other: 400"),
      param("pubYearTo",
            "book images published in or before this year (0-9999, not before pubYearFrom); "
            "other: 400"),
      param("decorative",
            "hide (default: no spacers, bars, tiny icons, emoji) or show (every image)"),
      param("collapse",
            "on (default: one result per near-duplicate group, its largest matching image, with "
            "collapsedImages = other members matching; totalItems counts a group once) or off"),
      param("offset", "first result (default 0, at most 10000; beyond: 400)"),
      param("maxItems", "results per page (default 50, at most 200; beyond: 400)"),
      param("fields", "comma list of returned fields (replaces the default list)"),
      param("more",
            "extra fields added to the default list; besides the default fields: pageHost "
            "pageImages safe matchingImages matchingPages distinctPages (referencing pages, "
            "near-duplicate pages and one page over many crawls counted once) "
            "imageMetadataChanges "
            "pageMetadataChanges imgTstampLatest imgSurt groupId (near-duplicate group: its "
            "leader's pHash, 16 hex digits; absent when alone) groupSize (images of the group, "
            "1 when alone) collapsedImages (other members of the group matching the query, "
            "folded into this result) phash (64-bit pHash, 16 hex digits) pdq (256-bit PDQ, 64 hex "
            "digits)"),
      param("prettyPrint", "true: indented JSON"),
      param("cover", "a named cover (strata cover --name): the documents it covers are left out"),
      param("redundancy",
            "coverage expression (docs/redundancy.md), e.g. near, versions, same(url),newer: "
            "the page is taken from the minimum cover of the top redundancyWindow results, each "
            "kept result with covers = how many it covers; the response's redundancy object "
            "says how: expression window kept exactComponents ilpComponents greedyComponents "
            "greedyBound cappedResults candidates"),
      param("redundancyWindow", "results the cover is taken over (default 1000, 1-10000)"),
      param("expand",
            "with redundancy (or redundancy: in q): the results this imgDigest (document id) "
            "covers"),
  });
  // /imagesearch's, less paging and redundancy, plus format; maxItems caps the export.
  Json export_params = Json::array({param("format", "csv (default), jsonl, warc, zip, wacz"),
                                    param("maxItems",
                                          "export the first N results (default: all, at most "
                                          "the server's cap, serve --export-max)"),
                                    param("progress",
                                          "a token of the client's (16 to 64 letters, digits, - "
                                          "or _): the export's progress is then readable at "
                                          "/imagesearch/export/progress?token=")});
  for (const auto& p : params)
    if (p["name"] != "offset" && p["name"] != "maxItems" && p["name"] != "prettyPrint" &&
        p["name"].get<std::string>().rfind("redundancy", 0) != 0 && p["name"] != "expand")
      export_params.push_back(p);
  Json similar_params = Json::array({
      param("distance", "largest pHash Hamming distance, 0 to 8 (default 8)"),
      param("mode",
            "near (default): pHash near-duplicates; visual: those, then up to 100 visually "
            "similar images by CNN embedding, each with `similarity` (cosine)"),
      param("offset", "first result (default 0, at most 10000)"),
      param("maxItems", "results per page (default 50, at most 200)"),
      param("safeSearch", "on or off, as for /imagesearch"),
      param("decorative", "hide (default) or show"),
      param("fields", "comma list of returned fields (replaces the default list)"),
      param("more", "extra fields added to the default list"),
      param("prettyPrint", "true: indented JSON"),
  });
  Json by_digest = similar_params;
  by_digest.insert(by_digest.begin(), Json{{"name", "digest"},
                                           {"in", "query"},
                                           {"required", true},
                                           {"description", "imgDigest of an indexed image"},
                                           {"schema", {{"type", "string"}}}});
  const Json similar_responses = {
      {"200",
       {{"description",
         "the /imagesearch reply format; items nearest first, each with `distance`; `query` "
         "gives the query's pHash and distance"}}},
      {"400", {{"description", "invalid parameter (error.parameter names it)"}}},
      {"404", {{"description", "no image with this digest"}}},
      {"413", {{"description", "upload over 8 MiB or 25 megapixels"}}},
      {"415", {{"description", "the upload is no decodable image"}}},
      {"422",
       {{"description",
         "no usable pHash (near: not analysed, not decodable, or flat) or no embedding (visual)"}}},
      {"503",
       {{"description",
         "too many uploads at once; visual upload without the model; over shards, a "
         "digest only a shard that is down may hold"}}}};
  Json doc = {
      {"openapi", "3.0.3"},
      {"info", {{"title", "Strata ImageSearch API"}, {"version", "1.1"}}},
      {"paths",
       {{"/imagesearch",
         {{"get",
           {{"summary", "Search archived images"},
            {"parameters", params},
            {"responses",
             {{"200", {{"description", "results"}}},
              {"400", {{"description", "invalid parameter (error.parameter names it)"}}}}}}}}},
        {"/imagesearch/similar",
         {{"get",
           {{"summary", "More like this: near-duplicates of an indexed image"},
            {"parameters", by_digest},
            {"responses", similar_responses}}},
          {"post",
           {{"summary", "Search by image: near-duplicates of the uploaded image (never stored)"},
            {"parameters", similar_params},
            {"requestBody",
             {{"required", true},
              {"content",
               {{"application/octet-stream",
                 {{"schema", {{"type", "string"}, {"format", "binary"}}}}}}}}},
            {"responses", similar_responses}}}}},
        {"/imagesearch/export",
         {{"get",
           {{"summary",
             "The whole result set of a search, streamed (chunked) as a download: csv, jsonl, "
             "warc (the archived records), zip (the image files and index.csv) or wacz "
             "(docs/export.md)"},
            {"parameters", export_params},
            {"responses",
             {{"200", {{"description", "the export; an incomplete transfer if it failed"}}},
              {"400", {{"description", "invalid parameter, or a result set over the export cap"}}},
              {"503", {{"description", "too many exports at once"}}}}}}}}},
        {"/imagesearch/export/progress",
         {{"get",
           {{"summary",
             "How far an export asked for with progress=TOKEN has come: {token, images (results "
             "streamed so far), total, done}"},
            {"parameters", Json::array({param("token", "required: the export's progress token")})},
            {"responses",
             {{"200", {{"description", "the count"}}},
              {"400", {{"description", "malformed token"}}},
              {"404", {{"description", "no export with this token (or long forgotten)"}}}}}}}}},
        {"/imagesearch/summary",
         {{"get",
           {{"summary",
             "What the index holds: totalImages, from/to (capture years), collections [{name, "
             "images, from, to}] and example queries drawn from its descriptions; computed once "
             "per index revision"},
            {"parameters", Json::array({param("prettyPrint", "true: indented JSON")})},
            {"responses", {{"200", {{"description", "the summary"}}}}}}}}},
        {"/thumbnail/{target}",
         {{"get",
           {{"summary",
             "the stored WebP thumbnail: {safe|all}/{14-digit ts}/{url} (at most 200 px), or "
             "{safe|all}/2x/{ts}/{url} (at most 400 px, for high-density screens; the "
             "thumbnail where none was made); safe refuses what safe search hides"},
            {"parameters", Json::array({{{"name", "target"},
                                         {"in", "path"},
                                         {"required", true},
                                         {"schema", {{"type", "string"}}}}})},
            {"responses",
             {{"200", {{"description", "the thumbnail (a placeholder SVG before analysis)"}}},
              {"400", {{"description", "malformed target"}}},
              {"403", {{"description", "hidden by safe search"}}},
              {"404", {{"description", "no capture"}}}}}}}}},
        {"/imagesearch/healthcheck",
         {{"get", {{"responses", {{"200", {{"description", "index readable"}}}}}}}}},
        {"/cdx",
         {{"get",
           {{"summary", "pywb-compatible CDX server API over every capture (docs/replay.md)"},
            {"parameters",
             Json::array(
                 {param("url", "required; example.com/path/* = prefix, *.example.com = domain"),
                  param("matchType", "exact (default), prefix, host, domain"),
                  param("from", "4 to 14 digits, padded down"),
                  param("to", "4 to 14 digits, padded up, inclusive"),
                  param("filter", "[!][=|~]field:expression, repeatable"),
                  param("collapse", "field or field:N, repeatable"),
                  param("sort", "reverse, or closest (with closest=ts)"),
                  param("closest", "timestamp for sort=closest"),
                  param("limit", "positive integer"), param("fl", "comma list of fields"),
                  param("output", "cdxj (default), json (NDJSON), text")})},
            {"responses",
             {{"200", {{"description", "one line per capture"}}},
              {"400", {{"description", "invalid parameter (error.parameter names it)"}}}}}}}}},
        {"/wayback/{target}",
         {{"get",
           {{"summary",
             "replay {ts}{mod}/{url}, captures list */{url}, Memento TimeGate {url} and "
             "TimeMaps timemap/{link|json}/{url} (docs/replay.md)"},
            {"parameters", Json::array({{{"name", "target"},
                                         {"in", "path"},
                                         {"required", true},
                                         {"schema", {{"type", "string"}}}}})},
            {"responses",
             {{"200", {{"description", "the capture, list or TimeMap"}}},
              {"302",
               {{"description",
                 "to the capture actually served (Memento); with serve --replay-port, a page "
                 "to the same path on the replay origin"}}},
              {"400", {{"description", "malformed target or Accept-Datetime"}}},
              {"404", {{"description", "no capture"}}}}}}}}}}}};
  return doc.dump();
}

}  // namespace strata::server
