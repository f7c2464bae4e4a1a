#pragma once
// Server-side rewriting of archived HTML, CSS and JavaScript so that a replayed page loads
// its own resources from the archive and never from the live web (pywb's scheme:
// "{prefix}{ts}{modifier}/{absolute url}"). Every URL an attribute, srcset, inline style,
// <style> block, CSS url()/@import or meta refresh names is resolved against the document's
// base and replaced by its archive URL; the modifier says how the archive serves it (im_ an
// image, cs_ a stylesheet, js_ a script, if_ a framed page, id_ the bytes as captured, none
// a top-level page). JavaScript gets a conservative pass: only absolute http(s) URLs at the
// start of a string literal (no modifier: served by their type). Bytes outside URLs are kept as
// they are; never throws.
#include <string>
#include <string_view>

namespace strata::replay {

struct RewriteContext {
  std::string prefix = "/wayback/";  // the replay route, host-relative
  std::string timestamp;             // the served capture's 14 digits
  std::string base_url;              // the document's own URL
  // On the replay origin: classic scripts (files and inline) are also wrapped for wombat's
  // proxies (script_wrap.hpp).
  bool wrap_scripts_for_wombat = false;
};

// "{prefix}{ts}{modifier}/{url}" for an absolute http(s) URL.
std::string archive_url(const RewriteContext& ctx, std::string_view modifier,
                        std::string_view absolute_url);

// The archive URL of `reference` resolved against ctx.base_url; the reference unchanged
// when it is not a web URL (data:, javascript:, mailto:, "#frag", empty).
std::string rewrite_reference(const RewriteContext& ctx, std::string_view modifier,
                              std::string_view reference);

// HTML; `banner` is inserted right after the opening <body> tag (or in front of the
// document when it has none); `head_insert` (client-side rewriting's scripts) right after
// the opening <head> tag, or in front of the first other tag when there is none, so it
// runs before any of the page's own scripts.
std::string rewrite_html(std::string_view html, const RewriteContext& ctx,
                         std::string_view banner = {}, std::string_view head_insert = {});
std::string rewrite_css(std::string_view css, const RewriteContext& ctx);
std::string rewrite_js(std::string_view js, const RewriteContext& ctx);

}  // namespace strata::replay
