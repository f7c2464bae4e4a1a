#pragma once
// Image type from magic bytes. One canonical MIME type per format (see
// docs/images-and-charsets.md): image/jpeg, image/png, image/apng, image/gif, image/webp,
// image/bmp, image/x-icon (ICO and CUR), image/tiff, image/svg+xml, image/avif, image/heic,
// image/heif (HEIF without an HEVC/AVIF brand). "" when the bytes are no image we know.
#include <string>
#include <string_view>

namespace strata::extract {

std::string sniff_image_mime(std::string_view bytes);

// True for the canonical types sniff_image_mime returns (after parameter stripping and
// lower-casing, also for common aliases such as image/jpg, image/pjpeg, image/x-png,
// image/vnd.microsoft.icon, image/x-ms-bmp, image/svg).
std::string canonical_image_mime(std::string_view reported);

}  // namespace strata::extract
