#pragma once
// "More like this" (docs/api.md, "GET|POST /imagesearch/similar"): the images of the index
// whose pHash lies within a Hamming distance of a query image's, nearest first, in the
// /imagesearch response format with each item's `distance`. The query image is an indexed
// one (GET ?digest=) or one uploaded as the request body (POST), decoded and hashed as
// `strata analyze` does (libvips, analyze/phash.hpp), never stored.
//
// Failure contract: never throws for any parameters or bytes (Xapian errors aside, which the
// server turns into a 500); every refusal is a JSON reply naming its parameter: 400 bad or
// missing parameter, 404 unknown digest, 413 an upload over kMaxUploadPixels, 415 bytes
// that are no decodable image, 422 a query image without a usable pHash (not analysed, not
// decodable, or flat).
#include <string_view>

#include "server/api.hpp"
#include "server/similar_index.hpp"

namespace strata::server {

// Largest decoded size of an uploaded image (a 25-megapixel photo); bigger ones get 413
// before any pixel is decoded. Its bytes are bounded by the listener (kMaxUploadBody).
inline constexpr uint64_t kMaxUploadPixels = 25'000'000;

// `parts`: what `db` combines (IndexParts(db) for one index; shards: search/index_parts.hpp,
// the snapshot of SimilarIndexCache::get(db, parts)). `shards`: over shards, how many were
// asked and which did not answer: the reply then says so as /imagesearch does
// ("partialResults", "shards"), and a digest the others do not hold is 503, not 404.
Reply similar_by_digest(Xapian::Database& db, const search::IndexParts& parts,
                        const SimilarSnapshot& snapshot, const Params& params,
                        const RequestContext& ctx, const ApiConfig& config,
                        const ShardAnswer* shards = nullptr);

Reply similar_by_upload(Xapian::Database& db, const search::IndexParts& parts,
                        const SimilarSnapshot& snapshot, std::string_view image_bytes,
                        const Params& params, const RequestContext& ctx, const ApiConfig& config,
                        const ShardAnswer* shards = nullptr);

}  // namespace strata::server
