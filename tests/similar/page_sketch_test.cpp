// Page sketches (similar/page_sketch.hpp): the estimate against exact Jaccard of the shingle
// sets, the main text of HTML, the record text form, and order-independent groups.
#include "similar/page_sketch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>

namespace {

using namespace strata::similar;

std::string words(int count, int seed) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "w" + std::to_string(i * 7919 % 1000 + seed * 1000) + " ";
  return text;
}

// Exact Jaccard of the 5-word shingle sets of two space-separated texts.
double exact_jaccard(const std::string& a, const std::string& b) {
  auto shingles = [](const std::string& text) {
    std::vector<std::string> w;
    for (size_t i = 0; i < text.size();) {
      size_t end = text.find(' ', i);
      if (end == std::string::npos) end = text.size();
      if (end > i) w.push_back(text.substr(i, end - i));
      i = end + 1;
    }
    std::set<std::string> out;
    for (size_t s = 0; s + 5 <= w.size(); ++s)
      out.insert(w[s] + " " + w[s + 1] + " " + w[s + 2] + " " + w[s + 3] + " " + w[s + 4]);
    return out;
  };
  auto x = shingles(a), y = shingles(b);
  size_t both = 0;
  for (const auto& s : x) both += y.count(s);
  return static_cast<double>(both) / static_cast<double>(x.size() + y.size() - both);
}

TEST(PageSketch, OneWordChangedIsNearAnotherTextIsNot) {
  PageNearDuplicates pages;
  std::string text = words(400, 0);
  auto a = sketch_text(text);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->shingles, 396u);
  EXPECT_FALSE(pages.add("http://a/1", *a));
  std::string changed = text;
  changed.replace(changed.find(" w919 "), 6, " other ");  // one word of 400
  EXPECT_EQ(pages.add("http://a/2", *sketch_text(changed)), "http://a/1");
  auto other = sketch_text(words(400, 1));
  ASSERT_TRUE(other);
  EXPECT_FALSE(pages.add("http://a/3", *other));
  EXPECT_LT(estimated_jaccard(*a, *other), 0.05);
  EXPECT_FALSE(sketch_text("too short for one"));
  EXPECT_TRUE(sketch_text("just five words are enough"));
  EXPECT_EQ(sketch_text("Case, and PUNCTUATION: are ignored here"),
            sketch_text("case and punctuation are ignored here!"));
}

// The estimate is within 4 standard errors (√(J(1−J)/200) ≤ 0.035, plus the b-bit term) of
// the exact Jaccard over edited texts of known similarity.
TEST(PageSketch, EstimateFollowsExactJaccard) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 60; ++trial) {
    int count = 100 + static_cast<int>(random() % 900);
    std::string base = words(count, trial + 10);
    std::vector<std::string> w;
    for (size_t i = 0; i < base.size();) {
      size_t end = base.find(' ', i);
      w.push_back(base.substr(i, end - i));
      i = end + 1;
    }
    // Replace a random share of the words (0 to 10 %).
    size_t edits = random() % (w.size() / 10 + 1);
    for (size_t e = 0; e < edits; ++e) w[random() % w.size()] = "edit" + std::to_string(e);
    std::string edited;
    for (const auto& x : w) edited += x + " ";
    double exact = exact_jaccard(base, edited);
    double estimate = estimated_jaccard(*sketch_text(base), *sketch_text(edited));
    EXPECT_NEAR(estimate, exact, 0.15) << "trial " << trial << " words " << count;
  }
}

TEST(PageSketch, HtmlMainTextLeavesOutMarkupScriptsAndBoilerplate) {
  std::string body = words(200, 3);
  auto plain = sketch_text(body);
  std::string page =
      "<!DOCTYPE html><html><head><title>Title words here are not text</title>"
      "<style>p { color: red; }</style><script>var a = '<p>not text</p>';</script></head>"
      "<body><nav><a href=/>Home</a> <a href=/about>About us and more</a></nav>"
      "<header><h1>Site name banner</h1></header><!-- a comment <p>hidden</p> -->"
      "<div class=\"x\" data-v='a b'><p>" +
      body.substr(0, 600) + "</p><p>" + body.substr(600) +
      "</p></div><aside>related links</aside><footer>Copyright 2004 the site</footer>"
      "<script src=x.js></script></body></html>";
  EXPECT_EQ(sketch_html(page), plain);
  // Another site's chrome around the same article: the same sketch.
  std::string mirror = "<HTML><BODY><NAV>Mirror menu one two three four five</NAV><TABLE><TR><TD>" +
                       body + "</TABLE><FOOTER>mirrored by someone else entirely</FOOTER>";
  EXPECT_EQ(sketch_html(mirror), plain);
  EXPECT_FALSE(sketch_html("<html><body><nav>" + body + "</nav></body></html>"));
  EXPECT_FALSE(sketch_html(""));
  EXPECT_FALSE(sketch_html("<<<<>>>>< / <!-- <script"));
}

