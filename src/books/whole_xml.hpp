#pragma once
// One small XML document held in memory (meta.xml, scandata.xml) parsed by expat in one call,
// for the readers that keep their state in a struct of their own. Never throws.
#include <expat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata::books {

struct XmlFailure {
  std::string message;  // "XML error: <expat's message>"
  uint64_t offset = 0;  // byte where expat stopped
};

// Parses `xml` (at most 1 GiB) with the handlers, each called with `state`.
std::optional<XmlFailure> parse_whole_xml(std::string_view xml, void* state,
                                          XML_StartElementHandler start, XML_EndElementHandler end,
                                          XML_CharacterDataHandler text);

}  // namespace strata::books
