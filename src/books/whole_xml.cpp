#include "books/whole_xml.hpp"

#include <memory>

namespace strata::books {

std::optional<XmlFailure> parse_whole_xml(std::string_view xml, void* state,
                                          XML_StartElementHandler start, XML_EndElementHandler end,
                                          XML_CharacterDataHandler text) {
  if (xml.size() > (1u << 30)) return XmlFailure{"XML error: document over 1 GiB", 0};
  std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(XML_ParserCreate(nullptr),
                                                                      &XML_ParserFree);
  XML_SetUserData(parser.get(), state);
  XML_SetElementHandler(parser.get(), start, end);
  XML_SetCharacterDataHandler(parser.get(), text);
  if (XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE) == XML_STATUS_OK)
    return std::nullopt;
  return XmlFailure{std::string("XML error: ") + XML_ErrorString(XML_GetErrorCode(parser.get())),
                    static_cast<uint64_t>(XML_GetCurrentByteIndex(parser.get()))};
}

}  // namespace strata::books
