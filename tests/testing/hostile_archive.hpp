#pragma once
// A small WARC of hostile captures, for the replay isolation tests (tests/server and the
// browser tests in web/tests): each one tries to run script on the service's origin and read
// the API, marking what it reached with a query word ("svgleak", "jsleak", "htmlleak").
//   http://hostile.example/          text/html, an inline script, references both images
//   http://hostile.example/evil.svg  image/svg+xml with a <script>
//   http://hostile.example/evil.js   declared text/javascript: a GIF/JavaScript polyglot
// (a valid GIF to the extractor, a valid script to a browser).
#include <filesystem>
#include <string>

#include "archive/warc_writer.hpp"

namespace strata::testing {

inline constexpr const char* kHostileTimestamp = "20080430204829";
inline constexpr const char* kHostilePage = "http://hostile.example/";
inline constexpr const char* kHostileSvg = "http://hostile.example/evil.svg";
inline constexpr const char* kHostileScript = "http://hostile.example/evil.js";

inline std::string hostile_svg() {
  return R"(<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">)"
         R"(<rect width="200" height="200" fill="red"/><script>)"
         R"(document.documentElement.setAttribute('data-ran', '1');)"
         R"(fetch('/imagesearch?q=svgleak').then(r => r.text()).then(t =>)"
         R"( document.documentElement.setAttribute('data-read', String(t.length)));)"
         R"(</script></svg>)";
}

// "GIF89a/*" opens a comment in JavaScript and is a GIF of 10799 x 200 (the comment's bytes
// are the width); the script closes the comment after the GIF's trailer.
inline std::string hostile_polyglot() {
  std::string gif("GIF89a/*\xc8\x00\x00\x00\x00", 13);
  gif += std::string("\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02\x44\x01\x00\x3b", 16);
  return gif + "*/=1;window.__strataLeak = 1; fetch('/imagesearch?q=jsleak');";
}

inline std::string hostile_page() {
  return "<!doctype html><html><head><title>hostile</title></head><body>"
         "<h1>Hostile page</h1>"
         "<img src=\"evil.svg\" alt=\"hostile vector drawing\" width=\"200\" height=\"200\">"
         "<img src=\"evil.js\" alt=\"hostile polyglot picture\" width=\"200\" height=\"200\">"
         "<script>document.title = 'ran'; fetch('/imagesearch?q=htmlleak');</script>"
         "</body></html>";
}

inline std::string http_response(const std::string& type, const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

inline void write_hostile_archive(const std::filesystem::path& out) {
  archive::WarcWriter w(out);
  w.write_response(kHostilePage, kHostileTimestamp,
                   http_response("text/html; charset=utf-8", hostile_page()));
  w.write_response(kHostileSvg, kHostileTimestamp, http_response("image/svg+xml", hostile_svg()));
  w.write_response(kHostileScript, kHostileTimestamp,
                   http_response("text/javascript", hostile_polyglot()));
}

}  // namespace strata::testing
