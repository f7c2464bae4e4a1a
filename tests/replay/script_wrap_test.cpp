// Scripts wrapped for wombat's proxies on the replay origin (replay/script_wrap.hpp), as
// pywb's server-side JS proxy rewriter wraps them.
#include "replay/script_wrap.hpp"

#include <gtest/gtest.h>

namespace strata::replay {
namespace {

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(ScriptWrap, AScriptNamingNoProxiedObjectIsLeftAsItIs) {
  const std::string js = "var total = 1 + 2;\nconsole.log(total);";
  EXPECT_EQ(wrap_script_for_wombat(js), js);
}

TEST(ScriptWrap, TheObjectsAScriptNamesAreWombatsInsideABlock) {
  const std::string out = wrap_script_for_wombat("route(location.pathname, document.title);");
  EXPECT_TRUE(out.starts_with("var _____WB$wombat$assign$function_____ = function(name)"));
  EXPECT_TRUE(has(out, "let location = _____WB$wombat$assign$function_____(\"location\");"));
  EXPECT_TRUE(has(out, "let document = _____WB$wombat$assign$function_____(\"document\");"));
  EXPECT_FALSE(has(out, "let window"));
  EXPECT_TRUE(has(out, "{\nroute(location.pathname, document.title);\n"));
  EXPECT_TRUE(out.ends_with("}}"));
  EXPECT_EQ(wrap_script_for_wombat(out), out);  // already wrapped
}

TEST(ScriptWrap, ANameTheScriptDeclaresWithVarKeepsItsOwnBinding) {
  const std::string out = wrap_script_for_wombat("var self = this;\nself.t = document.title;");
  EXPECT_FALSE(has(out, "let self"));
  EXPECT_TRUE(has(out, "let document"));
}

TEST(ScriptWrap, ModulesAreLeftAsTheyAreButDynamicImportsAreNot) {
  const std::string module = "import { a } from './a.js';\nconsole.log(window.x);";
  EXPECT_EQ(wrap_script_for_wombat(module), module);
  const std::string exported = "export default window.x;";
  EXPECT_EQ(wrap_script_for_wombat(exported), exported);
  EXPECT_TRUE(
      has(wrap_script_for_wombat("import('./a.js').then(() => window.go());"), "let window"));
}

TEST(ScriptWrap, AssigningLocationGoesThroughWombatsLocation) {
  const std::string out = wrap_script_for_wombat(
      "if (location == old) location = '/next';\nframe.location = x;\nlet location2 = 1;");
  EXPECT_TRUE(has(out,
                  "location = ((self.__WB_check_loc && self.__WB_check_loc(location, typeof "
                  "arguments !== \"undefined\" ? arguments : undefined)) || {}).href = '/next';"));
  EXPECT_TRUE(has(out, "if (location == old)"));
  EXPECT_TRUE(has(out, "frame.location = x;"));
  const std::string declared = wrap_script_for_wombat("function f() { let location = 2; }");
  EXPECT_TRUE(has(declared, "let location = 2;"));
  // Twitter's 2019 init script names window.open's features in a string.
  const std::string features = "window.open(u, 'console', 'menubar=no,location=no');";
  EXPECT_TRUE(has(wrap_script_for_wombat(features), features));
  EXPECT_TRUE(has(wrap_script_for_wombat("if (a) go();\nelse location = u;"),
                  "else location = ((self.__WB_check_loc"));
}

TEST(ScriptWrap, PostMessageGoesThroughWombatsOriginShim) {
  const std::string out = wrap_script_for_wombat("parent.postMessage(msg, '*');");
  EXPECT_TRUE(has(out, "parent.__WB_pmw(self).postMessage(msg, '*');"));
}

TEST(ScriptWrap, AThisThatMayBeTheWindowIsCheckedByWombat) {
  const std::string check = "_____WB$wombat$check$this$function_____(this)";
  const std::string out = wrap_script_for_wombat(
      "(function (g) { g.x = 1; })(this);\n!function () { this.y = 2; }.call(this);\n"
      "var root = this;\nvar g = typeof window !== 'undefined' && window || this;\n"
      "var loc = this.location;\nthis.count = 1;\nif (a === this) {}\nobj = { self: this };");
  EXPECT_TRUE(has(out, "})(" + check + ");"));
  EXPECT_TRUE(has(out, ".call(" + check + ");"));
  EXPECT_TRUE(has(out, "var root = " + check + ";"));
  EXPECT_TRUE(has(out, "window || " + check + ";"));
  EXPECT_TRUE(has(out, "var loc = " + check + ".location;"));
  EXPECT_TRUE(has(out, "\nthis.count = 1;"));      // not a proxied member
  EXPECT_TRUE(has(out, "this.y = 2;"));            // idem
  EXPECT_TRUE(has(out, "if (a === this) {}"));     // a comparison, not an assignment
  EXPECT_TRUE(has(out, "obj = { self: this };"));  // an object's member
}

TEST(ScriptWrap, TopLevelLetConstAndClassStayVisibleToLaterScripts) {
  const std::string out = wrap_script_for_wombat(
      "const config = { host: location.host };\nclass App {}\nfunction f() {\n  let inner = 1;\n}");
  EXPECT_TRUE(has(out, ";try { globalThis.config = config; } catch (e) {}"));
  EXPECT_TRUE(has(out, ";try { globalThis.App = App; } catch (e) {}"));
  EXPECT_FALSE(has(out, "globalThis.inner"));
}

}  // namespace
}  // namespace strata::replay
