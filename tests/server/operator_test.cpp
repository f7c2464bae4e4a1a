// Operators' mistakes end with one clear line and exit 1; the access log; links from the
// configured service URL, never from the request's Host.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/json.hpp"
#include "index/writer.hpp"
#include "running_server.hpp"
#include "sample_docs.hpp"
#include "server/url_encode.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;
using testing::RunningServer;

// Under `work`: scratch_dir() empties the test's folder on every call.
fs::path small_index(const fs::path& work) {
  fs::path dir = work / "index";
  index::IndexWriter w(dir);
  w.add(testing::doc("aaa", "20200316144708", "Ípsilon"));
  return dir;
}

std::string startup_error(const fs::path& index_dir) {
  ServerOptions o;
  o.index_dir = index_dir;
  try {
    Server s(o);
  } catch (const StartupError& e) {
    return e.what();
  }
  return "";
}

TEST(ServeStartup, MissingEmptyOrDamagedIndexIsAClearError) {
  fs::path work = strata::testing::scratch_dir();
  EXPECT_NE(startup_error(work / "missing").find("does not exist"), std::string::npos);
  fs::create_directories(work / "empty");
  EXPECT_NE(startup_error(work / "empty").find("is empty"), std::string::npos);
  fs::path damaged = small_index(work);
  for (const auto& f : fs::directory_iterator(damaged))
    if (f.path().extension() == ".glass") std::ofstream(f.path()) << "not a btree";
  EXPECT_NE(startup_error(damaged).find("cannot be read"), std::string::npos);
  fs::create_directories(work / "junk");
  std::ofstream(work / "junk" / "notes.txt") << "hello";
  EXPECT_NE(startup_error(work / "junk").find("cannot be read"), std::string::npos);
}

TEST(ServeStartup, PortInUseOrInvalidIsRefused) {
  ServerOptions o;
  o.index_dir = small_index(strata::testing::scratch_dir());
  RunningServer first(o);
  o.port = first.port();
  Server second(o);
  EXPECT_FALSE(second.bind());
  EXPECT_NE(second.error().find("is in use"), std::string::npos) << second.error();
  o.port = 99999;
  Server third(o);
  EXPECT_FALSE(third.bind());
  EXPECT_EQ(third.error(), "invalid port 99999 (0 to 65535)");
  o.port = 0;
  o.host = "localhost:80";
  Server fourth(o);
  EXPECT_FALSE(fourth.bind());
}

// The build tree's strata: this test runs from <build>/tests/server.
fs::path strata_binary() {
  return fs::read_symlink("/proc/self/exe").parent_path().parent_path().parent_path() /
         "apps/strata/strata";
}

// `strata serve` itself: exit status 1 and exactly one line on stderr.
struct CommandRun {
  int status = -1;
  std::string err;
};
CommandRun run_strata(const std::string& args, const fs::path& work) {
  fs::path strata = strata_binary();
  fs::path err = work / "stderr.txt";
  CommandRun r;
  int raw = std::system((strata.string() + " " + args + " 2>" + err.string()).c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  std::stringstream text;
  text << std::ifstream(err).rdbuf();
  r.err = text.str();
  return r;
}

TEST(ServeStartup, CommandExitsOneWithOneLine) {
  if (!fs::exists(strata_binary())) GTEST_SKIP() << "strata not built at " << strata_binary();
  fs::path work = strata::testing::scratch_dir();
  fs::create_directories(work / "empty");
  ServerOptions o;
  o.index_dir = small_index(work);
  RunningServer taken(o);
  for (const std::string& args :
       {"serve --index " + (work / "missing").string(),
        "serve --index " + (work / "empty").string(),
        "serve --index " + o.index_dir.string() + " --port 99999",
        "serve --index " + o.index_dir.string() + " --port " + std::to_string(taken.port()),
        "serve --index " + o.index_dir.string() + " --access-log /nonexistent/dir/log"}) {
    CommandRun r = run_strata(args, work);
    EXPECT_EQ(r.status, 1) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("serve.failed"), std::string::npos) << r.err;
  }
}

