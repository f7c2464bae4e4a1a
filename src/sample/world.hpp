#pragma once
// The planned archive: crawls, sites, pages, image URLs and the encoded images they serve.
// Everything (including every record's capture time) is decided here from the seed, before
// a byte is written, so WARC files can be written independently and in parallel.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sample/encode.hpp"
#include "sample/gzip_file.hpp"
#include "sample/words.hpp"

namespace strata::sample {

struct Options {
  uint64_t seed = 1;
  int sites = 0;        // 0 = from the scale
  int crawls = 0;       // 0 = from the scale
  int64_t images = 40;  // target number of image URLs (scale)
  bool fast = false;    // bench: reuse encodings, fast compression
  // Articles each copied as a mirror, a reprint, a print version or a rewrite (near-duplicate
  // pages, truth/page-near-duplicates.jsonl); 0 leaves the archive as it always was.
  int mirrors = 0;
};

// Parses tiny|demo|bench|<number> into options.images/fast; false if unknown.
bool apply_scale(const std::string& scale, Options& options);

struct Crawl {
  int index = 0;
  std::string collection;  // one collection per campaign
  int64_t start = 0;       // epoch seconds
  bool browsertrix = false;
};

// Bytes inserted into an encoded file at `at` (a comment that makes a pooled copy unique).
struct Marker {
  size_t at = 0;
  std::string bytes;
};

// One unique encoded file: `file` (shared by the pooled variants of one base, see
// sample/assets.hpp) with `marker` inserted. `image` describes it; its bytes are moved to
// `file`. `family` groups resized/re-encoded versions of one picture.
struct Asset {
  EncodedImage image;
  std::shared_ptr<const std::string> file;
  Marker marker;
  std::string sha256;  // hex, filled by prepare_assets()
  std::string sha1;    // base32, filled by prepare_assets()
  // `file` before and after the marker, deflated once per file by prepare_assets().
  std::shared_ptr<const std::array<Deflated, 2>> deflated;
  int family = -1;
  int topic = -1;          // topic the picture illustrates, -1 none
  uint64_t look_seed = 0;  // the picture's seed (0 for hand-made files)

  static Asset of(EncodedImage image) {
    Asset a;
    a.file = std::make_shared<const std::string>(std::move(image.bytes));
    image.bytes.clear();
    a.marker.at = a.file->size();
    a.image = std::move(image);
    return a;
  }
  size_t size() const { return file->size() + marker.bytes.size(); }
  // The file's bytes in order, without copying them.
  std::array<std::string_view, 3> pieces() const {
    std::string_view f = *file;
    return {f.substr(0, marker.at), marker.bytes, f.substr(marker.at)};
  }
};

// An image URL and what the server returns for it in each crawl.
struct ImageUrl {
  std::string url;
  std::string mime_reported;     // HTTP Content-Type
  std::vector<int> asset;        // per crawl: the asset served
  std::vector<int64_t> capture;  // per crawl: capture time, 0 = not captured then
  bool late = false;             // written to the crawl's second WARC file
  bool never = false;            // referenced but never captured
  bool skip_first = false;       // not captured in the first crawl that references it
  int site = 0;
};

enum class Structure {
  logo,        // <div><a href=/><img></a><span>SITE</span></div> -> caption SITE
  figure,      // <figure><img><figcaption>C</figcaption></figure> -> C
  div_p,       // <div><img><p>C</p></div> -> C
  table_row,   // <table><tr><td><img><td>C</tr></table> -> C
  blog_flat,   // flat container: <h2>H</h2><img><p>P</p> ... -> "H\nP"
  thumb,       // grid of <a href=full><img></a> between <h1>T</h1> and <p>F</p> -> "T\nF"
  gallery,     // <div><a href=full><img></a><span>C</span></div> -> C
  picture,     // <div><picture><source srcset=..><img></picture><p>C</p></div> -> C
  link,        // <p><a href=image>TEXT</a></p>: tag a, caption TEXT
  css,         // background-image in <style>: tag css, no text
  spacer,      // tiny gif, dropped by extraction
  inline_icon  // data: URI under 50 px, dropped by extraction
};

struct Slot {
  Structure structure = Structure::figure;
  int image = -1;                // ImageUrl index (-1 for inline icons)
  int full = -1;                 // thumb/gallery: full-size ImageUrl linked with <a>
  std::vector<std::string> alt;  // per crawl (changes model metadata edits)
  std::string title;
  std::string caption;  // the text the structure yields as caption
  std::string heading;  // blog_flat: the <h2>
  std::string srcset;   // picture: URLs never captured
};

enum class Charset { utf8, latin1, latin1_undeclared, utf8_declared_latin1, double_utf8 };

struct Page {
  std::string url;
  int site = 0;
  int kind = 0;
  Lang lang = Lang::pt;
  Charset charset = Charset::utf8;
  std::string base_href;           // non-empty: <a> hrefs are relative to it
  std::vector<std::string> title;  // per crawl
  std::vector<int64_t> time;       // per crawl, 0 = not crawled
  std::vector<Slot> slots;
  std::string h1, footer;
  std::string article;  // body text of an article (Options::mirrors), empty elsewhere
};

struct Site {
  std::string host;
  std::string name;
  Lang lang = Lang::pt;
  int kind = 0;  // 0 table90s, 1 news, 2 blog, 3 gallery, 4 modern
  int first_crawl = 0, last_crawl = 0;
  std::vector<int> pages;
  std::vector<int> orphans;  // ImageUrls captured but never referenced
};

struct World {
  Options options;
  std::vector<Crawl> crawls;
  std::vector<Site> sites;
  std::vector<Page> pages;
  std::vector<ImageUrl> images;
  std::vector<Asset> assets;
};

World build_world(const Options& options);

}  // namespace strata::sample
