// Memento (RFC 7089) against the RFC's own examples: its mementos' datetimes, the TimeMap of
// section 5 and the TimeGate request of section 4.1.1.
#include "replay/memento.hpp"

#include <gtest/gtest.h>

#include "core/json.hpp"

namespace strata::replay {
namespace {

const Routes kRoutes{"http://arxiv.example.net/web/"};

std::vector<Capture> rfc_mementos() {
  std::vector<Capture> out;
  for (const char* ts : {"20000620180259", "20000621011731", "20000621044156", "20091027204954"}) {
    Capture c;
    c.timestamp = ts;
    c.url = "http://a.example.org";
    out.push_back(c);
  }
  return out;
}

TEST(Memento, HttpDatesAreTheRfcs) {
  EXPECT_EQ(http_date("20000620180259"), "Tue, 20 Jun 2000 18:02:59 GMT");
  EXPECT_EQ(http_date("20000621011731"), "Wed, 21 Jun 2000 01:17:31 GMT");
  EXPECT_EQ(http_date("20091027204954"), "Tue, 27 Oct 2009 20:49:54 GMT");
  EXPECT_EQ(http_date("20010911203610"), "Tue, 11 Sep 2001 20:36:10 GMT");
  EXPECT_EQ(parse_http_date("Tue, 11 Sep 2001 20:35:00 GMT"), "20010911203500");
  for (const char* bad : {"", "Tue, 11 Sep 2001 20:35:00", "Tue, 31 Feb 2001 20:35:00 GMT",
                          "Tue, 11 Sept 2001 20:35:00 GMT", "2001-09-11T20:35:00Z"})
    EXPECT_EQ(parse_http_date(bad), std::nullopt) << bad;
}

TEST(Memento, PartialTimestampsCoverTheirPeriod) {
  EXPECT_EQ(pad_timestamp("2008", Pad::down), "20080101000000");
  EXPECT_EQ(pad_timestamp("2008", Pad::up), "20081231235959");
  EXPECT_EQ(pad_timestamp("200802", Pad::up), "20080229235959");
  EXPECT_EQ(pad_timestamp("20080430204829", Pad::up), "20080430204829");
  for (const char* bad : {"", "200", "2008x", "200813", "20080230", "123456789012345"})
    EXPECT_EQ(pad_timestamp(bad, Pad::down), std::nullopt) << bad;
}

TEST(Memento, LinkHeaderOfAMementoAsInSection411) {
  EXPECT_EQ(memento_link_header(kRoutes, "http://a.example.org/"),
            "<http://a.example.org/>; rel=\"original\", "
            "<http://arxiv.example.net/web/http://a.example.org/>; rel=\"timegate\", "
            "<http://arxiv.example.net/web/timemap/link/http://a.example.org/>; rel=\"timemap\"; "
            "type=\"application/link-format\"");
}

TEST(Memento, TimeGateLinkHeaderAsInSection411) {
  // The RFC's example: original, then the timemap with its type, from and until.
  EXPECT_EQ(timegate_link_header(kRoutes, "http://a.example.org/", rfc_mementos()),
            "<http://a.example.org/>; rel=\"original\", "
            "<http://arxiv.example.net/web/timemap/link/http://a.example.org/>; rel=\"timemap\"; "
            "type=\"application/link-format\"; from=\"Tue, 20 Jun 2000 18:02:59 GMT\"; "
            "until=\"Tue, 27 Oct 2009 20:49:54 GMT\"");
}

TEST(Memento, LinkFormatTimeMapAsInSection5) {
  auto mementos = rfc_mementos();
  std::string tm = timemap_link(kRoutes, "http://a.example.org", mementos);
  EXPECT_EQ(tm,
            "<http://a.example.org>; rel=\"original\",\n"
            "<http://arxiv.example.net/web/timemap/link/http://a.example.org>; rel=\"self\"; "
            "type=\"application/link-format\"; from=\"Tue, 20 Jun 2000 18:02:59 GMT\"; "
            "until=\"Tue, 27 Oct 2009 20:49:54 GMT\",\n"
            "<http://arxiv.example.net/web/http://a.example.org>; rel=\"timegate\",\n"
            "<http://arxiv.example.net/web/20000620180259/http://a.example.org>; "
            "rel=\"first memento\"; datetime=\"Tue, 20 Jun 2000 18:02:59 GMT\",\n"
            "<http://arxiv.example.net/web/20000621011731/http://a.example.org>; "
            "rel=\"memento\"; datetime=\"Wed, 21 Jun 2000 01:17:31 GMT\",\n"
            "<http://arxiv.example.net/web/20000621044156/http://a.example.org>; "
            "rel=\"memento\"; datetime=\"Wed, 21 Jun 2000 04:41:56 GMT\",\n"
            "<http://arxiv.example.net/web/20091027204954/http://a.example.org>; "
            "rel=\"last memento\"; datetime=\"Tue, 27 Oct 2009 20:49:54 GMT\"\n");
}

TEST(Memento, JsonTimeMap) {
  auto mementos = rfc_mementos();
  Json tm = Json::parse(timemap_json(kRoutes, "http://a.example.org", mementos));
  EXPECT_EQ(tm["original_uri"], "http://a.example.org");
  EXPECT_EQ(tm["timegate_uri"], "http://arxiv.example.net/web/http://a.example.org");
  EXPECT_EQ(tm["mementos"]["list"].size(), 4u);
  EXPECT_EQ(tm["mementos"]["first"]["datetime"], "2000-06-20T18:02:59Z");
  EXPECT_EQ(tm["mementos"]["last"]["uri"],
            "http://arxiv.example.net/web/20091027204954/http://a.example.org");
}

TEST(Memento, TimeGateChoosesTheNearestAsInSection411) {
  // Accept-Datetime: Tue, 11 Sep 2001 20:35:00 GMT -> the memento of 20:36:10 that day.
  std::vector<Capture> mementos = rfc_mementos();
  Capture sep11 = mementos[0];
  sep11.timestamp = "20010911203610";
  mementos.insert(mementos.begin() + 3, sep11);
  const Capture* c = nearest(mementos, *parse_http_date("Tue, 11 Sep 2001 20:35:00 GMT"));
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(kRoutes.memento(c->timestamp, c->url),
            "http://arxiv.example.net/web/20010911203610/http://a.example.org");
}

// A book chapter is archived as a resource record and a metadata record with the same URL
// and date: replay serves the chapter, whichever record the archive holds first.
TEST(Memento, ContentIsChosenBeforeAMetadataRecordOfTheSameTime) {
  Capture chapter = rfc_mementos()[0];
  chapter.mime = "application/xhtml+xml";
  Capture about = chapter;
  about.mime = "application/vnd.strata.book-chapter+json";
  about.metadata = true;
  for (const auto& captures : {std::vector{about, chapter}, std::vector{chapter, about}}) {
    const Capture* c = nearest(captures, chapter.timestamp);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->mime, "application/xhtml+xml");
  }
  EXPECT_EQ(nearest(std::vector{about}, "20300101000000")->mime, about.mime);  // only metadata
}

}  // namespace
}  // namespace strata::replay
