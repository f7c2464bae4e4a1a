#include "books/abbyy.hpp"

#include <expat.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

namespace strata::books {
namespace {

constexpr char kNsSeparator = '\x01';

std::string_view local_name(const XML_Char* name) {
  std::string_view n(name);
  const auto cut = n.rfind(kNsSeparator);
  return cut == std::string_view::npos ? n : n.substr(cut + 1);
}

std::string_view namespace_of(const XML_Char* name) {
  std::string_view n(name);
  const auto cut = n.rfind(kNsSeparator);
  return cut == std::string_view::npos ? std::string_view{} : n.substr(0, cut);
}

std::optional<std::string_view> attr(const XML_Char** atts, std::string_view key) {
  for (int i = 0; atts[i]; i += 2)
    if (local_name(atts[i]) == key) return std::string_view(atts[i + 1]);
  return std::nullopt;
}

int int_attr(const XML_Char** atts, std::string_view key, int fallback = 0) {
  const auto v = attr(atts, key);
  if (!v) return fallback;
  return static_cast<int>(std::strtol(std::string(*v).c_str(), nullptr, 10));
}

bool true_attr(const XML_Char** atts, std::string_view key) {
  const auto v = attr(atts, key);
  return v && (*v == "true" || *v == "1");
}

Box box_attrs(const XML_Char** atts) {
  return {int_attr(atts, "l"), int_attr(atts, "t"), int_attr(atts, "r"), int_attr(atts, "b")};
}

// "http://www.abbyy.com/FineReader_xml/FineReader10-schema-v1.xml" -> 10.
int version_of(std::string_view ns) {
  const auto at = ns.rfind("FineReader");
  if (at == std::string_view::npos) return 0;
  return std::atoi(std::string(ns.substr(at + 10, 3)).c_str());
}

void append_capped(std::string& to, std::string_view text) {
  if (to.size() < kMaxBlockText) to.append(text.substr(0, kMaxBlockText - to.size()));
}

// A line of OCR ending in Abbyy's soft hyphen "¬" (U+00AC) continues without a space.
void append_line(std::string& paragraph, std::string line) {
  static constexpr std::string_view kHyphen = "\xC2\xAC";
  if (!paragraph.empty() && !paragraph.ends_with(kHyphen) && !paragraph.ends_with(' '))
    append_capped(paragraph, " ");
  if (paragraph.ends_with(kHyphen)) paragraph.resize(paragraph.size() - kHyphen.size());
  append_capped(paragraph, line);
}

}  // namespace

BlockType block_type_of(std::string_view name) {
  static const std::map<std::string_view, BlockType> kTypes{
      {"Text", BlockType::text},           {"Table", BlockType::table},
      {"Picture", BlockType::picture},     {"Barcode", BlockType::barcode},
      {"Separator", BlockType::separator}, {"SeparatorsBox", BlockType::separators_box},
      {"Checkmark", BlockType::checkmark}, {"GroupCheckmark", BlockType::checkmark}};
  const auto it = kTypes.find(name);
  return it == kTypes.end() ? BlockType::other : it->second;
}

struct AbbyyReader::State {
  explicit State(PageSink s) : sink(std::move(s)) {}
  PageSink sink;
  XML_Parser parser = nullptr;
  AbbyyDocument document;
  int pages = 0;
  int depth = 0;
  bool seen_root = false;
  std::optional<AbbyyPage> page;
  std::optional<Block> block;
  std::map<std::string, bool, std::less<>> caption_styles;  // FR10 paragraphStyle id -> caption
  std::string paragraph, line, formatting_text;
  bool paragraph_is_caption = false;
  bool in_formatting = false, formatting_has_chars = false;
  int in_char = 0;
  std::string error;

  uint64_t offset() const { return static_cast<uint64_t>(XML_GetCurrentByteIndex(parser)); }

