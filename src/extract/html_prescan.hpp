#pragma once
// A cheap pass over the HTML that proves a page holds no image reference, so its DOM need
// not be built (the gumbo parse is most of the extraction time). It errs on the side of
// parsing: any trace of an <img>/<image>/<source> tag, url(, data:image, an image file
// extension, or a character reference that could spell '.', '(' or ':' means "parse".
#include <string_view>

namespace strata::extract {

bool may_reference_images(std::string_view html);

}  // namespace strata::extract
