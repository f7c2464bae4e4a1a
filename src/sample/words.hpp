#pragma once
// Vocabulary for generated text. Portuguese topics are real two-word queries from Arquivo.pt
// (shared/data/arquivo/queries-pt-2word.txt, stop words removed); English topics are a small
// fixed list. Filler words never belong to a topic, so an image is relevant to a topic's query
// exactly when the generator put that topic's words in its descriptions.
#include <string>
#include <vector>

#include "sample/rng.hpp"

namespace strata::sample {

enum class Lang { pt, en };

struct Topic {
  int id = 0;
  Lang lang = Lang::pt;
  std::string a, b;  // the two query words
  std::string query() const { return a + " " + b; }
};

// Every topic, Portuguese first; ids are indices into this list.
const std::vector<Topic>& all_topics();
const std::vector<std::string>& filler_words(Lang lang);

// `n` filler words separated by spaces.
std::string filler(Rng& rng, Lang lang, int n);
// A phrase that mentions the topic: filler words around "a b" (or "b" alone when short).
std::string topical(Rng& rng, const Topic& topic, int n_filler);
// Capitalises the first letter (ASCII only; generated text starts with a lower-case letter).
std::string capitalise(std::string s);

}  // namespace strata::sample
