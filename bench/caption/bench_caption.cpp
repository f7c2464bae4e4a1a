// bench_caption: caption precision on a judged sample of image references from real crawls
// (bench/caption/judged.jsonl, drawn by sample_refs.py; docs/extraction.md, "Caption quality").
//
// Each line names a page record (`archive` under shared/data, `offset`, `pageUrl`), one image
// reference of it (`imgUrl`, `tag`, `nth`: its place among the page's references to that URL),
// the caption it had when judged (`captionBefore`) with the judgment (`own`: is it the image's
// own nearby text, `reason`), and how any caption of it is judged:
//   `ownText`  phrases of the image's own nearby text: a caption is correct when it holds one
//              of them and no `foreign` phrase; empty when the image has no text of its own
//   `foreign`  phrases of other text (navigation, other items' text, ...)
// The pages are extracted again with today's code and the captions judged by those rules:
//   precision  correct captions / non-empty captions (the goal: >= 80 %)
//   recall     correct captions / references that have own text
// The rules must give back the recorded judgment of `captionBefore` (checked: exit 1 if not).
//
//   bench_caption [--judged FILE] [--show] [--verbose]
//     --show     print each reference's page context (to judge new lines)
//     --verbose  print every reference whose caption is judged wrong or changed, labelled
//                ok (right, or empty where the image has no text of its own), miss (empty
//                where it has) or BAD (a wrong caption)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "archive/locate.hpp"
#include "core/counters.hpp"
#include "core/json.hpp"
#include "extract/charset.hpp"
#include "extract/html_dom.hpp"
#include "extract/page_extract.hpp"
#include "url/url.hpp"

namespace fs = std::filesystem;
using strata::Json;

