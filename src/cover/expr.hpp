#pragma once
// The coverage language (docs/redundancy.md, "The language"): a predicate over the covered
// document `a` and the covering document `b`, e.g. `same(url),newer` or
// `phash<=6,larger | same(digest)`. parse() turns text into an Expr; covers() evaluates it.
//
// Failure contract: parse() throws ExprError (a std::invalid_argument) with the 1-based column
// of the problem for any bad text; it never throws anything else (beyond std::bad_alloc) and
// accepts at most kMaxExprChars characters and kMaxAtoms atoms. covers() never throws.
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cover/item.hpp"

namespace strata::cover {

inline constexpr size_t kMaxExprChars = 1024;
inline constexpr size_t kMaxAtoms = 32;

struct ExprError : std::invalid_argument {
  ExprError(size_t col, const std::string& message)
      : std::invalid_argument("column " + std::to_string(col) + ": " + message), column(col) {}
  size_t column;  // 1-based
};

enum class CmpOp { eq, ne, lt, le, gt, ge };
enum class SimKind { containment, jaccard, dice };
enum class ArithOp { add, sub, mul, div };

// A numeric or string operand of a comparison.
struct Operand;
using OperandPtr = std::shared_ptr<const Operand>;
struct Operand {
  enum class Kind { number, string, number_attr, string_attr, arith } kind = Kind::number;
  double number = 0;
  std::string text;
  bool of_b = false;  // number_attr / string_attr: b.x (else a.x)
  NumberAttr number_attr{};
  StringAttr string_attr{};
  ArithOp op{};
  OperandPtr left, right;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

// An attribute named in same(...) / within(...).
struct AttrRef {
  enum class Kind { string, number, phash, collection } kind = Kind::string;
  StringAttr string_attr{};
  NumberAttr number_attr{};
};

struct Expr {
  enum class Kind {
    all_of,   // children, all true (`,` and `&`)
    any_of,   // children, one true (`|`)
    negate,   // children[0] false (`!`)
    same,     // attrs equal in a and b
    within,   // |a.x - b.x| <= limit
    hamming,  // popcount(a.phash ^ b.phash) op limit
    similar,  // sim(text) op limit
    compare,  // left op right
  } kind = Kind::all_of;
  std::vector<ExprPtr> children;
  std::vector<AttrRef> attrs;  // same: one or more; within: one (numeric)
  CmpOp op = CmpOp::le;
  double limit = 0;
  SimKind sim{};
  TextAttr text{};
  OperandPtr left, right;
  std::string preset;  // the preset this node expands, for printing; "" = none
};

// Parses `text`; throws ExprError.
ExprPtr parse(std::string_view text);

// True when `b` covers `a` under `e` (two different documents: the cover algorithms make
// every document cover itself, whatever `e` says).
bool covers(const Expr& e, const Item& a, const Item& b);

// The canonical text of `e` (presets by name): parse(to_string(e)) gives the same expression.
std::string to_string(const Expr& e);

// The presets, name -> expression text.
struct Preset {
  std::string_view name, text, meaning;
};
const std::vector<Preset>& presets();

// What `e` reads: an Item needs only those attributes.
struct Uses {
  std::array<bool, size_t(StringAttr::count)> strings{};
  std::array<bool, size_t(NumberAttr::count)> numbers{};
  std::array<bool, size_t(TextAttr::count)> texts{};
  bool phash = false, collection = false;
};
Uses attributes_used(const Expr& e);

}  // namespace strata::cover