TEST(ServeOperation, AccessLogHasOneJsonLinePerReply) {
  ServerOptions o;
  const fs::path work = strata::testing::scratch_dir();
  o.index_dir = small_index(work);
  o.access_log = (work / "access.jsonl").string();
  {
    RunningServer s(o);
    httplib::Client c("127.0.0.1", s.port());
    ASSERT_TRUE(c.Get("/imagesearch?q=ipsilon"));
    ASSERT_TRUE(c.Get("/nothing"));
    testing::RawConnection raw(s.port());
    raw.send("GET / HTTP/1.1\r\n\r\n");
    EXPECT_EQ(raw.status(), 400);
  }
  std::ifstream in(o.access_log);
  std::vector<Json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  ASSERT_EQ(lines.size(), 3u);
  // Connections log independently: order by status (200, 400, 404).
  std::sort(lines.begin(), lines.end(),
            [](const Json& a, const Json& b) { return a["status"] < b["status"]; });
  EXPECT_EQ(lines[0]["method"], "GET");
  EXPECT_EQ(lines[0]["path"], "/imagesearch?q=ipsilon");
  EXPECT_EQ(lines[0]["status"], 200);
  EXPECT_EQ(lines[0]["client"], "127.0.0.1");
  EXPECT_GT(lines[0]["bytes"].get<int>(), 100);
  EXPECT_TRUE(lines[0]["ms"].is_number());
  EXPECT_EQ(lines[0]["time"].get<std::string>().size(), 24u);  // 2026-11-26T12:00:00.123Z
  EXPECT_EQ(lines[1]["status"], 400);
  EXPECT_EQ(lines[1]["method"], "GET");
  EXPECT_EQ(lines[2]["status"], 404);
}

TEST(ServeOperation, LinksComeFromTheServiceUrlNeverFromHost) {
  ServerOptions o;
  o.index_dir = small_index(strata::testing::scratch_dir());
  o.api.safe_search = false;
  auto links = [](RunningServer& s) {
    httplib::Client c("127.0.0.1", s.port());
    auto r = c.Get("/imagesearch?q=ipsilon", {{"Host", "evil.example"}});
    EXPECT_TRUE(r);
    return r ? Json::parse(r->body) : Json();
  };
  {
    RunningServer s(o);
    Json j = links(s);
    std::string base = "http://127.0.0.1:" + std::to_string(s.port());
    EXPECT_EQ(j["linkToService"], base + "/imagesearch");
    EXPECT_EQ(j["responseItems"][0]["imgLinkToArchive"].get<std::string>().rfind(base, 0), 0u);
  }
  o.service_url = "https://images.example.org/strata/";
  RunningServer s(o);
  Json j = links(s);
  EXPECT_EQ(j["linkToService"], "https://images.example.org/strata/imagesearch");
  EXPECT_EQ(j["nextPage"].get<std::string>().rfind("https://images.example.org/strata/", 0), 0u);
  EXPECT_EQ(j["responseItems"][0]["imgLinkToArchive"],
            "https://images.example.org/strata/wayback/20200316144708im_/"
            "https://imagens.publico.pt/aaa.png?tp=UH");
  EXPECT_EQ(j.dump().find("evil.example"), std::string::npos);
}

TEST(ServeOperation, LongQueriesAreBounded) {
  ServerOptions o;
  o.index_dir = small_index(strata::testing::scratch_dir());
  RunningServer s(o);
  httplib::Client c("127.0.0.1", s.port());
  std::string repeated, distinct;
  for (int i = 0; i < 250; ++i) repeated += "ipsilon ";  // 2000 bytes
  for (int i = 0; i < 33; ++i) distinct += "w" + std::to_string(i) + " ";
  auto get = [&](const std::string& q) {
    return c.Get("/imagesearch?safeSearch=off&q=" + url_encode(q));
  };
  auto r = get(repeated);  // repeats cost one word
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(Json::parse(r->body)["totalItems"], 1);
  r = get(distinct);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(Json::parse(r->body)["error"]["parameter"], "q");
  r = get(std::string(2049, 'a'));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
}

}  // namespace
}  // namespace strata::server