namespace {

fs::path shared_data_dir() {
  if (const char* env = std::getenv("STRATA_SHARED")) return fs::path(env) / "data";
  return fs::path(STRATA_SOURCE_DIR).parent_path() / "shared" / "data";
}

struct Judged {
  Json line;
  std::vector<std::string> own_text, foreign;
};

bool contains(const std::string& text, const std::vector<std::string>& phrases) {
  for (const std::string& p : phrases)
    if (text.find(p) != std::string::npos) return true;
  return false;
}

bool correct(const Judged& j, const std::string& caption) {
  return !caption.empty() && contains(caption, j.own_text) && !contains(caption, j.foreign);
}

std::vector<std::string> strings(const Json& list) {
  std::vector<std::string> out;
  if (list.is_array())
    for (const Json& s : list) out.push_back(s.get<std::string>());
  return out;
}

// The page's references as today's code extracts them, or an error text.
struct Page {
  std::vector<strata::extract::PageReference> refs;
  std::string html;  // decoded
  std::string error;
};

Page extract_page_at(const fs::path& archive, uint64_t offset, const std::string& page_url) {
  Page page;
  strata::archive::CheckedRecord checked =
      strata::archive::read_checked_record(archive.string(), offset, page_url);
  if (!checked.reader) {
    page.error = checked.error;
    return page;
  }
  std::string payload;
  if (checked.reader->read_payload(payload) != strata::archive::PayloadStatus::ok) {
    page.error = "payload unreadable";
    return page;
  }
  const auto& rec = checked.reader->record();
  std::string charset = rec.http.present ? rec.http.charset : std::string();
  strata::extract::DecodedText text = strata::extract::decode_html(payload, charset);
  strata::extract::PageInput in{rec.target_uri, rec.date,   "bench",  archive.string(),
                                offset,         rec.length, text.utf8};
  strata::Counters counters;
  page.refs = strata::extract::extract_page(in, counters);
  page.html = std::move(text.utf8);
  return page;
}

const strata::extract::PageReference* find_ref(const Page& page, const Json& line) {
  int nth = line.value("nth", 0);
  for (const auto& r : page.refs) {
    if (r.imgUrl != line["imgUrl"].get<std::string>() || r.tag != line["tag"].get<std::string>())
      continue;
    if (nth-- == 0) return &r;
  }
  return nullptr;
}

// The page's text in reading order with "[IMG src]" where each <img> is, and where the
// nth <img> whose src resolves to `img_url` is in it (npos if none): to judge captions.
struct Context {
  std::string text;
  size_t at = std::string::npos;
  std::string path;  // the image's ancestors, "tag.class#id" from <body> down
};

std::string element_path(const GumboNode* n) {
  using namespace strata::extract;
  std::string path;
  for (; n && is_element(n) && !is_tag(n, GUMBO_TAG_BODY); n = n->parent) {
    std::string step = tag_name(n);
    if (auto c = attribute_or_empty(n, "class"); !c.empty()) step += "." + std::string(c);
    if (auto i = attribute_or_empty(n, "id"); !i.empty()) step += "#" + std::string(i);
    path = path.empty() ? step : step + " > " + path;
  }
  return path;
}

Context text_around(const Page& page, const std::string& page_url, const std::string& img_url,
                    int nth) {
  using namespace strata::extract;
  HtmlDocument doc(page.html);
  std::string out, path;
  size_t at = std::string::npos;
  std::vector<const GumboNode*> stack{doc.root()};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT) {
      out += normalise_whitespace(n->v.text.text) + " ";
      continue;
    }
    if (n->type != GUMBO_NODE_DOCUMENT && !is_element(n)) continue;
    if (is_tag(n, GUMBO_TAG_SCRIPT) || is_tag(n, GUMBO_TAG_STYLE)) continue;
    if (is_tag(n, GUMBO_TAG_IMG)) {
      std::string src(attribute_or_empty(n, "src"));
      auto abs = strata::url::resolve(page_url, src);
      if (abs && *abs == img_url && nth-- == 0) {
        at = out.size();
        path = element_path(n);
        const GumboVector& attrs = n->v.element.attributes;
        for (unsigned k = 0; k < attrs.length; ++k) {
          auto* a = static_cast<const GumboAttribute*>(attrs.data[k]);
          path += std::string(" ") + a->name + "=\"" + std::string(a->value).substr(0, 40) + "\"";
        }
      }
      out += "[IMG " + src + "] ";
    }
    const GumboVector& kids = children(n);
    for (unsigned k = kids.length; k-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[k]));
  }
  return {out, at, path};
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = '|';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path judged_path = fs::path(STRATA_SOURCE_DIR) / "bench" / "caption" / "judged.jsonl";
  bool show = false, verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--judged" && i + 1 < argc)
      judged_path = argv[++i];
    else if (a == "--show")
      show = true;
    else if (a == "--verbose")
      verbose = true;
    else {
      std::fprintf(stderr, "usage: bench_caption [--judged FILE] [--show] [--verbose]\n");
      return 2;
    }
  }
  fs::path data = shared_data_dir();
  if (!fs::exists(data)) {
    std::fprintf(stderr, "shared data not found at %s (set STRATA_SHARED)\n", data.c_str());
    return 2;
  }
  std::ifstream in(judged_path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", judged_path.c_str());
    return 2;
  }
  std::vector<Judged> judged;
  for (std::string l; std::getline(in, l);) {
    if (l.empty()) continue;
    Judged j;
    j.line = Json::parse(l);
    j.own_text = strings(j.line["ownText"]);
    j.foreign = strings(j.line["foreign"]);
    judged.push_back(std::move(j));
  }

  std::map<std::pair<std::string, uint64_t>, Page> pages;
  size_t refs = 0, with_own = 0, given = 0, right = 0, given_before = 0, right_before = 0;
  size_t missing = 0, rule_mismatch = 0, changed = 0;
  for (size_t i = 0; i < judged.size(); ++i) {
    const Judged& j = judged[i];
    const Json& l = j.line;
    std::string archive = l["archive"], page_url = l["pageUrl"];
    uint64_t offset = l["offset"];
    auto key = std::make_pair(archive, offset);
    if (!pages.count(key)) pages[key] = extract_page_at(data / archive, offset, page_url);
    const Page& page = pages[key];
    const auto* ref = find_ref(page, l);
    ++refs;
    if (!ref) {
      ++missing;
      std::printf("#%zu NOT FOUND %s %s %s\n", i, page_url.c_str(),
                  l["imgUrl"].get<std::string>().c_str(), page.error.c_str());
      continue;
    }
    std::string before = l.value("captionBefore", "");
    bool judged_own = l.value("own", false);
    if (!before.empty()) ++given_before;
    if (correct(j, before)) ++right_before;
    if (correct(j, before) != judged_own) {
      ++rule_mismatch;
      std::printf("#%zu RULES DISAGREE with the judgment of captionBefore\n", i);
    }
    const std::string& now = ref->imgCaption;
    bool ok = correct(j, now);
    with_own += !j.own_text.empty();
    given += !now.empty();
    right += ok;
    changed += now != before;
    // ok: correct, or empty where the image has no text of its own; miss: empty where it has.
    const char* label = ok || (now.empty() && j.own_text.empty()) ? "ok  "
                        : now.empty()                             ? "miss"
                                                                  : "BAD ";
    if (show || (verbose && (!ok || now != before))) {
      std::printf("#%zu %s %s\n  img %s (alt \"%s\")\n  before: %s\n  now:    %s  [%s]\n", i, label,
                  page_url.c_str(), l["imgUrl"].get<std::string>().c_str(), ref->imgAlt.c_str(),
                  one_line(before).c_str(), one_line(now).c_str(), l.value("reason", "").c_str());
    }
    if (show) {
      auto [text, at, path] = text_around(page, page_url, l["imgUrl"], l.value("nth", 0));
      if (at != std::string::npos) {
        std::printf("  path: %s\n", path.c_str());
        size_t from = at > 400 ? at - 400 : 0;
        std::printf("  context: %s <<<HERE>>> %s\n", text.substr(from, at - from).c_str(),
                    text.substr(at, 500).c_str());
      }
    }
  }
  auto pct = [](size_t a, size_t b) { return b ? 100.0 * static_cast<double>(a) / b : 0.0; };
  std::printf(
      "references %zu (with own text %zu), not found %zu, captions changed %zu\n"
      "judged captions (captionBefore): %zu non-empty, %zu correct: precision %.1f %%, "
      "recall %.1f %%\n"
      "today's captions:                %zu non-empty, %zu correct: precision %.1f %%, "
      "recall %.1f %%\n",
      refs, with_own, missing, changed, given_before, right_before, pct(right_before, given_before),
      pct(right_before, with_own), given, right, pct(right, given), pct(right, with_own));
  if (rule_mismatch) std::printf("%zu judgments disagree with their rules\n", rule_mismatch);
  return missing || rule_mismatch ? 1 : 0;
}
