// The replay origin (serve --replay-port) over the 2008 archive.org crawl: pages replayed
// there start wombat before any of their own scripts and run under the replay origin's
// policy; the search interface's origin sends page replays there and keeps serving the rest
// inert; the replay origin serves nothing of the interface or the API.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>

#include "archive_org_suite.hpp"
#include "server/replay_safety.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

const std::string kPage = "/wayback/20080430204826/http://www.archive.org/";

class ReplayOrigin : public testing::ArchiveOrg2008Suite {
 protected:
  static void SetUpTestSuite() {
    start_server([](ServerOptions& o, const fs::path& work) {
      // Stand-ins for npm's wombat: this test checks what the server does with them.
      o.wombat_dir = work / "wombat";
      fs::create_directories(o.wombat_dir);
      std::ofstream(o.wombat_dir / "wombat.js") << "window._WBWombatInit = function () {};\n";
      std::ofstream(o.wombat_dir / "wombatWorkers.js") << "// workers\n";
      o.replay_port = 0;
    });
  }

  static httplib::Result ui(const std::string& path) {
    return httplib::Client("127.0.0.1", server_->port()).Get(path);
  }
  static httplib::Result replay(const std::string& path) {
    return httplib::Client("127.0.0.1", server_->server().replay_port()).Get(path);
  }
};

TEST_F(ReplayOrigin, InterfacePageReplaysMoveToTheReplayOrigin) {
  const std::string replay_base = server_->server().replay_base_url();
  ASSERT_NE(server_->server().replay_port(), server_->port());
  ASSERT_EQ(replay_base, "http://127.0.0.1:" + std::to_string(server_->server().replay_port()));
  for (const std::string& page : {kPage, std::string("/wayback/2008if_/http://www.archive.org/"),
                                  std::string("/wayback/2008mp_/http://www.archive.org/")}) {
    auto r = ui(page);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 302) << page;
    EXPECT_EQ(r->get_header_value("Location"), replay_base + page);
  }
  // Images, the captures list and Memento stay on the interface's origin, inert.
  auto image = ui("/wayback/20080430204826im_/http://www.archive.org/images/logoc.jpg");
  ASSERT_TRUE(image);
  ASSERT_EQ(image->status, 302);  // to its own capture time, on the same origin
  ASSERT_EQ(image->get_header_value("Location").rfind("/wayback/", 0), 0u);
  image = ui(image->get_header_value("Location"));
  ASSERT_TRUE(image);
  EXPECT_EQ(image->status, 200);
  EXPECT_EQ(image->get_header_value("Content-Security-Policy"), kArchivedContentPolicy);
  auto list = ui("/wayback/*/http://www.archive.org/");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
}

TEST_F(ReplayOrigin, PagesStartWombatBeforeTheirOwnScripts) {
  auto r = replay(kPage);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Security-Policy"), kReplayOriginPolicy);
  const std::string& body = r->body;
  size_t wombat = body.find("<script src=\"/_strata/wombat.js\"></script>");
  ASSERT_NE(wombat, std::string::npos);
  EXPECT_LT(wombat, body.find("<script", wombat + 10)) << "wombat comes first";
  EXPECT_NE(body.find(R"("prefix":")" + server_->server().replay_base_url() + "/wayback/\""),
            std::string::npos);
  EXPECT_NE(body.find(R"("timestamp":"20080430204826")"), std::string::npos);
  EXPECT_NE(body.find("id=\"strata-replay-banner\""), std::string::npos);
  // Framed and fetched pages (if_, wombat's mp_) start wombat too, without the banner.
  auto framed = replay("/wayback/20080430204826mp_/http://www.archive.org/");
  ASSERT_TRUE(framed);
  ASSERT_EQ(framed->status, 200);
  EXPECT_NE(framed->body.find("/_strata/wombat.js"), std::string::npos);
  EXPECT_EQ(framed->body.find("id=\"strata-replay-banner\""), std::string::npos);
  // A page's bytes as captured (id_) run no script there: no wombat, no navigation guard.
  auto raw = replay("/wayback/20080430204826id_/http://www.archive.org/");
  ASSERT_TRUE(raw);
  ASSERT_EQ(raw->status, 200);
  EXPECT_EQ(raw->body.find("/_strata/wombat.js"), std::string::npos);
  EXPECT_EQ(raw->get_header_value("Content-Security-Policy"), kArchivedContentPolicy);
  // The interface's origin never starts it.
  auto inert = ui("/wayback/*/http://www.archive.org/");
  ASSERT_TRUE(inert);
  EXPECT_EQ(inert->body.find("wombat"), std::string::npos);
}

TEST_F(ReplayOrigin, ScriptsRunOnlyOnTheReplayOrigin) {
  // The crawl's one script (captured a few seconds after this timestamp: a redirect first).
  const std::string script = "/wayback/20080430204826js_/http://www.archive.org/flv/flv.js?v=1.34";
  auto fetch = [](auto get, std::string path) {
    auto r = get(path);
    if (r && r->status == 302) r = get(r->get_header_value("Location"));
    return r;
  };
  auto on_replay = fetch(replay, script), on_ui = fetch(ui, script);
  ASSERT_TRUE(on_replay && on_ui);
  EXPECT_EQ(on_replay->status, 200);
  EXPECT_EQ(on_replay->get_header_value("Content-Type"), "text/javascript");
  EXPECT_EQ(on_ui->get_header_value("Content-Type"), "text/plain");
  // Asked for without a modifier (a script a page builds at run time): a script all the same.
  auto bare = fetch(replay, "/wayback/20080430204826/http://www.archive.org/flv/flv.js?v=1.34");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->get_header_value("Content-Type"), "text/javascript");
}

TEST_F(ReplayOrigin, ServesTheArchiveAndWombatOnly) {
  auto js = replay("/_strata/wombat.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  EXPECT_EQ(js->body, "window._WBWombatInit = function () {};\n");
  EXPECT_EQ(js->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(js->get_header_value("Content-Security-Policy"), kReplayOriginPolicy);
  for (const char* other :
       {"/", "/app.js", "/imagesearch?q=archive", "/imagesearch/healthcheck",
        "/cdx?url=archive.org", "/thumbnail/all/20080430204826/x", "/_strata/other.js"}) {
    auto r = replay(other);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 404) << other;
    EXPECT_EQ(r->get_header_value("Content-Security-Policy"), kReplayOriginPolicy) << other;
  }
}

TEST_F(ReplayOrigin, MissingWombatStopsTheStart) {
  ServerOptions o;
  o.index_dir = *index_;
  o.replay_port = 0;
  o.wombat_dir = strata::testing::scratch_dir() / "no-wombat";
  try {
    Server server(o);
    ADD_FAILURE() << "started without wombat";
  } catch (const StartupError& e) {
    EXPECT_NE(std::string(e.what()).find("wombat.js not found"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strata::server
