#include "sample/words.hpp"

#include <iterator>

namespace strata::sample {
namespace {

#include "sample/words_pt.inc"

// clang-format off
const char* const kEnTopics[][2] = {
  {"lighthouse", "storm"}, {"vintage", "tram"}, {"harbour", "sunset"}, {"marathon", "runners"},
  {"cathedral", "organ"}, {"volcano", "eruption"}, {"orchid", "greenhouse"}, {"jazz", "trumpet"},
  {"glacier", "expedition"}, {"robot", "factory"}, {"windmill", "meadow"}, {"satellite", "launch"},
  {"pottery", "workshop"}, {"lynx", "forest"}, {"chess", "tournament"}, {"canoe", "river"},
  {"bakery", "bread"}, {"castle", "ruins"}, {"parliament", "debate"}, {"surfing", "waves"},
  {"festival", "fireworks"}, {"submarine", "museum"}, {"vineyard", "harvest"}, {"telescope", "comet"},
};
const char* const kEnFiller[] = {
  "about", "across", "afternoon", "album", "along", "annual", "around", "article", "autumn",
  "blue", "bright", "building", "busy", "calm", "city", "classic", "clear", "colour", "corner",
  "crowd", "daily", "detail", "distant", "early", "evening", "family", "famous", "field", "first",
  "friends", "front", "garden", "gathering", "golden", "great", "green", "group", "hidden", "high",
  "historic", "home", "journey", "large", "late", "light", "little", "local", "long", "main",
  "modern", "morning", "national", "native", "near", "new", "night", "north", "official", "old",
  "open", "outside", "photo", "picture", "place", "popular", "public", "quiet", "rare", "recent",
  "red", "regional", "road", "scene", "season", "second", "small", "south", "special", "spring",
  "square", "street", "summer", "team", "today", "town", "traditional", "view", "village", "visit",
  "walk", "week", "west", "white", "wide", "winter", "yellow", "young", "story", "report", "news",
};
// clang-format on

std::vector<Topic> build_topics() {
  std::vector<Topic> topics;
  for (const auto& t : kPtTopics)
    topics.push_back(Topic{static_cast<int>(topics.size()), Lang::pt, t[0], t[1]});
  for (const auto& t : kEnTopics)
    topics.push_back(Topic{static_cast<int>(topics.size()), Lang::en, t[0], t[1]});
  return topics;
}

}  // namespace

const std::vector<Topic>& all_topics() {
  static const std::vector<Topic> topics = build_topics();
  return topics;
}

const std::vector<std::string>& filler_words(Lang lang) {
  static const std::vector<std::string> pt(std::begin(kPtFiller), std::end(kPtFiller));
  static const std::vector<std::string> en(std::begin(kEnFiller), std::end(kEnFiller));
  return lang == Lang::pt ? pt : en;
}

std::string filler(Rng& rng, Lang lang, int n) {
  const auto& words = filler_words(lang);
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i) out += ' ';
    out += rng.pick(words);
  }
  return out;
}

std::string topical(Rng& rng, const Topic& topic, int n_filler) {
  int before = static_cast<int>(rng.below(static_cast<uint64_t>(n_filler) + 1));
  std::string out = filler(rng, topic.lang, before);
  if (!out.empty()) out += ' ';
  out += topic.a + " " + topic.b;
  std::string after = filler(rng, topic.lang, n_filler - before);
  if (!after.empty()) out += " " + after;
  return out;
}

std::string capitalise(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace strata::sample
