#include "replay/script_wrap.hpp"

#include <array>
#include <cctype>
#include <set>

namespace strata::replay {
namespace {

constexpr std::array<std::string_view, 8> kProxied = {"window", "self",   "document", "location",
                                                      "top",    "parent", "frames",   "opener"};

constexpr std::string_view kAssign = "_____WB$wombat$assign$function_____";

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Whether `word` stands at `at` as a whole identifier (not part of a longer one).
bool word_at(std::string_view js, size_t at, std::string_view word) {
  if (js.substr(at, word.size()) != word) return false;
  if (at > 0 && identifier_char(js[at - 1])) return false;
  size_t end = at + word.size();
  return end >= js.size() || !identifier_char(js[end]);
}

size_t skip_spaces(std::string_view js, size_t at) {
  while (at < js.size() && (js[at] == ' ' || js[at] == '\t')) ++at;
  return at;
}

// Each line's first non-blank position, in order.
template <class Visit>
void for_each_line_start(std::string_view js, Visit visit) {
  size_t at = 0;
  while (at < js.size()) {
    visit(skip_spaces(js, at), at);
    size_t newline = js.find('\n', at);
    if (newline == std::string_view::npos) break;
    at = newline + 1;
  }
}

// An import or export statement at a line's start: the script is an ES module.
bool module_syntax(std::string_view js) {
  bool found = false;
  for_each_line_start(js, [&](size_t at, size_t) {
    for (std::string_view keyword : {"import", "export"}) {
      if (!word_at(js, at, keyword)) continue;
      size_t next = skip_spaces(js, at + keyword.size());
      // `import(` and `import.meta` are expressions that classic scripts may hold too.
      if (next < js.size() && js[next] != '(' && js[next] != '.') found = true;
    }
  });
  return found;
}

// `var NAME` in the script: a `let NAME` around it would be a redeclaration.
bool declared_with_var(std::string_view js, std::string_view name) {
  for (size_t at = js.find("var"); at != std::string_view::npos; at = js.find("var", at + 3)) {
    if (!word_at(js, at, "var")) continue;
    if (word_at(js, skip_spaces(js, at + 3), name)) return true;
  }
  return false;
}

// Names of `let`, `const` and `class` declarations unindented at a line's start.
std::set<std::string> top_level_lexical_names(std::string_view js) {
  std::set<std::string> names;
  for_each_line_start(js, [&](size_t at, size_t line) {
    if (at != line) return;  // indented: inside a function or block
    for (std::string_view keyword : {"let", "const", "class"}) {
      if (!word_at(js, at, keyword)) continue;
      size_t start = skip_spaces(js, at + keyword.size()), end = start;
      while (end < js.size() && identifier_char(js[end])) ++end;
      if (end > start && !std::isdigit(static_cast<unsigned char>(js[start])))
        names.emplace(js.substr(start, end - start));
    }
  });
  return names;
}

// Whether `location` at `at` starts a statement: the text before it ends with `;`, `{`, `}`,
// `)` (after `if (…)`), `else` or a line break. Strings are not parsed, so this keeps a string
// such as "menubar=no,location=no" (window.open's features) as it is.
bool starts_statement(std::string_view js, size_t at) {
  size_t end = at;
  while (end > 0 && (js[end - 1] == ' ' || js[end - 1] == '\t' || js[end - 1] == '\r')) --end;
  if (end == 0) return true;
  const char before = js[end - 1];
  if (before == ';' || before == '{' || before == '}' || before == ')' || before == '\n')
    return true;
  return end >= 4 && js.substr(end - 4, 4) == "else" && (end == 4 || !identifier_char(js[end - 5]));
}

// `location = X` (a bare name starting a statement, not `a.location =` nor `location ==`)
// assigns through wombat's location, which sends the navigation to the archive URL of X.
std::string assign_location_through_wombat(std::string_view js) {
  std::string out;
  out.reserve(js.size());
  size_t copied = 0;
  for (size_t at = js.find("location"); at != std::string_view::npos;
       at = js.find("location", at + 8)) {
    if (!word_at(js, at, "location") || !starts_statement(js, at)) continue;
    size_t eq = skip_spaces(js, at + 8);
    if (eq >= js.size() || js[eq] != '=' || (eq + 1 < js.size() && js[eq + 1] == '=')) continue;
    out.append(js.substr(copied, eq + 1 - copied));
    out +=
        " ((self.__WB_check_loc && self.__WB_check_loc(location, typeof arguments !== "
        "\"undefined\" ? arguments : undefined)) || {}).href =";
    copied = eq + 1;
  }
  out.append(js.substr(copied));
  return out;
}

// `x.postMessage(` becomes `x.__WB_pmw(self).postMessage(`: wombat then gives the receiver
// the archived page's origin.
std::string post_message_through_wombat(const std::string& js) {
  std::string out;
  size_t copied = 0;
  for (size_t at = js.find(".postMessage"); at != std::string::npos;
       at = js.find(".postMessage", at + 12)) {
    size_t paren = skip_spaces(js, at + 12);
    if (paren >= js.size() || js[paren] != '(') continue;
    out.append(js, copied, at + 1 - copied);
    out += "__WB_pmw(self).";
    copied = at + 1;
  }
  out.append(js, copied);
  return out;
}

constexpr std::string_view kCheckThis = "_____WB$wombat$check$this$function_____(this)";

// The first non-blank position before `at` (npos when none) and after `at` (size when none).
size_t previous_significant(std::string_view js, size_t at) {
  while (at > 0 && std::isspace(static_cast<unsigned char>(js[at - 1]))) --at;
  return at == 0 ? std::string_view::npos : at - 1;
}
size_t next_significant(std::string_view js, size_t at) {
  while (at < js.size() && std::isspace(static_cast<unsigned char>(js[at]))) ++at;
  return at;
}

// Whether `this` at `at` may stand for the window, in the forms pywb's rewriter treats: a
// proxied member read through it (`this.location`), the value of an assignment or a
// default (`= this`, `|| this`), or the receiver given to a module wrapper
// (`}(this)`, `}).call(this`). wombat's check then gives its window proxy for the window,
// so `this === window` holds inside the block as it did on the live page.
bool window_like_this(std::string_view js, size_t at) {
  const size_t after = next_significant(js, at + 4);
  if (after < js.size() && js[after] == '.') {
    const size_t member = next_significant(js, after + 1);
    for (std::string_view name : kProxied)
      if (word_at(js, member, name)) return true;
    return false;
  }
  const size_t before = previous_significant(js, at);
  if (before == std::string_view::npos) return false;
  const char b = js[before];
  if (b == '=' && (before == 0 || (js[before - 1] != '!' && js[before - 1] != '=')))
    return after >= js.size() || (js[after] != ':' && js[after] != '$');
  if ((b == '|' || b == '&') && before > 0 && js[before - 1] == b) return true;
  if (b == '(') {
    const size_t close = next_significant(js, at + 4);
    if (close >= js.size() || (js[close] != ')' && js[close] != ',')) return false;
    const size_t opener = previous_significant(js, before);
    if (opener == std::string_view::npos) return false;
    if (js[opener] == '}' || js[opener] == ')') return true;   // }(this) and })(this)
    return opener >= 4 && js.substr(opener - 3, 4) == "call";  // .call(this
  }
  return false;
}

std::string check_window_like_this(const std::string& js) {
  std::string out;
  out.reserve(js.size());
  size_t copied = 0;
  for (size_t at = js.find("this"); at != std::string::npos; at = js.find("this", at + 4)) {
    if (!word_at(js, at, "this") || (at > 0 && (js[at - 1] == '.' || js[at - 1] == '$')) ||
        !window_like_this(js, at))
      continue;
    out.append(js, copied, at - copied);
    out += kCheckThis;
    copied = at + 4;
  }
  out.append(js, copied);
  return out;
}

}  // namespace

std::string wrap_script_for_wombat(std::string_view js) {
  if (js.find(kAssign) != std::string_view::npos || module_syntax(js)) return std::string(js);
  std::string declarations;
  for (std::string_view name : kProxied) {
    if (js.find(name) == std::string_view::npos || declared_with_var(js, name)) continue;
    declarations += "let " + std::string(name) + " = " + std::string(kAssign) + "(\"" +
                    std::string(name) + "\");\n";
  }
  if (declarations.empty()) return std::string(js);
  std::string out =
      "var " + std::string(kAssign) +
      " = function(name) {return (self._wb_wombat && self._wb_wombat.local_init && "
      "self._wb_wombat.local_init(name)) || self[name]; };\n"
      "if (!self.__WB_pmw) { self.__WB_pmw = function(obj) { this.__WB_source = obj; return "
      "this; } }\n{\n" +
      declarations + "{\n";
  out += check_window_like_this(post_message_through_wombat(assign_location_through_wombat(js)));
  out += "\n";
  for (const std::string& name : top_level_lexical_names(js))
    out += ";try { globalThis." + name + " = " + name + "; } catch (e) {}\n";
  out += "}}";
  return out;
}

}  // namespace strata::replay