  void start(const XML_Char* name, const XML_Char** atts) {
    ++depth;
    const auto local = local_name(name);
    if (!seen_root) {
      seen_root = true;
      if (local != "document") return fail("root element is not an Abbyy <document>");
      document.version = version_of(namespace_of(name));
      document.declared_pages = int_attr(atts, "pagesCount", -1);
      if (auto p = attr(atts, "producer")) document.producer = *p;
      return;
    }
    if (local == "paragraphStyle") {
      if (auto id = attr(atts, "id"))
        caption_styles[std::string(*id)] =
            attr(atts, "role") == std::optional<std::string_view>("pictureCaption");
    } else if (local == "page") {
      page.emplace();
      page->index = pages;
      page->width = int_attr(atts, "width");
      page->height = int_attr(atts, "height");
      page->resolution = int_attr(atts, "resolution");
      page->rotation = int_attr(atts, "rotation");
      page->offset = offset();
    } else if (local == "block" && page && !block) {
      block.emplace();
      const auto type = attr(atts, "blockType");
      block->type = block_type_of(type.value_or(""));
      block->box = box_attrs(atts);
      block->hidden = true_attr(atts, "isHidden");
      block->offset = offset();
    } else if (!block) {
      return;
    } else if (local == "rect") {
      if (block->rects.size() < kMaxBlockRects) block->rects.push_back(box_attrs(atts));
    } else if (local == "par") {
      paragraph.clear();
      const auto role = attr(atts, "role");
      const auto style = attr(atts, "style");
      const auto known = style ? caption_styles.find(*style) : caption_styles.end();
      paragraph_is_caption =
          (role && *role == "pictureCaption") || (known != caption_styles.end() && known->second);
    } else if (local == "line") {
      line.clear();
    } else if (local == "formatting") {
      in_formatting = true;
      formatting_has_chars = false;
      formatting_text.clear();
    } else if (local == "charParams") {
      ++in_char;
      formatting_has_chars = true;
    }
  }

  void end(const XML_Char* name) {
    --depth;
    const auto local = local_name(name);
    if (local == "page" && page && !block) {
      ++pages;
      sink(std::move(*page));
      page.reset();
    } else if (!block) {
      return;
    } else if (local == "block") {
      page->blocks.push_back(std::move(*block));
      block.reset();
    } else if (local == "charParams") {
      --in_char;
    } else if (local == "formatting") {
      // Text directly in <formatting> (FR10 line-level) counts only without charParams:
      // between charParams it is the file's indentation.
      if (!formatting_has_chars) line += formatting_text;
      in_formatting = false;
    } else if (local == "line") {
      append_line(paragraph, std::move(line));
      line.clear();
    } else if (local == "par") {
      if (!paragraph.empty()) {
        if (!block->text.empty()) append_capped(block->text, "\n");
        append_capped(block->text, paragraph);
      }
      block->picture_caption |= paragraph_is_caption && !paragraph.empty();
      paragraph.clear();
    }
  }

  void text(std::string_view data) {
    if (!block) return;
    if (in_char > 0) {
      if (line.size() < kMaxBlockText) line.append(data);
    } else if (in_formatting && formatting_text.size() < kMaxBlockText) {
      formatting_text.append(data);
    }
  }

  void fail(std::string why) {
    error = std::move(why);
    XML_StopParser(parser, XML_FALSE);
  }

  void check(XML_Status status) {
    if (!error.empty()) throw AbbyyError(error, offset());
    if (status == XML_STATUS_ERROR)
      throw AbbyyError(std::string("XML error: ") + XML_ErrorString(XML_GetErrorCode(parser)),
                       offset());
  }
};

AbbyyReader::AbbyyReader(PageSink sink) : state_(std::make_unique<State>(std::move(sink))) {
  state_->parser = XML_ParserCreateNS(nullptr, kNsSeparator);
  if (!state_->parser) throw std::bad_alloc();
  XML_SetUserData(state_->parser, state_.get());
  XML_SetElementHandler(
      state_->parser,
      [](void* s, const XML_Char* n, const XML_Char** a) { static_cast<State*>(s)->start(n, a); },
      [](void* s, const XML_Char* n) { static_cast<State*>(s)->end(n); });
  XML_SetCharacterDataHandler(state_->parser, [](void* s, const XML_Char* d, int len) {
    static_cast<State*>(s)->text(std::string_view(d, static_cast<size_t>(len)));
  });
}

AbbyyReader::~AbbyyReader() {
  XML_ParserFree(state_->parser);
}

void AbbyyReader::feed(std::string_view bytes) {
  while (!bytes.empty()) {  // expat takes int lengths
    const auto n = std::min<size_t>(bytes.size(), 1 << 30);
    state_->check(XML_Parse(state_->parser, bytes.data(), static_cast<int>(n), XML_FALSE));
    bytes.remove_prefix(n);
  }
}

void AbbyyReader::finish() {
  state_->check(XML_Parse(state_->parser, "", 0, XML_TRUE));
  if (!state_->seen_root) throw AbbyyError("empty Abbyy file", state_->offset());
}

const AbbyyDocument& AbbyyReader::document() const {
  return state_->document;
}
int AbbyyReader::pages() const {
  return state_->pages;
}

}  // namespace strata::books
