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
            "decorative: collapse: (Arquivo's: groupId collapses, off/imgDigest does not)"),
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
            "pageImages safe matchingImages matchingPages imageMetadataChanges "
            "pageMetadataChanges imgTstampLatest imgSurt groupId (near-duplicate group: its "
            "leader's pHash, 16 hex digits; absent when alone) groupSize (images of the group, "
            "1 when alone) collapsedImages (other members of the group matching the query, "
            "folded into this result) phash (64-bit pHash, 16 hex digits)"),
      param("prettyPrint", "true: indented JSON"),
  });
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
        {"/imagesearch/healthcheck",
         {{"get", {{"responses", {{"200", {{"description", "index readable"}}}}}}}}}}}};
  return doc.dump();
}

}  // namespace strata::server
