// The robots.txt conformance cases of google/robotstxt-spec-test (../shared/peer-tests): each
// .textproto holds robots.txt bodies and URL/user-agent expectations; every one must hold.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "crawl/robots.hpp"
#include "testing/shared_data.hpp"

namespace {

using strata::crawl::RobotsTxt;

struct Expectation {
  std::string url, agent, outcome, explanation, type;
};
struct SpecCase {
  std::string robots;
  std::vector<Expectation> expectations;
};

// A reader for the subset of protobuf text format the suite uses: comments, `field: value`,
// lists, messages, bare enum identifiers and adjacent string literals with \n \r \" \xHH.
class TextProto {
 public:
  explicit TextProto(std::string text) : text_(std::move(text)) {}

  std::vector<SpecCase> cases() {
    std::vector<SpecCase> out;
    while (skip_space(), pos_ < text_.size()) {
      std::string field = identifier();
      expect(':');
      if (field != "tests") throw std::runtime_error("unexpected field " + field);
      list([&] { out.push_back(spec_case()); });
    }
    return out;
  }

 private:
  SpecCase spec_case() {
    SpecCase c;
    message([&](const std::string& field) {
      if (field == "robotstxt") {
        c.robots = strings();
      } else if (field == "test_expectations") {
        list([&] { c.expectations.push_back(expectation()); });
      } else {
        throw std::runtime_error("unexpected field " + field);
      }
    });
    return c;
  }

  Expectation expectation() {
    Expectation e;
    message([&](const std::string& field) {
      if (field == "testurl")
        e.url = strings();
      else if (field == "useragent")
        e.agent = strings();
      else if (field == "expected_outcome")
        e.outcome = identifier();
      else if (field == "additional_explanation")
        e.explanation = strings();
      else if (field == "test_type")
        e.type = identifier();
      else
        throw std::runtime_error("unexpected field " + field);
    });
    return e;
  }

  template <typename Field>
  void message(Field field) {
    expect('{');
    while (skip_space(), peek() != '}') {
      std::string name = identifier();
      expect(':');
      field(name);
    }
    expect('}');
  }

  template <typename Item>
  void list(Item item) {
    skip_space();
    if (peek() != '[') return item();
    expect('[');
    while (skip_space(), peek() != ']') {
      item();
      skip_space();
      if (peek() == ',') ++pos_;
    }
    expect(']');
  }

  std::string strings() {
    std::string out;
    while (skip_space(), peek() == '"') out += string_literal();
    return out;
  }

  std::string string_literal() {
    expect('"');
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = text_[pos_++];
      if (e == 'n')
        out += '\n';
      else if (e == 'r')
        out += '\r';
      else if (e == 't')
        out += '\t';
      else if (e == 'x') {
        out += static_cast<char>(std::stoi(text_.substr(pos_, 2), nullptr, 16));
        pos_ += 2;
      } else {
        out += e;
      }
    }
    expect('"');
    return out;
  }

  std::string identifier() {
    skip_space();
    std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    if (start == pos_) throw std::runtime_error("identifier expected at " + std::to_string(pos_));
    return text_.substr(start, pos_ - start);
  }

  void expect(char c) {
    skip_space();
    if (peek() != c)
      throw std::runtime_error(std::string("expected ") + c + " at " + std::to_string(pos_));
    ++pos_;
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      } else if (text_[pos_] == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  std::string text_;
  std::size_t pos_ = 0;
};

std::vector<std::filesystem::path> spec_files() {
  std::vector<std::filesystem::path> files;
  auto root = strata::testing::peer_tests("google__robotstxt-spec-test/src/main/resources/CTC");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.path().extension() == ".textproto") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(RobotsSpec, EveryConformanceCaseHolds) {
  STRATA_REQUIRE_SHARED();
  auto files = spec_files();
  ASSERT_EQ(files.size(), 41u);
  std::size_t checked = 0, google_specific = 0;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto cases = TextProto(text.str()).cases();
    for (std::size_t c = 0; c < cases.size(); ++c) {
      RobotsTxt robots = RobotsTxt::parse(cases[c].robots);
      for (std::size_t i = 0; i < cases[c].expectations.size(); ++i) {
        const Expectation& e = cases[c].expectations[i];
        ++checked;
        if (e.type == "GOOGLE_SPECIFIC") ++google_specific;
        EXPECT_EQ(robots.allowed(e.agent, e.url), e.outcome == "ALLOWED")
            << file.filename() << " case " << c << " expectation " << i << ": " << e.agent << " "
            << e.url << " " << e.type << "\n"
            << e.explanation << "\n--- robots.txt ---\n"
            << cases[c].robots;
      }
    }
  }
  EXPECT_EQ(checked, 400u);
  EXPECT_EQ(google_specific, 22u);
}

}  // namespace
