#include "cover/expr.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <optional>

namespace strata::cover {
namespace {

constexpr size_t kMaxDepth = 32;

const std::array<std::string_view, size_t(StringAttr::count)> kStringNames{
    "digest", "url", "imghost", "host", "domain", "page", "mime"};
const std::array<std::string_view, size_t(NumberAttr::count)> kNumberNames{
    "ts", "tslast", "pagets", "width", "height", "area", "bytes", "rank", "safe"};
const std::array<std::string_view, size_t(TextAttr::count)> kTextNames{"alt", "title", "caption",
                                                                       "text", "pagetitle"};
const std::array<std::string_view, 6> kOpNames{"=", "!=", "<", "<=", ">", ">="};

// The order words: b is newer / older / larger / smaller / better ranked than a (or equal).
struct OrderWord {
  std::string_view name;
  NumberAttr attr;
  CmpOp op;  // b.attr op a.attr
};
constexpr std::array<OrderWord, 5> kOrderWords{{{"newer", NumberAttr::ts, CmpOp::ge},
                                                {"older", NumberAttr::ts, CmpOp::le},
                                                {"larger", NumberAttr::area, CmpOp::ge},
                                                {"smaller", NumberAttr::area, CmpOp::le},
                                                {"better", NumberAttr::rank, CmpOp::le}}};

// Unit suffixes of quantities, as multiples of seconds, pixels or bytes.
struct Unit {
  std::string_view name;
  double factor;
};
constexpr std::array<Unit, 9> kUnits{{{"s", 1},
                                      {"min", 60},
                                      {"h", 3600},
                                      {"d", 86400},
                                      {"w", 7 * 86400},
                                      {"y", 365 * 86400},
                                      {"px", 1},
                                      {"kb", 1e3},
                                      {"mb", 1e6}}};

template <size_t N>
std::optional<size_t> find_name(const std::array<std::string_view, N>& names, std::string_view s) {
  for (size_t k = 0; k < N; ++k)
    if (names[k] == s) return k;
  return std::nullopt;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  ExprPtr parse_all() {
    if (s_.size() > kMaxExprChars)
      fail(kMaxExprChars + 1, "longer than " + std::to_string(kMaxExprChars) + " characters");
    skip_space();
    if (at_end()) fail(pos_, "empty expression");
    ExprPtr e = disjunction();
    skip_space();
    if (!at_end()) fail(pos_, "unexpected '" + std::string(1, s_[pos_]) + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string& message) const {
    throw ExprError(at + 1, message);
  }

  bool at_end() const { return pos_ >= s_.size(); }
  void skip_space() {
    while (!at_end() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n')) ++pos_;
  }
  bool accept(std::string_view token) {
    skip_space();
    if (s_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!accept(token)) fail(pos_, "expected '" + std::string(token) + "'" + found());
  }
  std::string found() const {
    if (at_end()) return ", found the end";
    return ", found '" + std::string(1, s_[pos_]) + "'";
  }
  static bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  std::string word() {
    skip_space();
    size_t start = pos_;
    while (!at_end() && word_char(s_[pos_]) &&
           !(pos_ == start && s_[pos_] >= '0' && s_[pos_] <= '9'))
      ++pos_;
    std::string w(s_.substr(start, pos_ - start));
    std::transform(w.begin(), w.end(), w.begin(), [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    });
    return w;
  }

  struct Depth {
    explicit Depth(Parser& p) : parser(p) {
      if (++parser.depth_ > kMaxDepth) parser.fail(parser.pos_, "nested too deeply");
    }
    ~Depth() { --parser.depth_; }
    Parser& parser;
  };

  void count_atom(size_t at) {
    if (++atoms_ > kMaxAtoms) fail(at, "more than " + std::to_string(kMaxAtoms) + " atoms");
  }

  ExprPtr disjunction() {
    std::vector<ExprPtr> parts{conjunction()};
    while (accept("|")) parts.push_back(conjunction());
    return join(Expr::Kind::any_of, std::move(parts));
  }
  ExprPtr conjunction() {
    std::vector<ExprPtr> parts{unary()};
    while (accept(",") || accept("&")) parts.push_back(unary());
    return join(Expr::Kind::all_of, std::move(parts));
  }
  static ExprPtr join(Expr::Kind kind, std::vector<ExprPtr> parts) {
    if (parts.size() == 1) return parts.front();
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    e->children = std::move(parts);
    return e;
  }
  ExprPtr unary() {
    Depth depth(*this);
    skip_space();
    if (!at_end() && s_[pos_] == '!' && s_.substr(pos_, 2) != "!=") {
      ++pos_;
      auto e = std::make_shared<Expr>();
      e->kind = Expr::Kind::negate;
      e->children.push_back(unary());
      return e;
    }
    return primary();
  }

  // A parenthesised expression, or a comparison that starts with a parenthesised operand:
  // ordered choice, the error that got further wins.
  ExprPtr primary() {
    skip_space();
    const size_t start = pos_;
    if (!at_end() && s_[pos_] == '(') {
      const size_t atoms = atoms_;
      try {
        ++pos_;
        ExprPtr e = disjunction();
        expect(")");
        return e;
      } catch (const ExprError& as_group) {
        pos_ = start;
        atoms_ = atoms;
        try {
          return comparison();
        } catch (const ExprError& as_comparison) {
          throw as_comparison.column >= as_group.column ? as_comparison : as_group;
        }
      }
    }
    if (!at_end() && (word_char(s_[pos_]) || s_[pos_] == '"' || s_[pos_] == '-' || s_[pos_] == '.'))
      return named_or_comparison();
    fail(pos_, "expected an atom (same(...), phash<=k, newer, a.x<b.x, a preset...)" + found());
  }

  ExprPtr named_or_comparison() {
    const size_t start = pos_;
    const std::string w = word();
    skip_space();
    if ((w == "a" || w == "b") && !at_end() && s_[pos_] == '.') {
      pos_ = start;
      return comparison();
    }
    for (const Preset& p : presets())
      if (p.name == w) {
        count_atom(start);
        Parser inner(p.text);
        auto e = std::make_shared<Expr>(*inner.parse_all());
        e->preset = w;
        return e;
      }
    for (const OrderWord& o : kOrderWords)
      if (o.name == w) {
        count_atom(start);
        return order_word(o);
      }
    if (w == "same") return same(start);
    if (w == "within") return within(start);
    if (w == "phash") return hamming(start);
    if (w == "containment" || w == "jaccard" || w == "dice") return similarity(start, w);
    pos_ = start;
    if (!w.empty() && !(s_[start] >= '0' && s_[start] <= '9'))
      fail(start, "unknown word '" + w +
                      "' (operators: same, within, phash, containment, "
                      "jaccard, dice, newer, older, larger, smaller, better; presets: exact, near, "
                      "best, versions, perhost, pageversions; attributes as a.x / b.x)");
    return comparison();
  }

  static ExprPtr order_word(const OrderWord& o) {
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Kind::compare;
    e->op = o.op;
    e->left = attr_operand(true, o.attr);
    e->right = attr_operand(false, o.attr);
    e->preset = o.name;
    return e;
  }
  static OperandPtr attr_operand(bool of_b, NumberAttr a) {
    auto op = std::make_shared<Operand>();
    op->kind = Operand::Kind::number_attr;
    op->of_b = of_b;
    op->number_attr = a;
    return op;
  }

  AttrRef attribute(bool allow_special) {
    skip_space();
    const size_t at = pos_;
    const std::string w = word();
    AttrRef ref;
    if (auto k = find_name(kStringNames, w)) {
      ref.kind = AttrRef::Kind::string;
      ref.string_attr = StringAttr(*k);
    } else if (auto n = find_name(kNumberNames, w)) {
      ref.kind = AttrRef::Kind::number;
      ref.number_attr = NumberAttr(*n);
    } else if (allow_special && w == "phash") {
      ref.kind = AttrRef::Kind::phash;
    } else if (allow_special && w == "collection") {
      ref.kind = AttrRef::Kind::collection;
    } else {
      fail(at, (w.empty() ? "expected an attribute" + found() : "unknown attribute '" + w + "'") +
                   " (attributes: digest, url, imghost, host, domain, page, mime, ts, tslast, "
                   "pagets, width, height, area, bytes, rank, safe" +
                   (allow_special ? ", phash, collection)" : ")"));
    }
    return ref;
  }

  // A new atom of `kind`, counted against kMaxAtoms.
  std::shared_ptr<Expr> atom(size_t start, Expr::Kind kind) {
    count_atom(start);
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    return e;
  }

  ExprPtr same(size_t start) {
    auto e = atom(start, Expr::Kind::same);
    expect("(");
    do e->attrs.push_back(attribute(true));
    while (accept(","));
    expect(")");
    return e;
  }

  ExprPtr within(size_t start) {
    auto e = atom(start, Expr::Kind::within);
    expect("(");
    skip_space();
    const size_t at = pos_;
    e->attrs.push_back(attribute(false));
    if (e->attrs.back().kind != AttrRef::Kind::number)
      fail(at,
           "within() needs a numeric attribute (ts, tslast, pagets, width, height, area, "
           "bytes, rank, safe)");
    expect(",");
    skip_space();
    const size_t q = pos_;
    e->limit = quantity();
    if (e->limit < 0) fail(q, "within() needs a distance of at least 0");
    expect(")");
    return e;
  }

  CmpOp cmp_op() {
    skip_space();
    static constexpr std::array<std::pair<std::string_view, CmpOp>, 7> ops{{{"<=", CmpOp::le},
                                                                            {">=", CmpOp::ge},
                                                                            {"!=", CmpOp::ne},
                                                                            {"==", CmpOp::eq},
                                                                            {"=", CmpOp::eq},
                                                                            {"<", CmpOp::lt},
                                                                            {">", CmpOp::gt}}};
    for (const auto& [text, op] : ops)
      if (accept(text)) return op;
    fail(pos_, "expected a comparison (=, !=, <, <=, >, >=)" + found());
  }

  ExprPtr hamming(size_t start) {
    auto e = atom(start, Expr::Kind::hamming);
    e->op = cmp_op();
    skip_space();
    const size_t at = pos_;
    const double k = number();
    if (k != std::floor(k) || k < 0 || k > 64) fail(at, "a pHash distance is a whole number 0-64");
    e->limit = k;
    return e;
  }

  ExprPtr similarity(size_t start, const std::string& name) {
    auto e = atom(start, Expr::Kind::similar);
    e->sim = name == "containment" ? SimKind::containment
             : name == "jaccard"   ? SimKind::jaccard
                                   : SimKind::dice;
    expect("(");
    skip_space();
    const size_t at = pos_;
    const std::string w = word();
    auto t = find_name(kTextNames, w);
    if (!t)
      fail(at, "expected a text attribute (alt, title, caption, text, pagetitle)" + found_word(w));
    e->text = TextAttr(*t);
    expect(")");
    e->op = cmp_op();
    skip_space();
    const size_t v = pos_;
    e->limit = number();
    if (e->limit < 0 || e->limit > 1) fail(v, "a similarity is between 0 and 1");
    return e;
  }
  std::string found_word(const std::string& w) const {
    return w.empty() ? found() : ", found '" + w + "'";
  }

  double number() {
    skip_space();
    const size_t start = pos_;
    size_t end = pos_;
    if (end < s_.size() && s_[end] == '-') ++end;
    auto digits = [&] {
      while (end < s_.size() && ((s_[end] >= '0' && s_[end] <= '9') || s_[end] == '.')) ++end;
    };
    digits();
    if (end < s_.size() && (s_[end] == 'e' || s_[end] == 'E')) {  // 1e+30, as numbers print
      ++end;
      if (end < s_.size() && (s_[end] == '+' || s_[end] == '-')) ++end;
      digits();
    }
    double value = 0;
    auto [ptr, ec] = std::from_chars(s_.data() + start, s_.data() + end, value);
    if (ec != std::errc() || ptr != s_.data() + end || !std::isfinite(value))
      fail(start, "expected a number" + found());
    pos_ = end;
    return value;
  }

  // A number with an optional unit (7d, 2h, 100px, 50kb).
  double quantity() {
    double value = number();
    const size_t at = pos_;
    if (at_end() || !word_char(s_[pos_])) return value;
    const std::string unit = word();
    for (const Unit& u : kUnits)
      if (u.name == unit) {
        if (!std::isfinite(value * u.factor)) fail(at, "too large a quantity");
        return value * u.factor;
      }
    fail(at, "unknown unit '" + unit + "' (s, min, h, d, w, y, px, kb, mb)");
  }

  // Comparisons: expr op expr, numbers with numbers, strings with strings.
  ExprPtr comparison() {
    skip_space();
    const size_t start = pos_;
    count_atom(start);
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Kind::compare;
    e->left = sum();
    skip_space();
    const size_t op_at = pos_;
    e->op = cmp_op();
    e->right = sum();
    const bool left_text = is_text(*e->left), right_text = is_text(*e->right);
    if (left_text != right_text) fail(op_at, "compares a string with a number");
    if (!mentions_document(*e->left) && !mentions_document(*e->right))
      fail(start, "a comparison must read a.x or b.x");
    return e;
  }
  static bool is_text(const Operand& o) {
    return o.kind == Operand::Kind::string || o.kind == Operand::Kind::string_attr;
  }
  static bool mentions_document(const Operand& o) {
    if (o.kind == Operand::Kind::arith)
      return mentions_document(*o.left) || mentions_document(*o.right);
    return o.kind == Operand::Kind::number_attr || o.kind == Operand::Kind::string_attr;
  }

  // One precedence level: operands read by `next`, joined left to right by either operator.
  using Operator = std::pair<std::string_view, ArithOp>;
  OperandPtr level(OperandPtr (Parser::*next)(), Operator first, Operator second) {
    OperandPtr left = (this->*next)();
    for (;;) {
      skip_space();
      const size_t at = pos_;
      ArithOp op;
      if (accept(first.first))
        op = first.second;
      else if (accept(second.first))
        op = second.second;
      else
        return left;
      left = arith(op, left, (this->*next)(), at);
    }
  }
  OperandPtr sum() { return level(&Parser::product, {"+", ArithOp::add}, {"-", ArithOp::sub}); }
  OperandPtr product() { return level(&Parser::factor, {"*", ArithOp::mul}, {"/", ArithOp::div}); }
  OperandPtr arith(ArithOp op, OperandPtr left, OperandPtr right, size_t at) {
    if (is_text(*left) || is_text(*right)) fail(at, "arithmetic on a string");
    auto o = std::make_shared<Operand>();
    o->kind = Operand::Kind::arith;
    o->op = op;
    o->left = std::move(left);
    o->right = std::move(right);
    return o;
  }
  OperandPtr factor() {
    Depth depth(*this);
    skip_space();
    auto o = std::make_shared<Operand>();
    if (accept("(")) {
      OperandPtr inner = sum();
      expect(")");
      return inner;
    }
    if (!at_end() && s_[pos_] == '"') {
      o->kind = Operand::Kind::string;
      o->text = quoted();
      return o;
    }
    if (!at_end() && (s_[pos_] == '-' || s_[pos_] == '.' || (s_[pos_] >= '0' && s_[pos_] <= '9'))) {
      o->kind = Operand::Kind::number;
      o->number = quantity();
      return o;
    }
    const size_t at = pos_;
    const std::string w = word();
    if ((w != "a" && w != "b") || !accept("."))
      fail(at, "expected a.x, b.x, a number or a \"string\"" + found_word(w));
    o->of_b = w == "b";
    skip_space();
    const size_t attr_at = pos_;
    AttrRef ref = attribute(false);
    if (ref.kind == AttrRef::Kind::number) {
      o->kind = Operand::Kind::number_attr;
      o->number_attr = ref.number_attr;
    } else if (ref.kind == AttrRef::Kind::string) {
      o->kind = Operand::Kind::string_attr;
      o->string_attr = ref.string_attr;
    } else {
      fail(attr_at, "this attribute cannot be compared");
    }
    return o;
  }
  std::string quoted() {
    const size_t start = pos_++;
    std::string out;
    while (!at_end() && s_[pos_] != '"') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out += s_[pos_++];
    }
    if (at_end()) fail(start, "unterminated string");
    ++pos_;
    return out;
  }

  std::string_view s_;
  size_t pos_ = 0;
  size_t depth_ = 0;
  size_t atoms_ = 0;
};

// ---- evaluation ----

std::optional<double> value_of(const Operand& o, const Item& a, const Item& b) {
  switch (o.kind) {
    case Operand::Kind::number:
      return o.number;
    case Operand::Kind::number_attr:
      return (o.of_b ? b : a).get(o.number_attr);
    case Operand::Kind::arith: {
      auto l = value_of(*o.left, a, b), r = value_of(*o.right, a, b);
      if (!l || !r) return std::nullopt;
      switch (o.op) {
        case ArithOp::add:
          return *l + *r;
        case ArithOp::sub:
          return *l - *r;
        case ArithOp::mul:
          return *l * *r;
        case ArithOp::div:
          if (*r == 0) return std::nullopt;
          return *l / *r;
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

const std::string* text_of(const Operand& o, const Item& a, const Item& b) {
  if (o.kind == Operand::Kind::string) return &o.text;
  const auto& v = (o.of_b ? b : a).get(o.string_attr);
  return v ? &*v : nullptr;
}

template <typename T>
bool holds(CmpOp op, const T& l, const T& r) {
  switch (op) {
    case CmpOp::eq:
      return l == r;
    case CmpOp::ne:
      return l != r;
    case CmpOp::lt:
      return l < r;
    case CmpOp::le:
      return l <= r;
    case CmpOp::gt:
      return l > r;
    case CmpOp::ge:
      return l >= r;
  }
  return false;
}

bool compare(const Expr& e, const Item& a, const Item& b) {
  const bool text =
      e.left->kind == Operand::Kind::string || e.left->kind == Operand::Kind::string_attr;
  if (text) {
    const std::string* l = text_of(*e.left, a, b);
    const std::string* r = text_of(*e.right, a, b);
    return l && r && holds(e.op, *l, *r);
  }
  auto l = value_of(*e.left, a, b), r = value_of(*e.right, a, b);
  return l && r && holds(e.op, *l, *r);
}

bool same_attr(const AttrRef& ref, const Item& a, const Item& b) {
  switch (ref.kind) {
    case AttrRef::Kind::string: {
      const auto &x = a.get(ref.string_attr), &y = b.get(ref.string_attr);
      return x && y && *x == *y;
    }
    case AttrRef::Kind::number: {
      const auto &x = a.get(ref.number_attr), &y = b.get(ref.number_attr);
      return x && y && *x == *y;
    }
    case AttrRef::Kind::phash:
      return a.phash && b.phash && *a.phash == *b.phash;
    case AttrRef::Kind::collection:
      for (const auto& c : a.collections)
        if (std::find(b.collections.begin(), b.collections.end(), c) != b.collections.end())
          return true;
      return false;
  }
  return false;
}

double similarity(SimKind kind, const std::vector<uint64_t>& x, const std::vector<uint64_t>& y) {
  size_t common = 0;
  for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    if (x[i] == y[j])
      ++common, ++i, ++j;
    else if (x[i] < y[j])
      ++i;
    else
      ++j;
  }
  const double c = static_cast<double>(common);
  switch (kind) {
    case SimKind::containment:
      return c / static_cast<double>(x.size());
    case SimKind::jaccard:
      return c / static_cast<double>(x.size() + y.size() - common);
    case SimKind::dice:
      return 2 * c / static_cast<double>(x.size() + y.size());
  }
  return 0;
}

// ---- printing ----

std::string number_text(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : "0";
}

std::string operand_text(const Operand& o, bool nested) {
  switch (o.kind) {
    case Operand::Kind::number:
      return number_text(o.number);
    case Operand::Kind::string: {
      std::string out = "\"";
      for (char c : o.text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      return out + "\"";
    }
    case Operand::Kind::number_attr:
      return std::string(o.of_b ? "b." : "a.") + std::string(kNumberNames[size_t(o.number_attr)]);
    case Operand::Kind::string_attr:
      return std::string(o.of_b ? "b." : "a.") + std::string(kStringNames[size_t(o.string_attr)]);
    case Operand::Kind::arith: {
      static constexpr std::array<char, 4> ops{'+', '-', '*', '/'};
      std::string s =
          operand_text(*o.left, true) + ops[size_t(o.op)] + operand_text(*o.right, true);
      return nested ? "(" + s + ")" : s;
    }
  }
  return "";
}

std::string attr_text(const AttrRef& r) {
  switch (r.kind) {
    case AttrRef::Kind::string:
      return std::string(kStringNames[size_t(r.string_attr)]);
    case AttrRef::Kind::number:
      return std::string(kNumberNames[size_t(r.number_attr)]);
    case AttrRef::Kind::phash:
      return "phash";
    case AttrRef::Kind::collection:
      return "collection";
  }
  return "";
}

bool is_composite(const Expr& e) {
  return e.preset.empty() && (e.kind == Expr::Kind::all_of || e.kind == Expr::Kind::any_of);
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list{
      {"exact", "same(digest)", "exact duplicates: the same bytes"},
      {"near", "phash<=6", "near duplicates: pHashes at most 6 bits apart"},
      {"best", "phash<=6,larger", "the largest of each near-duplicate group"},
      {"versions", "same(url),newer", "versions of one URL: the newest"},
      {"perhost", "same(host),newer", "one per host (page host): the newest"},
      {"pageversions", "same(url),newer,containment(text)>=1",
       "versions of one URL: the newest, and each older one holding words the newer lacks "
       "(the paper's use case, over pages)"},
  };
  return list;
}

ExprPtr parse(std::string_view text) {
  return Parser(text).parse_all();
}

bool covers(const Expr& e, const Item& a, const Item& b) {
  switch (e.kind) {
    case Expr::Kind::all_of:
      for (const auto& c : e.children)
        if (!covers(*c, a, b)) return false;
      return true;
    case Expr::Kind::any_of:
      for (const auto& c : e.children)
        if (covers(*c, a, b)) return true;
      return false;
    case Expr::Kind::negate:
      return !covers(*e.children.front(), a, b);
    case Expr::Kind::same:
      for (const AttrRef& r : e.attrs)
        if (!same_attr(r, a, b)) return false;
      return true;
    case Expr::Kind::within: {
      const auto &x = a.get(e.attrs.front().number_attr), &y = b.get(e.attrs.front().number_attr);
      return x && y && std::fabs(*x - *y) <= e.limit;
    }
    case Expr::Kind::hamming:
      return a.phash && b.phash &&
             holds(e.op, static_cast<double>(std::popcount(*a.phash ^ *b.phash)), e.limit);
    case Expr::Kind::similar: {
      const auto &x = a.get(e.text), &y = b.get(e.text);
      return !x.empty() && !y.empty() && holds(e.op, similarity(e.sim, x, y), e.limit);
    }
    case Expr::Kind::compare:
      return compare(e, a, b);
  }
  return false;
}

std::string to_string(const Expr& e) {
  if (!e.preset.empty()) return e.preset;
  switch (e.kind) {
    case Expr::Kind::all_of:
    case Expr::Kind::any_of: {
      const bool all = e.kind == Expr::Kind::all_of;
      std::string out;
      for (const auto& c : e.children) {
        if (!out.empty()) out += all ? "," : "|";
        const bool wrap = all && is_composite(*c) && c->kind == Expr::Kind::any_of;
        out += wrap ? "(" + to_string(*c) + ")" : to_string(*c);
      }
      return out;
    }
    case Expr::Kind::negate: {
      const Expr& c = *e.children.front();
      return is_composite(c) ? "!(" + to_string(c) + ")" : "!" + to_string(c);
    }
    case Expr::Kind::same: {
      std::string out = "same(";
      for (size_t k = 0; k < e.attrs.size(); ++k) out += (k ? "," : "") + attr_text(e.attrs[k]);
      return out + ")";
    }
    case Expr::Kind::within:
      return "within(" + attr_text(e.attrs.front()) + "," + number_text(e.limit) + ")";
    case Expr::Kind::hamming:
      return "phash" + std::string(kOpNames[size_t(e.op)]) + number_text(e.limit);
    case Expr::Kind::similar: {
      static constexpr std::array<std::string_view, 3> names{"containment", "jaccard", "dice"};
      return std::string(names[size_t(e.sim)]) + "(" + std::string(kTextNames[size_t(e.text)]) +
             ")" + std::string(kOpNames[size_t(e.op)]) + number_text(e.limit);
    }
    case Expr::Kind::compare:
      return operand_text(*e.left, false) + std::string(kOpNames[size_t(e.op)]) +
             operand_text(*e.right, false);
  }
  return "";
}

namespace {

void note_operand(const Operand& o, Uses& u) {
  if (o.kind == Operand::Kind::number_attr) u.numbers[size_t(o.number_attr)] = true;
  if (o.kind == Operand::Kind::string_attr) u.strings[size_t(o.string_attr)] = true;
  if (o.left) note_operand(*o.left, u);
  if (o.right) note_operand(*o.right, u);
}

void note_uses(const Expr& e, Uses& u) {
  for (const AttrRef& r : e.attrs) {
    if (r.kind == AttrRef::Kind::string) u.strings[size_t(r.string_attr)] = true;
    if (r.kind == AttrRef::Kind::number) u.numbers[size_t(r.number_attr)] = true;
    u.phash |= r.kind == AttrRef::Kind::phash;
    u.collection |= r.kind == AttrRef::Kind::collection;
  }
  u.phash |= e.kind == Expr::Kind::hamming;
  if (e.kind == Expr::Kind::similar) u.texts[size_t(e.text)] = true;
  if (e.left) note_operand(*e.left, u);
  if (e.right) note_operand(*e.right, u);
  for (const auto& c : e.children) note_uses(*c, u);
}

}  // namespace

Uses attributes_used(const Expr& e) {
  Uses u;
  note_uses(e, u);
  return u;
}

}  // namespace strata::cover
