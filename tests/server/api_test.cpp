#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "analyze/pdq.hpp"
#include "core/json.hpp"
#include "index/writer.hpp"
#include "sample_docs.hpp"
#include "server/server.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

using testing::classified_safe;

const std::string kPdq = "7c744d5ce9c82d4ec65e6b138dd63b9699966644a360e1e1b165da19b6295c4b";
using testing::doc;

class Api : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(strata::testing::scratch_dir() / "index");
    {
      index::IndexWriter w(*dir_);
      w.set_moderate([](const merge::ImageDocument& d, index::Moderation& m) {
        classified_safe(d, m);
        if (d.id == "aaa") m.pdq = analyze::pdq_from_hex(kPdq);
      });
      w.add(doc("aaa", "20200316144708", "Ípsilon"));
      w.add(doc("bbb", "20100101000000", "publico logo"));
      w.add(doc("ccc", "20150101000000", "outra imagem"));
    }
    ServerOptions o;
    o.index_dir = *dir_;
    o.port = 0;
    server_ = new Server(o);
    ASSERT_TRUE(server_->bind());
    thread_ = new std::thread([] { server_->run(); });
  }
  static void TearDownTestSuite() {
    server_->stop();
    thread_->join();
    delete thread_;
    delete server_;
    delete dir_;
  }
  httplib::Result get(const std::string& path) {
    httplib::Client c("127.0.0.1", server_->port());
    return c.Get(path.c_str());
  }
  Json json(const std::string& path, int status = 200) {
    auto r = get(path);
    EXPECT_TRUE(r);
    if (!r) return Json();
    EXPECT_EQ(r->status, status) << path << " " << r->body;
    return Json::parse(r->body);
  }
  std::vector<std::string> digests(const std::string& path) {
    std::vector<std::string> out;
    Json j = json(path);
    for (const auto& i : j["responseItems"]) out.push_back(i["imgDigest"]);
    return out;
  }
  void expect_400(const std::string& path, const std::string& param) {
    Json j = json(path, 400);
    EXPECT_EQ(j["error"]["parameter"], param) << path;
    EXPECT_EQ(j["responseItems"], Json::array());
  }
  static std::filesystem::path* dir_;
  static Server* server_;
  static std::thread* thread_;
};
std::filesystem::path* Api::dir_ = nullptr;
Server* Api::server_ = nullptr;
std::thread* Api::thread_ = nullptr;

using V = std::vector<std::string>;

TEST_F(Api, ResponseShapeAndV1Fields) {
  auto r = get("/imagesearch?q=ipsilon&maxItems=1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json; charset=UTF-8");
  Json j = Json::parse(r->body);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (V{"serviceName", "linkToService", "linkToMoreFields", "nextPage", "previousPage",
                     "totalItems", "numberOfResponseItems", "offset", "fieldReturnability", "years",
                     "responseItems"}));
  EXPECT_EQ(j["totalItems"], 1);
  EXPECT_EQ(j["numberOfResponseItems"], 1);
  EXPECT_EQ(j["offset"], 0);
  std::string base = "http://127.0.0.1:" + std::to_string(server_->port());
  EXPECT_EQ(j["nextPage"], base + "/imagesearch?maxItems=1&q=ipsilon&offset=1");
  EXPECT_EQ(j["previousPage"], base + "/imagesearch?maxItems=1&q=ipsilon&offset=0");
  EXPECT_EQ(j["years"], (Json{{"2020", 1}}));
  const Json& i = j["responseItems"][0];
  EXPECT_EQ(i["imgDigest"], "aaa");
  EXPECT_EQ(i["imgSrc"], "https://imagens.publico.pt/aaa.png?tp=UH");
  EXPECT_EQ(i["imgMimeType"], "image/png");
  EXPECT_EQ(i["imgWidth"], 580);
  EXPECT_EQ(i["imgHeight"], 69);
  EXPECT_EQ(i["imgTstamp"], "20200316144708");
  EXPECT_EQ(i["imgAlt"], (Json{"Ípsilon"}));
  EXPECT_EQ(i["imgCaption"], (Json{"Mais artigos"}));
  EXPECT_EQ(i["imgTitle"], Json::array());
  EXPECT_EQ(i["pageURL"], "https://www.publico.pt/");
  EXPECT_EQ(i["pageTstamp"], "20200316144708");
  EXPECT_EQ(i["pageTitle"], "PÚBLICO — Pense bem");
  EXPECT_EQ(i["collection"], (Json{"Teste"}));
  EXPECT_EQ(i["imgLinkToArchive"],
            base + "/wayback/20200316144708im_/https://imagens.publico.pt/aaa.png?tp=UH");
  EXPECT_EQ(i["pageLinkToArchive"], base + "/wayback/20200316144708/https://www.publico.pt/");
  EXPECT_EQ(i.size(), 15u);
  EXPECT_EQ(j["fieldReturnability"].size(), 15u);
}

