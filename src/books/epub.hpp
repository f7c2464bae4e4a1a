#pragma once
// Images of an EPUB (2 or 3): the OPF manifest's images, each with the alt text and caption
// of its first use in the spine's XHTML (<img>, SVG <image>; the caption from the web
// extractor's rules: figcaption, else the surrounding text), how many times the spine uses
// it, and the book's metadata (dc:title, dc:creator, dc:language, dc:date). The cover is the
// EPUB 3 cover-image item, else the EPUB 2 <meta name="cover"> when it names a real item.
//
// Failure contract: read_epub throws EpubError for a file that is not a readable EPUB (no
// container.xml, no OPF, malformed OPF); a spine document that is missing is skipped and
// counted in `missing_documents`.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace strata::books {

class EpubError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct EpubImage {
  std::string path;        // the ZIP member
  std::string media_type;  // from the manifest
  std::string alt, caption;
  std::string document;  // the first spine document using it, empty when none does
  int uses = 0;          // <img>/<image> in the spine referring to it
  bool cover = false;
};

struct EpubBook {
  std::string title, language, date;
  std::vector<std::string> creators;
  std::vector<EpubImage> images;  // in manifest order
  int missing_documents = 0;
};

EpubBook read_epub(const std::filesystem::path& epub);

// The bytes of a member (for writing the images out).
std::string read_epub_member(const std::filesystem::path& epub, const std::string& member);

}  // namespace strata::books
