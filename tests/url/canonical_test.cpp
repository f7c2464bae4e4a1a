// The join key: equivalent percent-encodings meet, reserved characters stay encoded.
#include <gtest/gtest.h>

#include <random>

#include "url/url.hpp"

namespace strata::url {
namespace {

TEST(CanonicalEscapes, MonaLisaCommaAndItsEscapeMeet) {
  const std::string captured =
      "https://upload.wikimedia.org/wikipedia/commons/e/ec/"
      "Mona_Lisa,_by_Leonardo_da_Vinci,_from_C2RMF_retouched.jpg";
  const std::string referenced =
      "https://upload.wikimedia.org/wikipedia/commons/e/ec/"
      "Mona_Lisa%2C_by_Leonardo_da_Vinci%2c_from_C2RMF_retouched.jpg";
  EXPECT_EQ(canonical_escapes(referenced), captured);
  EXPECT_EQ(join_surt(referenced), join_surt(captured));
  EXPECT_EQ(join_surt(captured),
            "(org,wikimedia,upload,)/wikipedia/commons/e/ec/"
            "mona_lisa,_by_leonardo_da_vinci,_from_c2rmf_retouched.jpg");
  // Arquivo's own key keeps them apart; the join key is the one the pipeline uses.
  EXPECT_NE(surt(referenced), surt(captured));
}

TEST(CanonicalEscapes, CharactersThatNeedNoEscapeAreDecoded) {
  EXPECT_EQ(canonical_escapes("http://a.pt/%41%62%7e%2D%2e_x%5F"), "http://a.pt/Ab~-._x_");
  EXPECT_EQ(canonical_escapes("http://a.pt/a%21%24%26%27%28%29%2A%2B%3B%3D%3A%40"),
            "http://a.pt/a!$&'()*+;=:@");
  EXPECT_EQ(canonical_escapes("http://a.pt/p?q=%41%2C%3A%2F%3F"), "http://a.pt/p?q=A,:/?");
  EXPECT_EQ(join_surt("http://www.a.pt/%7Euser/x.jpg"), join_surt("http://a.pt/~user/x.jpg"));
}

TEST(CanonicalEscapes, ReservedCharactersStayEncodedWithUpperCaseHex) {
  // %2F inside a segment is not a separator, %3F not a query, %23 not a fragment, %25 not an
  // escape: decoding any of them would name another resource.
  EXPECT_EQ(canonical_escapes("http://a.pt/a%2fb%3fc%23d%25e"), "http://a.pt/a%2Fb%3Fc%23d%25e");
  EXPECT_NE(join_surt("http://a.pt/a%2Fb.jpg"), join_surt("http://a.pt/a/b.jpg"));
  EXPECT_NE(join_surt("http://a.pt/a%3Fb.jpg"), join_surt("http://a.pt/a?b.jpg"));
  EXPECT_NE(join_surt("http://a.pt/a%23b.jpg"), join_surt("http://a.pt/a#b.jpg"));
  EXPECT_EQ(join_surt("http://a.pt/a%2fb.jpg"), join_surt("http://a.pt/a%2Fb.jpg"));
  // No escape is decoded twice: %252C is "%2C" literally, not ','.
  EXPECT_EQ(canonical_escapes("http://a.pt/a%252Cb"), "http://a.pt/a%252Cb");
  EXPECT_NE(join_surt("http://a.pt/a%252Cb"), join_surt("http://a.pt/a,b"));
  // Non-ASCII, space and other non-pchar characters keep their escapes.
  EXPECT_EQ(canonical_escapes("http://a.pt/caf%c3%a9%20%22x%22"),
            "http://a.pt/caf%C3%A9%20%22x%22");
  EXPECT_EQ(join_surt("http://a.pt/caf%c3%a9.jpg"), join_surt("http://a.pt/café.jpg"));
}

TEST(CanonicalEscapes, QuerySeparatorsStayEncoded) {
  EXPECT_EQ(canonical_escapes("http://a.pt/i.php?a=%26%3D%2B%3B&b=1"),
            "http://a.pt/i.php?a=%26%3D%2B%3B&b=1");
  EXPECT_NE(join_surt("http://a.pt/i.php?a=1%26b=2"), join_surt("http://a.pt/i.php?a=1&b=2"));
}

TEST(CanonicalEscapes, OnlyPathAndQueryChange) {
  EXPECT_EQ(canonical_escapes("http://a.pt/x#frag%2C"), "http://a.pt/x#frag%2C");
  EXPECT_EQ(canonical_escapes("http://us%65r@a.pt/x"), "http://us%65r@a.pt/x");
  EXPECT_EQ(canonical_escapes("a.pt/x%2Cy"), "a.pt/x,y");
  EXPECT_EQ(canonical_escapes("//a.pt/x%2Cy"), "//a.pt/x,y");
  EXPECT_EQ(canonical_escapes("data:image/png;base64,%2C"), "data:image/png;base64,%2C");
  EXPECT_EQ(canonical_escapes("hash:ab%2C"), "hash:ab%2C");
  EXPECT_EQ(canonical_escapes("http://a.pt/x%2"), "http://a.pt/x%252");
  EXPECT_EQ(canonical_escapes("http://a.pt/x%zz%"), "http://a.pt/x%25zz%25");
  EXPECT_EQ(canonical_escapes("http://a.pt/x?u=http://b.pt/%2C"), "http://a.pt/x?u=http://b.pt/,");
  EXPECT_EQ(canonical_escapes("http://a.pt/plain.jpg"), "http://a.pt/plain.jpg");
}

TEST(CanonicalEscapes, Idempotent) {
  for (const char* u : {"http://a.pt/a%2fb%2C%41%25%3f?x=%26%2c", "a.pt/%E9%2C", "http://a.pt/%",
                        "http://a.pt/%2%41", "http://a.pt/%%34%31", "http://a.pt/x%2#y"})
    EXPECT_EQ(canonical_escapes(canonical_escapes(u)), canonical_escapes(u)) << u;
}

TEST(CanonicalEscapes, IdempotentOnRandomEscapes) {
  std::mt19937 rng(18);
  const std::string alphabet = "%%%2CcAa4Ff0zZ/?#&=+.:~";
  for (int n = 0; n < 20000; ++n) {
    std::string u = "http://a.pt/";
    for (int k = std::uniform_int_distribution(0, 12)(rng); k > 0; --k)
      u += alphabet[rng() % alphabet.size()];
    const std::string once = canonical_escapes(u);
    ASSERT_EQ(canonical_escapes(once), once) << u;
  }
}

}  // namespace
}  // namespace strata::url
