#pragma once
// A cheap pass over the HTML that proves a page holds no image reference, so its DOM need
// not be built (the gumbo parse is most of the extraction time). It errs on the side of
// parsing: any trace of an <img>/<image>/<source> tag, url(, data:image, an image file
// extension, or a character reference that could spell '.', '(' or ':' means "parse".
#include <cstddef>
#include <string_view>

namespace strata::extract {

bool may_reference_images(std::string_view html);

// Position of the last byte where may_reference_images sees a possible reference, or where
// a <title, <base or <frameset tag may start (npos when none): the page after it holds no
// reference, title or base (html_prefix.hpp parses only up to a little after it).
size_t last_prefix_trigger(std::string_view html);

}  // namespace strata::extract