TEST_F(Api, DefaultsEmptyQueryListsAllOldestFirst) {
  EXPECT_EQ(digests("/imagesearch"), (V{"bbb", "ccc", "aaa"}));
  EXPECT_EQ(digests("/imagesearch?q="), (V{"bbb", "ccc", "aaa"}));
}

TEST_F(Api, EveryParameter) {
  // bbb matches both words; aaa beats ccc on pageTitle only through its shorter document
  EXPECT_EQ(digests("/imagesearch?q=publico%20logo"), (V{"bbb", "aaa", "ccc"}));
  EXPECT_EQ(digests("/imagesearch?from=2015"), (V{"ccc", "aaa"}));
  EXPECT_EQ(digests("/imagesearch?to=20150101"), (V{"bbb", "ccc"}));
  EXPECT_EQ(digests("/imagesearch?from=20120101&to=20191231235959"), (V{"ccc"}));
  EXPECT_EQ(digests("/imagesearch?type=png"), (V{"bbb", "ccc", "aaa"}));
  EXPECT_EQ(digests("/imagesearch?type=jpg,gif"), V{});
  EXPECT_EQ(digests("/imagesearch?size=sm"), (V{"bbb", "ccc", "aaa"}));
  EXPECT_EQ(digests("/imagesearch?size=lg"), V{});
  EXPECT_EQ(digests("/imagesearch?size=all"), (V{"bbb", "ccc", "aaa"}));
  EXPECT_EQ(digests("/imagesearch?safeSearch=off").size(), 3u);
  EXPECT_EQ(digests("/imagesearch?siteSearch=publico.pt").size(), 3u);
  EXPECT_EQ(digests("/imagesearch?siteSearch=*.publico.pt").size(), 3u);
  EXPECT_EQ(digests("/imagesearch?siteSearch=sapo.pt"), V{});
  EXPECT_EQ(digests("/imagesearch?collection=Teste").size(), 3u);
  EXPECT_EQ(digests("/imagesearch?collection=Outra"), V{});
  EXPECT_EQ(digests("/imagesearch?decorative=show").size(), 3u);
  EXPECT_EQ(digests("/imagesearch?decorative=hide").size(), 3u);
  EXPECT_EQ(digests("/imagesearch?offset=1&maxItems=1"), (V{"ccc"}));
  EXPECT_EQ(digests("/imagesearch?maxItems=0"), V{});
  Json all = json("/imagesearch?maxItems=200");
  EXPECT_NE(all["nextPage"].get<std::string>().find("offset=3"), std::string::npos);
  Json f = json("/imagesearch?q=ipsilon&fields=imgSrc,imgTstamp");
  EXPECT_EQ(f["responseItems"][0].size(), 2u);
  Json m = json("/imagesearch?q=ipsilon&more=pageHost,matchingImages,safe");
  EXPECT_EQ(m["responseItems"][0]["pageHost"], "www.publico.pt");
  EXPECT_EQ(m["responseItems"][0]["matchingImages"], 2);
  EXPECT_DOUBLE_EQ(m["responseItems"][0]["safe"].get<double>(), 0.75);  // 1 - NSFW score
  EXPECT_EQ(m["responseItems"][0].size(), 18u);
  Json pdq = json("/imagesearch?q=ipsilon&fields=imgDigest,pdq");
  EXPECT_EQ(pdq["responseItems"][0]["pdq"], kPdq);
  EXPECT_FALSE(json("/imagesearch?q=logo&more=pdq")["responseItems"][0].contains("pdq"));
  auto pretty = get("/imagesearch?q=ipsilon&prettyPrint=true");
  ASSERT_TRUE(pretty);
  EXPECT_NE(pretty->body.find("\n  \"serviceName\""), std::string::npos);
  EXPECT_TRUE(Json::parse(pretty->body).contains("linkToDocumentation"));
  EXPECT_EQ(digests("/imagesearch?q=logo%20site:www.publico.pt%20type:png"), (V{"bbb"}));
}

