#include "server/request_head.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>

#include <iterator>
#include <limits>

#include "server/url_encode.hpp"

namespace strata::server {
namespace {

namespace http = boost::beast::http;
using Parser = http::request_parser<http::empty_body>;

Params parse_query(std::string_view qs) {
  Params out;
  while (!qs.empty()) {
    size_t amp = qs.find('&');
    std::string_view pair = qs.substr(0, amp);
    qs = amp == std::string_view::npos ? std::string_view() : qs.substr(amp + 1);
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string_view key = pair.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
    out.emplace(url_decode(key, true), url_decode(value, true));
  }
  return out;
}

// Why raw head bytes are malformed where Beast is lenient, or "".
std::string raw_head_problem(std::string_view head) {
  for (size_t i = 0; i < head.size(); ++i) {
    unsigned char c = head[i];
    if (c == '\n' && (i == 0 || head[i - 1] != '\r')) return "bare LF in the request head";
    if (c == '\n' && i + 1 < head.size() && (head[i + 1] == ' ' || head[i + 1] == '\t'))
      return "obs-fold (a folded header line)";
    if ((c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c == 0x7f)
      return c == 0 ? "NUL byte in the request head" : "control byte in the request head";
  }
  return "";
}

bool is_upload(const http::request<http::empty_body>& h) {
  const std::string_view target(h.target().data(), h.target().size());
  return h.method() == http::verb::post && target.substr(0, target.find('?')) == kUploadPath;
}

// Why a parsed head is refused, or "" (status 400 unless `status` is changed).
std::string head_problem(const Parser& p, int& status) {
  const auto& h = p.get();
  if (h.version() != 11 && h.version() != 10) return "unsupported HTTP version";
  auto hosts = std::distance(h.equal_range(http::field::host).first,
                             h.equal_range(http::field::host).second);
  if (hosts > 1 || (h.version() == 11 && hosts == 0)) return "HTTP/1.1 needs exactly one Host";
  if (h.count(http::field::content_length) > 1) return "repeated Content-Length";
  if (h.count(http::field::transfer_encoding) && h.count(http::field::content_length))
    return "Content-Length together with Transfer-Encoding";
  if (h.target().empty() || h.target()[0] != '/') return "the target must be a path";
  const bool upload = is_upload(h);
  if (h.method() != http::verb::get && h.method() != http::verb::head && !upload) {
    status = 405;
    return "only GET and HEAD are served (and POST to " + std::string(kUploadPath) + ")";
  }
  if (p.chunked()) {
    status = 411;
    return "request bodies must have a Content-Length";
  }
  if (p.content_length().value_or(0) > (upload ? kMaxUploadBody : kMaxRequestBody)) {
    status = 413;
    return "request body too large";
  }
  return "";
}

RequestHead refused(RequestHead head, int status, std::string problem) {
  head.status = status;
  head.problem = std::move(problem);
  if (head.method.empty()) head.method = "-";
  if (head.target.empty()) head.target = "-";
  return head;
}

}  // namespace

RequestHead parse_request_head(std::string_view bytes) {
  RequestHead head;
  if (std::string why = raw_head_problem(bytes); !why.empty())
    return refused(std::move(head), 400, why);
  Parser parser;
  parser.header_limit(kMaxRequestHead);
  parser.eager(false);
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());  // bounded below: 413
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec || !parser.is_header_done())
    return refused(std::move(head), 400, "malformed request head");
  const auto& h = parser.get();
  head.method = std::string(h.method_string());
  head.target = std::string(h.target());
  head.version = h.version();
  int status = 400;
  if (std::string why = head_problem(parser, status); !why.empty())
    return refused(std::move(head), status, why);
  head.keep_alive = h.keep_alive();
  head.content_length = parser.content_length().value_or(0);
  head.keeps_body = is_upload(h);
  head.if_none_match = std::string(h[http::field::if_none_match]);
  head.accept_datetime = std::string(h["Accept-Datetime"]);
  return head;
}

HttpRequest to_request(const RequestHead& head, std::string client) {
  HttpRequest r;
  r.method = head.method;
  r.target = head.target;
  std::string_view t = head.target;
  size_t q = t.find('?');
  r.path = url_decode(t.substr(0, q), false);
  if (q != std::string_view::npos) r.query = parse_query(t.substr(q + 1));
  r.if_none_match = head.if_none_match;
  r.accept_datetime = head.accept_datetime;
  r.client = std::move(client);
  return r;
}

}  // namespace strata::server
