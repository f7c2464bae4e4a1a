#include "index/decorative.hpp"

#include <gtest/gtest.h>

namespace strata::index {
namespace {

merge::ImageDocument image(const std::string& url, int w, int h) {
  merge::ImageDocument d;
  d.imgUrl = url;
  d.imgWidth = w;
  d.imgHeight = h;
  return d;
}

TEST(Decorative, SpacersRulesAndTrackingPixels) {
  EXPECT_EQ(decorative_reason(image("http://a.pt/x.gif", 1, 1)), "spacer");
  EXPECT_EQ(decorative_reason(image("http://a.pt/x.gif", 600, 2)), "spacer");
  EXPECT_EQ(decorative_reason(image("http://stats.a.pt/t?id=3", 1, 1)), "spacer");
}

TEST(Decorative, TinyIcons) {
  EXPECT_EQ(decorative_reason(image("http://a.pt/favicon.ico", 16, 16)), "icon");
  EXPECT_EQ(decorative_reason(image("http://a.pt/rss.png", 32, 24)), "icon");
  EXPECT_EQ(decorative_reason(image("http://a.pt/thumb.jpg", 33, 33)), "");
}

TEST(Decorative, BarsAndStripsButNotWideLogosOrPanoramas) {
  EXPECT_EQ(decorative_reason(image("http://www.archive.org/images/blendbar.jpg", 1800, 89)),
            "bar");
  EXPECT_EQ(decorative_reason(image("http://a.pt/strip.gif", 72, 499)), "bar");
  EXPECT_EQ(decorative_reason(image("http://a.pt/logo.png", 1140, 250)), "");      // 4.6:1
  EXPECT_EQ(decorative_reason(image("http://a.pt/panorama.jpg", 3000, 400)), "");  // thick
  EXPECT_EQ(decorative_reason(image("http://a.pt/header.jpg", 180, 72)), "");
}

TEST(Decorative, EmojiByFolderOrPictographAlt) {
  EXPECT_EQ(decorative_reason(image("https://abs.twimg.com/emoji/v2/72x72/1f536.png", 72, 72)),
            "emoji");
  EXPECT_EQ(decorative_reason(image("https://s.w.org/images/core/emoji/13.0/svg/2705.svg", 0, 0)),
            "emoji");
  auto pictograph = image("https://cdn.a.pt/1f382.png", 72, 72);
  pictograph.imgAlt = {"\U0001F382"};
  EXPECT_EQ(decorative_reason(pictograph), "emoji");
  pictograph.imgAlt = {"\U0001F382 Birthday"};  // words: a described picture
  EXPECT_EQ(decorative_reason(pictograph), "");
  auto big = image("https://cdn.a.pt/cake.png", 400, 400);
  big.imgAlt = {"\U0001F382"};
  EXPECT_EQ(decorative_reason(big), "");
}

// The wine guide's pictograms (a 126x119 heart beside each favourite entry) and lodging badges
// (326x116), all alt="picto"; its labels (alt="etiquette") and a photo alt'd "Icon" stay.
TEST(Decorative, PictogramsNamedSoByTheirAlt) {
  auto heart = image("https://guide.epub.invalid/EPUB/Image/COEUR.jpg", 126, 119);
  heart.imgAlt = {"picto"};
  EXPECT_EQ(decorative_reason(heart), "icon-alt");
  auto badge = image("https://guide.epub.invalid/EPUB/Image/LOGO_HOTE_2.jpg", 326, 116);
  badge.imgAlt = {"Picto", "icône"};
  EXPECT_EQ(decorative_reason(badge), "icon-alt");
  auto label = image("https://guide.epub.invalid/EPUB/Image/2011-99ourysc.jpg", 153, 195);
  label.imgAlt = {"etiquette"};
  EXPECT_EQ(decorative_reason(label), "");
  badge.imgAlt = {"picto", "Hôtel 2 épis"};  // one reference describes it
  EXPECT_EQ(decorative_reason(badge), "");
  auto photo = image("https://a.pt/app.jpg", 800, 600);
  photo.imgAlt = {"Icon"};
  EXPECT_EQ(decorative_reason(photo), "");
}

TEST(Decorative, LayoutFileNames) {
  EXPECT_EQ(decorative_reason(image("http://a.pt/img/spacer.gif", 50, 50)), "layout-name");
  EXPECT_EQ(decorative_reason(image("http://a.pt/img/Clear_Pixel.GIF", 0, 0)), "layout-name");
  EXPECT_EQ(decorative_reason(image("http://a.pt/img/clear.gif?v=2", 0, 0)), "layout-name");
  EXPECT_EQ(decorative_reason(image("http://a.pt/img/bullet2.png", 60, 60)), "layout-name");
  EXPECT_EQ(decorative_reason(image("http://a.pt/1x1.gif", 0, 0)), "layout-name");
  EXPECT_EQ(decorative_reason(image("http://a.pt/img/spacer-photo.jpg", 640, 480)), "");
  EXPECT_EQ(decorative_reason(image("http://a.pt/emoji-history.jpg", 640, 480)), "");
}

TEST(Decorative, UnknownSizeAndInlineImagesAreJudgedByUrlOnly) {
  EXPECT_EQ(decorative_reason(image("http://a.pt/logo.svg", 0, 0)), "");
  EXPECT_EQ(decorative_reason(image("data:image/gif;base64,R0lGOD", 0, 0)), "");
}

}  // namespace
}  // namespace strata::index
