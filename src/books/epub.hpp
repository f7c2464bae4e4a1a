#pragma once
// Images of an EPUB (2 or 3): the OPF manifest's images, each with the alt text and caption
// of its first use in the spine's XHTML (<img>, SVG <image>; the caption from the web
// extractor's rules: figcaption, else the surrounding text), how many times the spine uses
// it, and the book's metadata (dc:identifier, dc:title, dc:creator, dc:subject, dc:language,
// dc:date, dcterms:modified). The cover is the EPUB 3 cover-image item, else the EPUB 2
// <meta name="cover"> when it names a real item. The manifest's other items are listed too,
// with each spine document's heading, for `strata books warc` (books/epub_warc.hpp).
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
  int img_uses = 0;      // of which <img> (the web extractor's references; SVG <image> is not)
  bool cover = false;
};

// A manifest item (any type) in manifest order; spine documents have their 1-based place in
// the spine and their heading (the first h1-h3, else <title>).
struct EpubItem {
  std::string path, media_type;
  int spine_index = 0;  // 0: not in the spine
  std::string heading;
};

struct EpubBook {
  std::string identifier;  // the package's unique-identifier, else the first dc:identifier
  std::string title, language, date, modified;
  std::vector<std::string> creators, subjects;
  std::vector<EpubImage> images;  // in manifest order
  std::vector<EpubItem> items;    // every manifest item, in manifest order
  int missing_documents = 0;
};

EpubBook read_epub(const std::filesystem::path& epub);

// The bytes of a member (for writing the images out).
std::string read_epub_member(const std::filesystem::path& epub, const std::string& member);

}  // namespace strata::books