TEST_F(Api, BadParametersAre400NamingTheParameter) {
  expect_400("/imagesearch?maxItems=abc", "maxItems");
  expect_400("/imagesearch?maxItems=-1", "maxItems");
  expect_400("/imagesearch?offset=x", "offset");
  expect_400("/imagesearch?maxItems=201", "maxItems");  // out of range: 400, never capped
  expect_400("/imagesearch?offset=10001", "offset");
  expect_400("/imagesearch?from=2024-01-01", "from");
  expect_400("/imagesearch?to=20241301", "to");
  expect_400("/imagesearch?from=2020&to=2010", "to");
  expect_400("/imagesearch?size=xl", "size");
  expect_400("/imagesearch?decorative=maybe", "decorative");
  expect_400("/imagesearch?type=p%20ng", "type");
  expect_400("/imagesearch?safeSearch=maybe", "safeSearch");
  expect_400("/imagesearch?siteSearch=a/b", "siteSearch");
  expect_400("/imagesearch?fields=imgSrc,nope", "fields");
  expect_400("/imagesearch?more=nope", "more");
  expect_400("/imagesearch?prettyPrint=yes", "prettyPrint");
  expect_400("/imagesearch?q=size:huge", "q");
  expect_400("/imagesearch?language=e", "language");
  expect_400("/imagesearch?language=en,fr1", "language");
  expect_400("/imagesearch?pubYearFrom=18x", "pubYearFrom");
  expect_400("/imagesearch?pubYearTo=12345", "pubYearTo");
  expect_400("/imagesearch?pubYearFrom=1900&pubYearTo=1800", "pubYearTo");
  expect_400("/imagesearch?q=pubyear:1900-1800", "q");
  expect_400("/imagesearch?q=language:%3Cx%3E", "q");
}

TEST_F(Api, HealthcheckOpenapiAndReplayGuards) {
  Json h = json("/imagesearch/healthcheck");
  EXPECT_EQ(h["index"], "ok");
  EXPECT_EQ(h["documents"], 3);
  EXPECT_EQ(json("/imagesearch/openapi.json")["openapi"], "3.0.3");
  // Known URL but its archive is not registered (no imgFile): never read anything.
  json("/wayback/20200316144708im_/https://imagens.publico.pt/aaa.png?tp=UH", 404);
  json("/wayback/20200316144708im_/https://unknown.pt/x.png", 404);
  json("/wayback/2020im_/x", 404);  // a partial timestamp is a period (docs/replay.md)
  json("/wayback/20im_/x", 400);
  auto r = get("/nothing");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST_F(Api, SeesNewDocumentsAfterWriterCommits) {
  {
    index::IndexWriter w(*dir_);
    w.set_moderate(classified_safe);
    w.add(doc("ddd", "20210101000000", "nova"));
  }
  EXPECT_EQ(digests("/imagesearch?q=nova"), (V{"ddd"}));
}

TEST_F(Api, EveryCaptureDateIsSearchable) {
  auto twice = doc("eee", "20080315103000", "duasvezes");
  twice.imgCrawlTimestampLatest = "20210704120000";
  twice.imgCaptureTimes = {"20080315103000", "20210704120000"};
  {
    index::IndexWriter w(*dir_);
    w.set_moderate(classified_safe);
    w.add(twice);
  }
  EXPECT_EQ(digests("/imagesearch?q=duasvezes&from=2021"), (V{"eee"}));
  EXPECT_EQ(digests("/imagesearch?q=duasvezes&from=2008&to=2008"), (V{"eee"}));
  EXPECT_EQ(digests("/imagesearch?q=duasvezes&from=2010&to=2015"), V{});
  EXPECT_EQ(digests("/imagesearch?q=duasvezes&from=20210704120000&to=20210704120000"), (V{"eee"}));
  EXPECT_EQ(digests("/imagesearch?q=duasvezes&from=20210704120001"), V{});
  EXPECT_EQ(digests("/imagesearch?q=duasvezes&to=20080315102959"), V{});
  EXPECT_EQ(json("/imagesearch?q=duasvezes")["years"], (Json{{"2008", 1}, {"2021", 1}}));
}

TEST_F(Api, ImgSurtFieldIsArquivosKey) {
  auto escaped = doc("fff", "20200101000000", "virgulaescapada");
  escaped.imgUrl = "https://imagens.publico.pt/Mona_Lisa%2C_detalhe.png";
  {
    index::IndexWriter w(*dir_);
    w.set_moderate(classified_safe);
    w.add(escaped);
  }
  Json j = json("/imagesearch?q=virgulaescapada&fields=imgSurt");
  ASSERT_EQ(j["responseItems"].size(), 1u);
  // Documents join on the canonical form (".../mona_lisa,_detalhe.png"); the API shows
  // Arquivo's SURT of the URL as captured.
  EXPECT_EQ(j["responseItems"][0]["imgSurt"], "(pt,publico,imagens,)/mona_lisa%2c_detalhe.png");
}

}  // namespace
}  // namespace strata::server
