#include "analyze/record.hpp"

#include "analyze/phash.hpp"

namespace strata::analyze {

SafeSearchInput safe_search_input(const AnalysisRecord& record) {
  return {record.nsfw.value(), record.detail, record.width, record.height};
}

bool visible_under_safe_search(const AnalysisRecord& record) {
  return record.nsfw && !hidden_by_safe_search(safe_search_input(record));
}

double safe_search_value(const AnalysisRecord& record) {
  return record.nsfw ? safe_search_score(safe_search_input(record)) : -1.0;
}

std::optional<similar::Image> grouping_image(const AnalysisRecord& record) {
  if (!record.phash) return std::nullopt;
  return similar::Image{record.digest, *record.phash, record.width, record.height, 0, record.pdq};
}

std::string_view digest_of_line(std::string_view line) {
  constexpr std::string_view kStart = R"({"digest":")";
  if (line.substr(0, kStart.size()) != kStart) return {};
  const size_t end = line.find_first_of("\\\"", kStart.size());
  if (end == std::string_view::npos || line[end] != '"') return {};
  return line.substr(kStart.size(), end - kStart.size());
}

Json to_json(const AnalysisRecord& r) {
  Json j;
  j["digest"] = r.digest;
  j["status"] = r.missing_bytes ? std::string("missing") : std::string(to_string(r.status));
  if (!r.loader.empty()) j["loader"] = r.loader;
  if (r.width) {
    j["width"] = r.width;
    j["height"] = r.height;
    j["frames"] = r.frames;
  }
  if (!r.thumbnail.empty()) {
    j["thumbnail"] = r.thumbnail;
    j["thumbWidth"] = r.thumb_width;
    j["thumbHeight"] = r.thumb_height;
  }
  if (r.phash) j["phash"] = phash_hex(*r.phash);
  if (r.pdq) {
    j["pdq"] = pdq_hex(*r.pdq);
    j["pdqQuality"] = r.pdq_quality;
  }
  if (r.nsfw) {
    for (size_t c = 0; c < kNsfwClasses.size(); ++c) j[kNsfwClasses[c]] = r.nsfw->p[c];
    if (r.detail) j["detail"] = *r.detail;
    j["nsfw"] = r.nsfw->nsfw();
    j["safeSearchScore"] = safe_search_value(r);
    j["safe"] = visible_under_safe_search(r);
    j["isDrawing"] = r.nsfw->is_drawing();
    j["model"] = r.model;
  }
  if (r.embedding) j["embedding"] = embedding_hex(*r.embedding);
  return j;
}

bool from_json(const Json& j, AnalysisRecord& out) {
  if (!j.is_object() || !j.contains("digest")) return false;
  out = AnalysisRecord{};
  out.digest = j.at("digest").get<std::string>();
  const std::string status = j.value("status", "corrupt");
  out.missing_bytes = status == "missing";
  for (DecodeStatus s : {DecodeStatus::ok, DecodeStatus::unsupported, DecodeStatus::too_large,
                         DecodeStatus::corrupt})
    if (status == to_string(s)) out.status = s;
  read_field(j, "loader", out.loader);
  read_field(j, "width", out.width);
  read_field(j, "height", out.height);
  read_field(j, "frames", out.frames);
  read_field(j, "thumbnail", out.thumbnail);
  read_field(j, "thumbWidth", out.thumb_width);
  read_field(j, "thumbHeight", out.thumb_height);
  if (j.contains("phash")) out.phash = phash_from_hex(j.at("phash").get<std::string>());
  if (j.contains("pdq")) out.pdq = pdq_from_hex(j.at("pdq").get<std::string>());
  read_field(j, "pdqQuality", out.pdq_quality);
  if (j.contains("porn")) {
    NsfwScores s;
    for (size_t c = 0; c < kNsfwClasses.size(); ++c) s.p[c] = j.value(kNsfwClasses[c], 0.0f);
    out.nsfw = s;
    if (j.contains("detail")) out.detail = j.at("detail").get<float>();
    read_field(j, "model", out.model);
  }
  if (const auto it = j.find("embedding"); it != j.end() && it->is_string())
    out.embedding = embedding_from_hex(it->get<std::string>());
  return true;
}

}  // namespace strata::analyze
