#pragma once
// Internal to the extraction stage (extractor.cpp).
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/counters.hpp"
#include "extract/charset.hpp"
#include "extract/records.hpp"

namespace strata::extract {

// The statistics of a page's references, counted in plain integers and added to the
// counters once per page (even when a later reference throws), where a look-up per
// reference and statistic was ~2 % of extracting the sample archive. A statistic that never
// counted stays absent from the counters, as before.
class RefStats {
 public:
  explicit RefStats(Counters& counters) : counters_(counters) {}
  ~RefStats() {
    for (const auto& [name, n] : counts_)
      if (n > 0) counters_.add(name, n);
  }
  void count(const PageReferenceView& ref) {
    bool alt = !ref.imgAlt.empty(), title = !ref.imgTitle.empty();
    bool caption = !ref.imgCaption.empty();
    bool caption_mis_encoded = looks_mis_encoded(ref.imgCaption);
    add(kWritten, true);
    add(kRefs, true);
    add(kWithAlt, alt);
    add(kWithTitle, title);
    add(kWithAltOrTitle, alt || title);
    add(kWithCaption, caption);
    add(kWithAny, alt || title || caption);
    add(kTextMisEncoded,
        caption_mis_encoded || looks_mis_encoded(ref.imgAlt) || looks_mis_encoded(ref.imgTitle));
    add(kCaptionMisEncoded, caption && caption_mis_encoded);
    // Arquivo's own measure (UTF8_MISMATCH on captions, 1.48 % in the paper).
    add(kCaptionArquivoMojibake, caption && has_arquivo_mojibake_pattern(ref.imgCaption));
  }

 private:
  enum Stat {
    kWritten,
    kRefs,
    kWithAlt,
    kWithTitle,
    kWithAltOrTitle,
    kWithCaption,
    kWithAny,
    kTextMisEncoded,
    kCaptionMisEncoded,
    kCaptionArquivoMojibake,
    kStats
  };
  void add(Stat stat, bool yes) { counts_[stat].second += yes ? 1 : 0; }

  Counters& counters_;
  std::array<std::pair<std::string_view, int64_t>, kStats> counts_{
      {{"refs_written", 0},
       {"stats_refs", 0},
       {"stats_with_alt", 0},
       {"stats_with_title", 0},
       {"stats_with_alt_or_title", 0},
       {"stats_with_caption", 0},
       {"stats_with_any", 0},
       {"refs_text_mis_encoded", 0},
       {"refs_caption_mis_encoded", 0},
       {"refs_caption_arquivo_mojibake", 0}}};
};

}  // namespace strata::extract
