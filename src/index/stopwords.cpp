// Portuguese stop words: the Snowball list (shared/data/arquivo/stopwords_pt.txt, BSD),
// the same list Arquivo's text_pt analyser uses. Compared against folded forms.
#include "index/stopwords.hpp"

#include <array>
#include <string>
#include <unordered_set>

#include "index/analysis.hpp"

namespace strata::index {
namespace {

constexpr std::array kPortugueseStopWords{
    "a",           "ao",          "aos",
    "aquela",      "aquelas",     "aquele",
    "aqueles",     "aquilo",      "as",
    "até",         "com",         "como",
    "da",          "das",         "de",
    "dela",        "delas",       "dele",
    "deles",       "depois",      "do",
    "dos",         "e",           "ela",
    "elas",        "ele",         "eles",
    "em",          "entre",       "era",
    "eram",        "essa",        "essas",
    "esse",        "esses",       "esta",
    "estamos",     "estas",       "estava",
    "estavam",     "este",        "esteja",
    "estejam",     "estejamos",   "estes",
    "esteve",      "estive",      "estivemos",
    "estiver",     "estivera",    "estiveram",
    "estiverem",   "estivermos",  "estivesse",
    "estivessem",  "estivéramos", "estivéssemos",
    "estou",       "está",        "estávamos",
    "estão",       "eu",          "foi",
    "fomos",       "for",         "fora",
    "foram",       "forem",       "formos",
    "fosse",       "fossem",      "fui",
    "fôramos",     "fôssemos",    "haja",
    "hajam",       "hajamos",     "havemos",
    "hei",         "houve",       "houvemos",
    "houver",      "houvera",     "houveram",
    "houverei",    "houverem",    "houveremos",
    "houveria",    "houveriam",   "houvermos",
    "houverá",     "houverão",    "houveríamos",
    "houvesse",    "houvessem",   "houvéramos",
    "houvéssemos", "há",          "hão",
    "isso",        "isto",        "já",
    "lhe",         "lhes",        "mais",
    "mas",         "me",          "mesmo",
    "meu",         "meus",        "minha",
    "minhas",      "muito",       "na",
    "nas",         "nem",         "no",
    "nos",         "nossa",       "nossas",
    "nosso",       "nossos",      "num",
    "numa",        "não",         "nós",
    "o",           "os",          "ou",
    "para",        "pela",        "pelas",
    "pelo",        "pelos",       "por",
    "qual",        "quando",      "que",
    "quem",        "se",          "seja",
    "sejam",       "sejamos",     "sem",
    "serei",       "seremos",     "seria",
    "seriam",      "será",        "serão",
    "seríamos",    "seu",         "seus",
    "somos",       "sou",         "sua",
    "suas",        "são",         "só",
    "também",      "te",          "tem",
    "temos",       "tenha",       "tenham",
    "tenhamos",    "tenho",       "terei",
    "teremos",     "teria",       "teriam",
    "terá",        "terão",       "teríamos",
    "teu",         "teus",        "teve",
    "tinha",       "tinham",      "tive",
    "tivemos",     "tiver",       "tivera",
    "tiveram",     "tiverem",     "tivermos",
    "tivesse",     "tivessem",    "tivéramos",
    "tivéssemos",  "tu",          "tua",
    "tuas",        "tém",         "tínhamos",
    "um",          "uma",         "você",
    "vocês",       "vos",         "à",
    "às",          "éramos",
};

}  // namespace

bool is_stop_word(std::string_view folded) {
  static const std::unordered_set<std::string> words = [] {
    std::unordered_set<std::string> set;
    for (const char* w : kPortugueseStopWords) set.insert(fold(w));
    return set;
  }();
  return words.count(std::string(folded)) > 0;
}

}  // namespace strata::index
