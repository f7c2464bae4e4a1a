// wombat's head insert: the capture's facts as pywb's wbinfo, and no archived URL can close
// the script element it sits in.
#include "replay/client_rewrite.hpp"

#include <gtest/gtest.h>

#include "core/json.hpp"

namespace strata::replay {
namespace {

// The JSON object between "var wbinfo = " and ";if".
Json wbinfo_of(const std::string& insert) {
  size_t start = insert.find("var wbinfo = ") + 13, end = insert.find(";if (window._WBWombatInit");
  return Json::parse(insert.substr(start, end - start));
}

TEST(ClientRewrite, WbinfoCarriesTheCapturesFactsAsPywbSetsThem) {
  const std::string insert =
      wombat_head_insert({"http://127.0.0.1:8081/wayback/", "/_strata/", "20080430204826", "2008",
                          "http://www.archive.org:80/index.php?a=1", "", "wayback"});
  EXPECT_EQ(insert.rfind("<script src=\"/_strata/wombat.js\"></script><script>", 0), 0u) << insert;
  EXPECT_NE(insert.find("window._WBWombatInit(wbinfo);"), std::string::npos);
  EXPECT_NE(insert.find("addEventListener('navigate'"), std::string::npos);
  const Json info = wbinfo_of(insert);
  EXPECT_EQ(info["url"], "http://www.archive.org:80/index.php?a=1");
  EXPECT_EQ(info["timestamp"], "20080430204826");
  EXPECT_EQ(info["request_ts"], "2008");
  EXPECT_EQ(info["prefix"], "http://127.0.0.1:8081/wayback/");
  EXPECT_EQ(info["top_url"],
            "http://127.0.0.1:8081/wayback/20080430204826/http://www.archive.org:80/index.php?a=1");
  EXPECT_EQ(info["mod"], "");
  EXPECT_EQ(info["is_live"], false);
  EXPECT_EQ(info["is_framed"], false);
  EXPECT_EQ(info["coll"], "wayback");
  EXPECT_EQ(info["static_prefix"], "/_strata/");
  EXPECT_EQ(info["wombat_ts"], "20080430204826");
  EXPECT_EQ(info["wombat_sec"], "1209588506");
  EXPECT_EQ(info["wombat_scheme"], "http");
  EXPECT_EQ(info["wombat_host"], "www.archive.org:80");
}

TEST(ClientRewrite, NoArchivedUrlClosesTheScript) {
  const std::string insert =
      wombat_head_insert({"/wayback/", "/_strata/", "20080430204826", "",
                          "http://x.org/</script><script>alert(1)</script>&amp;", "if_", "w"});
  EXPECT_EQ(insert.find("</script><script>alert"), std::string::npos) << insert;
  EXPECT_EQ(insert.find("&amp;"), std::string::npos);
  EXPECT_EQ(wbinfo_of(insert)["url"], "http://x.org/</script><script>alert(1)</script>&amp;");
}

}  // namespace
}  // namespace strata::replay
