// The page-position prior's index side: chrome documents, site logos and their site names.
#include "index/position_prior.hpp"

#include <gtest/gtest.h>

namespace strata::index {
namespace {

merge::ImageDocument counted(int64_t main, int64_t chrome, int64_t logo, int64_t pages) {
  merge::ImageDocument d;
  d.refsInMain = main;
  d.refsInChrome = chrome;
  d.refsAsLogo = logo;
  d.matchingPages = pages;
  return d;
}

TEST(PositionPrior, PlaceByMostReferences) {
  EXPECT_EQ(place_of(counted(0, 4, 0, 4)), Place::chrome);
  EXPECT_EQ(place_of(counted(1, 2, 0, 4)), Place::chrome);
  EXPECT_EQ(place_of(counted(0, 1, 1, 3)), Place::chrome);
  EXPECT_EQ(place_of(counted(5, 0, 113, 118)), Place::logo);  // archive.org's logo
  EXPECT_EQ(place_of(counted(0, 4, 8, 12)), Place::logo);     // header and footer logo
  EXPECT_EQ(place_of(counted(2, 2, 0, 4)), Place::content);   // as often in main content
  EXPECT_EQ(place_of(counted(0, 1, 0, 3)), Place::content);   // mostly where nothing tells
  EXPECT_EQ(place_of(counted(0, 0, 0, 1)), Place::content);
}

TEST(PositionPrior, SiteNameFromTheTitle) {
  EXPECT_EQ(site_name("Internet Archive", "http://www.archive.org/index.php"), "Internet Archive");
  EXPECT_EQ(site_name("Internet Archive", "http://www.archive.org/"), "Internet Archive");
  EXPECT_EQ(site_name("Internet Archive", "http://www.archive.org/details/x"), "");
  EXPECT_EQ(site_name("Internet Archive: Details: Madonna adopts an African baby",
                      "http://www.archive.org/details/x"),
            "Internet Archive");
  EXPECT_EQ(site_name("Comprendre les cookies \u2013 Solidarit\u00e9 Num\u00e9rique",
                      "https://www.solidarite-numerique.fr/tutoriels/x/"),
            "Solidarit\u00e9 Num\u00e9rique");
  EXPECT_EQ(site_name("Comprendre les cookies", "https://www.solidarite-numerique.fr/t/"), "");
  // The part the host names, though it is the longer one.
  EXPECT_EQ(site_name("Internet Archive: Page Not Found", "http://www.archive.org/x"),
            "Internet Archive");
  EXPECT_EQ(site_name("", "http://ex.com/"), "");
  EXPECT_EQ(site_name(std::string(100, 'x'), "http://ex.com/"), "");
}

TEST(PositionPrior, SiteLogoNameOnlyForLogos) {
  merge::ImageDocument logo = counted(5, 0, 113, 118);
  logo.pageTitle = "Internet Archive";
  logo.pageUrl = "http://www.archive.org/index.php";
  EXPECT_EQ(site_logo_name(logo), "Internet Archive");
  merge::ImageDocument picture = counted(3, 0, 1, 4);
  picture.pageTitle = logo.pageTitle;
  picture.pageUrl = logo.pageUrl;
  EXPECT_EQ(site_logo_name(picture), "");
}

}  // namespace
}  // namespace strata::index
