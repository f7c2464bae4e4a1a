// Server-side rewriting: every URL a page names leads into the archive, nothing else changes.
#include "replay/rewrite.hpp"

#include <gtest/gtest.h>

namespace strata::replay {
namespace {

const RewriteContext kPage{"/wayback/", "20080430204829", "http://www.archive.org/web/index.php"};

TEST(Rewrite, ArchiveUrlIsPywbsScheme) {
  EXPECT_EQ(archive_url(kPage, "im_", "http://x.org/a.png"),
            "/wayback/20080430204829im_/http://x.org/a.png");
}

TEST(Rewrite, ReferencesResolveAgainstTheBase) {
  EXPECT_EQ(rewrite_reference(kPage, "im_", "../images/logo.jpg"),
            "/wayback/20080430204829im_/http://www.archive.org/images/logo.jpg");
  EXPECT_EQ(rewrite_reference(kPage, "", "/about/"),
            "/wayback/20080430204829/http://www.archive.org/about/");
  EXPECT_EQ(rewrite_reference(kPage, "cs_", "//cdn.example/x.css"),
            "/wayback/20080430204829cs_/http://cdn.example/x.css");
  for (const char* kept : {"data:image/gif;base64,R0lG", "javascript:void(0)", "mailto:a@b.c",
                           "#top", "", "/wayback/20080430204829/http://x/"})
    EXPECT_EQ(rewrite_reference(kPage, "", kept), kept);
}

TEST(Rewrite, HtmlAttributesGetTheirModifiers) {
  std::string html = rewrite_html(
      R"(<html><head><link rel="stylesheet" href="/css/a.css"><link rel=icon href=favicon.ico>)"
      R"(<script src="https://ads.example/t.js"></script></head><body background="bg.gif">)"
      R"(<img src='images/x.png' alt="x"><a href="http://www.archive.org/about/">about</a>)"
      R"(<iframe src="/frame.html"></iframe><form action="/search.php"></form></body></html>)",
      kPage);
  const std::string ts = "/wayback/20080430204829";
  EXPECT_NE(html.find("href=\"" + ts + "cs_/http://www.archive.org/css/a.css\""),
            std::string::npos);
  EXPECT_NE(html.find("href=\"" + ts + "im_/http://www.archive.org/web/favicon.ico\""),
            std::string::npos);
  EXPECT_NE(html.find("src=\"" + ts + "js_/https://ads.example/t.js\""), std::string::npos);
  EXPECT_NE(html.find("background=\"" + ts + "im_/http://www.archive.org/web/bg.gif\""),
            std::string::npos);
  EXPECT_NE(html.find("src=\"" + ts + "im_/http://www.archive.org/web/images/x.png\" alt=\"x\""),
            std::string::npos);
  EXPECT_NE(html.find("href=\"" + ts + "/http://www.archive.org/about/\">about</a>"),
            std::string::npos);
  EXPECT_NE(html.find("src=\"" + ts + "if_/http://www.archive.org/frame.html\""),
            std::string::npos);
  EXPECT_NE(html.find("action=\"" + ts + "/http://www.archive.org/search.php\""),
            std::string::npos);
  EXPECT_EQ(html.find("=\"http"), std::string::npos) << html;
}

TEST(Rewrite, SrcsetStyleAndStyleBlocks) {
  std::string html = rewrite_html(
      R"x(<img srcset="a.png 1x, https://x.org/b.png 2x" style="background:url('c.png')">)x"
      R"x(<style>@import "s.css"; body{background:url(d.gif)}</style>)x",
      kPage);
  const std::string base = "/wayback/20080430204829im_/http://www.archive.org/web/";
  EXPECT_NE(html.find("srcset=\"" + base +
                      "a.png 1x, /wayback/20080430204829im_/https://x.org/b.png 2x\""),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("style=\"background:url('" + base + "c.png')\""), std::string::npos) << html;
  EXPECT_NE(html.find("@import \"/wayback/20080430204829cs_/http://www.archive.org/web/s.css\""),
            std::string::npos);
  EXPECT_NE(html.find("url(" + base + "d.gif)"), std::string::npos);
}

TEST(Rewrite, BaseEntitiesRefreshAndIntegrity) {
  std::string html =
      rewrite_html(R"(<base href="http://other.org/dir/"><img src="a.png?x=1&amp;y=2">)"
                   R"(<meta http-equiv="refresh" content="0; url=/next.html">)"
                   R"(<link rel="stylesheet" href="s.css" integrity="sha384-abc">)",
                   kPage);
  EXPECT_NE(html.find("src=\"/wayback/20080430204829im_/http://other.org/dir/a.png?x=1&amp;y=2\""),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("content=\"0; url=/wayback/20080430204829/http://other.org/next.html\""),
            std::string::npos);
  EXPECT_NE(html.find("_integrity=\"sha384-abc\""), std::string::npos);
}

TEST(Rewrite, BannerGoesAfterTheBodyTagAndTextIsKept) {
  const std::string page = "<!-- <img src=x> --><p>a < b</p><body class=\"c\"><p>text</p>";
  std::string html = rewrite_html(page, kPage, "<div id=banner></div>");
  EXPECT_EQ(html,
            "<!-- <img src=x> --><p>a < b</p><body class=\"c\"><div id=banner></div><p>text</p>");
  EXPECT_EQ(rewrite_html("<p>no body</p>", kPage, "<b>B</b>"), "<b>B</b><p>no body</p>");
}

TEST(Rewrite, HeadInsertComesBeforeEveryScriptOfThePage) {
  EXPECT_EQ(rewrite_html("<!doctype html><html><head><title>t</title><script>a()</script>", kPage,
                         "", "<I>"),
            "<!doctype html><html><head><I><title>t</title><script>a()</script>");
  // No <head>: in front of the first other tag; the banner still after <body>.
  EXPECT_EQ(rewrite_html("<html><script>a()</script><body>x", kPage, "<B>", "<I>"),
            "<html><I><script>a()</script><body><B>x");
  EXPECT_EQ(rewrite_html("<HEAD lang=en><p>x", kPage, "", "<I>"), "<HEAD lang=en><I><p>x");
  EXPECT_EQ(rewrite_html("plain text", kPage, "", "<I>"), "<I>plain text");
  EXPECT_EQ(rewrite_html("<head>", kPage), "<head>");
}

TEST(Rewrite, CssAndScripts) {
  const RewriteContext css{"/wayback/", "20080430204829", "http://x.org/css/site.css"};
  EXPECT_EQ(rewrite_css("a{background:url( \"../i/a.png\" )} @import url(more.css);", css),
            "a{background:url( \"/wayback/20080430204829im_/http://x.org/i/a.png\" )} "
            "@import url(/wayback/20080430204829cs_/http://x.org/css/more.css);");
  EXPECT_EQ(
      rewrite_js(R"(var a = "http://x.org/a.js", b = 'https:\/\/y.org\/', c = x + "http";)", css),
      R"(var a = "/wayback/20080430204829/http://x.org/a.js", )"
      R"(b = '\/wayback\/20080430204829\/https:\/\/y.org\/', c = x + "http";)");
}

TEST(Rewrite, UnclosedMarkupNeverLosesBytes) {
  for (std::string_view s : {"<img src=\"a.png", "<", "<a href='x'", "<!-- open", "<style>a{"}) {
    std::string out = rewrite_html(s, kPage);
    EXPECT_GE(out.size(), s.size()) << s;
  }
}

}  // namespace
}  // namespace strata::replay
