#include <gtest/gtest.h>

#include "url/url.hpp"

using strata::url::resolve;

TEST(Resolve, RelativeForms) {
  const std::string base = "http://a.com/b/c.html?x=1";
  EXPECT_EQ(resolve(base, "d.jpg"), "http://a.com/b/d.jpg");
  EXPECT_EQ(resolve(base, "./d.jpg"), "http://a.com/b/d.jpg");
  EXPECT_EQ(resolve(base, "../d.jpg"), "http://a.com/d.jpg");
  EXPECT_EQ(resolve(base, "../../../../x"), "http://a.com/x");
  EXPECT_EQ(resolve(base, "/i.png"), "http://a.com/i.png");
  EXPECT_EQ(resolve(base, "?y=2"), "http://a.com/b/c.html?y=2");
  EXPECT_EQ(resolve(base, "#top"), "http://a.com/b/c.html?x=1#top");
  EXPECT_EQ(resolve(base, ""), "http://a.com/b/c.html?x=1");
  EXPECT_EQ(resolve("https://a.com/b/", "//cdn.b.com/i.png"), "https://cdn.b.com/i.png");
  EXPECT_EQ(resolve("http://a.com", "./x.png"), "http://a.com/x.png");
  EXPECT_EQ(resolve("http://a.com", "?q"), "http://a.com/?q");
}

TEST(Resolve, BrowserFixups) {
  EXPECT_EQ(resolve("http://a.com/b/", "  i.png \n"), "http://a.com/b/i.png");
  EXPECT_EQ(resolve("http://a.com/b/", "im\ng.png"), "http://a.com/b/img.png");
  EXPECT_EQ(resolve("http://a.com/b/", "img\\x.png"), "http://a.com/b/img/x.png");
  EXPECT_EQ(resolve("http://a.com/b/c", "http:d.png"), "http://a.com/b/d.png");
  EXPECT_EQ(resolve("http://a.com/b/", "HTTP://B.COM"), "http://b.com/");
  EXPECT_EQ(resolve("http://a.com:80/b", "c"), "http://a.com/c");
  EXPECT_EQ(resolve("http://a.com/", "https:\\\\b.com\\x"), "https://b.com/x");
}

TEST(Resolve, AbsoluteAndFailures) {
  EXPECT_EQ(resolve("http://a.com/", "data:image/png;base64,xx"), "data:image/png;base64,xx");
  EXPECT_EQ(resolve("not a url", "http://x.com/i.png"), "http://x.com/i.png");
  EXPECT_EQ(resolve("not a url", "i.png"), std::nullopt);
  EXPECT_EQ(resolve("", "i.png"), std::nullopt);
  EXPECT_EQ(resolve("http://a.com/b", "http://"), std::nullopt);
}

TEST(UrlQueries, Host) {
  using strata::url::host;
  EXPECT_EQ(host("http://WWW.Example.COM:8080/x"), "www.example.com");
  EXPECT_EQ(host("//cdn.x.com/a"), "cdn.x.com");
  EXPECT_EQ(host("x.com/a"), "x.com");
  EXPECT_EQ(host("http://user@Ex.com./"), "ex.com");
  EXPECT_EQ(host("data:image/png;base64,xx"), "");
  EXPECT_EQ(strata::url::page_host("https://WWW.Publico.PT/a"), "www.publico.pt");
}

TEST(UrlQueries, ImageExtension) {
  using strata::url::has_image_extension;
  EXPECT_TRUE(has_image_extension("http://x/a.JPG?x=1"));
  EXPECT_TRUE(has_image_extension("http://x/a.png#f"));
  EXPECT_TRUE(has_image_extension("http://x/a.avif"));
  EXPECT_TRUE(has_image_extension("http://x/a.b.tiff"));
  EXPECT_FALSE(has_image_extension("http://x/a.jpg.html"));
  EXPECT_FALSE(has_image_extension("http://x/jpg"));
  EXPECT_FALSE(has_image_extension("http://x/dir.png/"));
  EXPECT_FALSE(has_image_extension("http://x/page?img=a.png"));
}

TEST(UrlQueries, LengthLimit) {
  EXPECT_TRUE(strata::url::within_length_limit(std::string(10000, 'a')));
  EXPECT_FALSE(strata::url::within_length_limit(std::string(10001, 'a')));
}

TEST(Tokens, ImproveOnArquivo) {
  using strata::url::url_tokens;
  EXPECT_EQ(url_tokens("http://www.dem.ist.utl.pt/Recursos%20Humanos/images/planta-nunomaia.gif"),
            "dem ist utl pt Recursos Humanos images planta nunomaia gif");
  EXPECT_EQ(url_tokens("https://andremourao.com/media/me-latin1%C3%A7%C3%A3o.jpg"),
            "andremourao com media me latin1ção jpg");
  EXPECT_EQ(url_tokens("https://andremourao.com/media/me-latin1ção.jpg"),
            "andremourao com media me latin1ção jpg");
  EXPECT_EQ(url_tokens("http://x.pt/caf%E9.jpg"), "x pt caf E9 jpg");  // invalid UTF-8 kept
  EXPECT_EQ(url_tokens("http://x.pt/a__b--c//d?e=f&g"), "x pt a b c d e f g");
  EXPECT_EQ(url_tokens("//WWW.x.pt/a%2Fb"), "x pt a b");
  EXPECT_EQ(url_tokens("http://x.pt/«olá»—mundo"), "x pt olá mundo");
  EXPECT_EQ(url_tokens("hash:abc"), "");
  EXPECT_EQ(url_tokens("data:image/png;base64,xx"), "");
  EXPECT_EQ(url_tokens(""), "");
}
