#pragma once
// Text made of pictographs only: emoji, symbols, smileys (":)"), with no letter or digit.
// An image whose alt is such a text is an emoji set inline in a sentence, not a picture the
// sentence describes (extract/caption_blocks.hpp, index/decorative.hpp). Never throws.
#include <string_view>

namespace strata::core {

// True when `text` has no letter or digit and is not blank (invalid UTF-8: false).
bool pictographs_only(std::string_view text);

}  // namespace strata::core
