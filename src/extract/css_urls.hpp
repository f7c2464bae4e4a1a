#pragma once
// url(...) references in CSS text (a style attribute or a <style> block). Only CSS is
// scanned, not the raw page as Arquivo does, so JavaScript and prose that mention "url("
// produce no false references.
#include <string>
#include <string_view>
#include <vector>

namespace strata::extract {

// Values of every url(...) token, unquoted and trimmed, in order; CSS comments are skipped
// and backslash escapes of the quote/paren characters undone. Empty values are dropped.
std::vector<std::string> css_urls(std::string_view css);

}  // namespace strata::extract
