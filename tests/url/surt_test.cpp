#include <gtest/gtest.h>

#include "url/url.hpp"

using strata::url::surt;

// The four examples of docs/arquivo-reference.md §1.6 (from Arquivo's tests/golden output).
TEST(Surt, ArquivoReferenceExamples) {
  EXPECT_EQ(surt("https://www.iol.pt/multimedia/oratvi/multimedia/imagem/id/"
                 "5b3e33f10cf2d0e0ad0062d6/1024"),
            "(pt,iol,)/multimedia/oratvi/multimedia/imagem/id/5b3e33f10cf2d0e0ad0062d6/1024");
  EXPECT_EQ(surt("https://andremourao.com/media/me-latin1ção.jpg"),
            "(com,andremourao,)/media/me-latin1%c3%a7%c3%a3o.jpg");
  EXPECT_EQ(surt("https://imagens.publico.pt/imagens.aspx/1304197?tp=UH&db=IMAGENS&type=JPG"),
            "(pt,publico,imagens,)/imagens.aspx/1304197?tp=uh&db=imagens&type=jpg");
  EXPECT_EQ(surt("http://www.dem.ist.utl.pt/Recursos%20Humanos/images/planta-nunomaia.gif"),
            "(pt,utl,ist,dem,)/recursos%20humanos/images/planta-nunomaia.gif");
}

// webarchive-commons 1.1.9 behaviours behind Arquivo's key, after its prefix stripping.
TEST(Surt, HostRootAndPorts) {
  EXPECT_EQ(surt("http://example.com"), "(com,example,");
  EXPECT_EQ(surt("http://www.archive.org:80/"), "(org,archive,");
  EXPECT_EQ(surt("archive.org:8080/x"), "(org,archive,:8080)/x");
  EXPECT_EQ(surt("example.com:0080/"), "(com,example,");
  // The scheme is gone before Heritrix sees the URL, so :443 is no default port any more.
  EXPECT_EQ(surt("https://x.com:443/a"), "(com,x,:443)/a");
  EXPECT_EQ(surt("example.com:99999/a"), "example.com:99999/a");  // URIException: raw input
}

TEST(Surt, PrefixStripping) {
  EXPECT_EQ(surt("http://ww2.example.com/"), "(com,example,");
  EXPECT_EQ(surt("http://ww3.example.com/a"), "(com,example,)/a");
  EXPECT_EQ(surt("http://www.www.example.com/"), "(com,example,www,");
  EXPECT_EQ(surt("http://www2.example.com/"), "(com,example,www2,");
  EXPECT_EQ(surt("//www.example.com/img.png"), "(com,example,)/img.png");
  EXPECT_EQ(surt("https://www.example.com/a.jpg"), "(com,example,)/a.jpg");
  // Prefix stripping is case-sensitive; Heritrix still lower-cases the scheme.
  EXPECT_EQ(surt("HTTP://WWW.X.COM/"), "(com,x,www,");
  EXPECT_EQ(surt("HTTP://Example.COM/A"), "(com,example,)/a");
}

TEST(Surt, Passthrough) {
  EXPECT_EQ(surt("data:image/png;base64,AAAA"), "data:image/png;base64,AAAA");
  EXPECT_EQ(surt("hash:0123abcd"), "hash:0123abcd");
  EXPECT_EQ(surt(""), "");
  EXPECT_EQ(surt("   "), "   ");
  EXPECT_EQ(surt("(com,example,)/"), "(com,example,)/");
  EXPECT_EQ(surt("ftp://ftp.example.com/a"), "ftp://(com,example,ftp,)/a");
}

TEST(Surt, CaseFragmentQuery) {
  EXPECT_EQ(surt("http://EXAMPLE.COM/Path/File.HTML"), "(com,example,)/path/file.html");
  EXPECT_EQ(surt("http://example.com/a#frag"), "(com,example,)/a");
  EXPECT_EQ(surt("example.com/a?b#c?d"), "(com,example,)/a?b");
  EXPECT_EQ(surt("http://example.com/a?b=2&a=1"), "(com,example,)/a?b=2&a=1");  // not sorted
  EXPECT_EQ(surt("example.com/a?"), "(com,example,)/a");  // empty query dropped
  EXPECT_EQ(surt("example.com/%7Efoo"), "(com,example,)/%7efoo");
}

TEST(Surt, Escaping) {
  EXPECT_EQ(surt("http://example.com/a b.jpg"), "(com,example,)/a%20b.jpg");
  EXPECT_EQ(surt("example.com/s?q=a b\"c"), "(com,example,)/s?q=a%20b%22c");
  EXPECT_EQ(surt("example.com/{x}"), "(com,example,)/%7bx%7d");
  EXPECT_EQ(surt("example.com/?a={x}"), "(com,example,)/?a={x}");  // QUERY_SAFE keeps {}
  EXPECT_EQ(surt("example.com/100%/x"), "(com,example,)/100%/x");  // stray % kept
  EXPECT_EQ(surt("example.com/é?q=é"), "(com,example,)/%c3%a9?q=%c3%a9");
  EXPECT_EQ(surt("http://example.com/a\xC2\xA0"
                 "b"),
            "(com,example,)/a%20b");  // NBSP
  EXPECT_EQ(surt("example.com/a<b>|c^"), "(com,example,)/a%3cb%3e|c%5e");
}

TEST(Surt, Fixups) {
  EXPECT_EQ(surt("http://example.com\\a\\b.jpg"), "(com,example,)/a/b.jpg");
  EXPECT_EQ(surt("example.com/a?x=\\y"), "(com,example,)/a?x=%5cy");
  EXPECT_EQ(surt("http://exa\tmple.com/a\nb\r"), "(com,example,)/ab");
  // No prefix matched, so "http:// example.com/x" reaches Heritrix: the space is escaped.
  EXPECT_EQ(surt(" example.com/x "), "(com,%20example,)/x");
  EXPECT_EQ(surt("http://example.com./x"), "(com,example,)/x");
  EXPECT_EQ(surt("http://example.com%20/x"), "(com,example,)/x");
  EXPECT_EQ(surt("http:////example.com/x"), "(com,example,)/x");
  EXPECT_EQ(surt("http://example.com/a/./b/../c"), "(com,example,)/a/c");
  EXPECT_EQ(surt("http://example.com/../a"), "(com,example,)/a");
  EXPECT_EQ(surt("my_host.example.com/x"), "(com,example,my_host,)/x");
}

TEST(Surt, HostForms) {
  EXPECT_EQ(surt("http://www.bücher.ch/x"), "(ch,xn--bcher-kva,)/x");
  EXPECT_EQ(surt("http://BÜCHER.ch/"), "(ch,xn--bcher-kva,");
  EXPECT_EQ(surt("xn--bcher-kva.ch/a"), "(ch,xn--bcher-kva,)/a");
  EXPECT_EQ(surt("ftp://user:Pass@example.com/x"), "ftp://(com,example,@user:pass)/x");
  EXPECT_EQ(surt("http://192.168.1.1/x"), "(192.168.1.1)/x");
  EXPECT_EQ(surt("http://192.168.1.1/"), "(192.168.1.1)/");
}

TEST(Surt, LengthLimit) {
  std::string path(2100, 'a');
  EXPECT_EQ(surt("http://www.example.com/" + path), "example.com/" + path);
  std::string fits(2000, 'a');
  EXPECT_EQ(surt("http://www.example.com/" + fits), "(com,example,)/" + fits);
}