TEST(PageSketch, TextFormRoundTripsAndRejectsAnythingElse) {
  auto s = sketch_text(words(300, 5));
  ASSERT_TRUE(s);
  std::string text = encode_page_sketch(*s);
  EXPECT_EQ(text.size(), 4u + 267u);  // "296:" + 267
  EXPECT_EQ(text.substr(0, 4), "296:");
  EXPECT_EQ(decode_page_sketch(text), s);
  EXPECT_FALSE(decode_page_sketch(""));
  EXPECT_FALSE(decode_page_sketch(text.substr(4)));
  EXPECT_FALSE(decode_page_sketch("0" + text.substr(3)));
  EXPECT_FALSE(decode_page_sketch(":" + text.substr(4)));
  EXPECT_FALSE(decode_page_sketch(text + "A"));
  std::string bad = text;
  bad[10] = '+';
  EXPECT_FALSE(decode_page_sketch(bad));
  bad = text;
  bad.back() = '_';  // the unused low bits set
  EXPECT_FALSE(decode_page_sketch(bad));
}

// Groups are a function of the set: the same partition in any order.
TEST(PageSketch, GroupsAreTheSameInAnyOrder) {
  std::vector<std::optional<PageSketch>> sketches;
  for (int family = 0; family < 6; ++family) {
    std::string base = words(300, family);
    for (int copy = 0; copy < 4; ++copy) {
      std::string edited = base;
      if (copy > 0)
        edited.replace(edited.find(' ', copy * 50), 1, " changed" + std::to_string(copy) + " ");
      sketches.push_back(sketch_text(edited));
    }
  }
  sketches.push_back(std::nullopt);
  sketches.push_back(std::nullopt);
  auto partition = [](const std::vector<const PageSketch*>& pages,
                      const std::vector<size_t>& identity) {
    auto group = page_groups(pages);
    std::set<std::set<size_t>> out;
    std::map<uint32_t, std::set<size_t>> by;
    for (size_t i = 0; i < pages.size(); ++i) by[group[i]].insert(identity[i]);
    for (auto& [g, members] : by) out.insert(members);
    return out;
  };
  std::vector<size_t> identity(sketches.size());
  std::iota(identity.begin(), identity.end(), size_t{0});
  std::vector<const PageSketch*> pages;
  for (auto& s : sketches) pages.push_back(s ? &*s : nullptr);
  auto expected = partition(pages, identity);
  EXPECT_EQ(expected.size(), 6u + 2u);
  std::mt19937 random(3);
  for (int shuffle = 0; shuffle < 5; ++shuffle) {
    std::shuffle(identity.begin(), identity.end(), random);
    std::vector<const PageSketch*> shuffled;
    for (size_t i : identity) shuffled.push_back(pages[i]);
    EXPECT_EQ(partition(shuffled, identity), expected);
  }
  auto group = page_groups(pages);
  EXPECT_EQ(group[24], 24u);
  // Named pages: the same name joins, sketch or not.
  std::vector<std::string> owned;
  for (size_t i = 0; i < pages.size(); ++i) owned.push_back("page" + std::to_string(i));
  owned[25] = owned[24];  // two pages without a sketch, one URL
  owned[8] = owned[0];    // families 0 and 2 joined through one page's URL
  std::vector<std::string_view> names(owned.begin(), owned.end());
  auto named = page_groups(pages, names);
  EXPECT_EQ(named[25], 24u);
  EXPECT_EQ(named[9], 0u);
  EXPECT_EQ(named[4], 4u);
  EXPECT_EQ(named[24], 24u);
  group = page_groups(pages);
  EXPECT_EQ(group[0], 0u);
  EXPECT_EQ(group[3], 0u);
  EXPECT_EQ(group[4], 4u);
  EXPECT_EQ(group[24], 24u);
  EXPECT_EQ(group[25], 25u);
}

}  // namespace
