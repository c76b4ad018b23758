// agc's own Python AST: immutable nodes shared by pointer, each with a source span.
// The node kinds and their fields come from nodes.def (Python 3.9+ `ast`):
//
//   stmt  FunctionDef(name, args, body*, decorator_list*, returns?)
//         ClassDef(name, bases*, keywords*, body*, decorator_list*)
//         Return(value?) Delete(targets*) Assign(targets*, value) AugAssign(target, op, value)
//         AnnAssign(target, annotation, value?, simple) For(target, iter, body*, orelse*)
//         While(test, body*, orelse*) If(test, body*, orelse*) With(items*, body*)
//         Raise(exc?, cause?) Try(body*, handlers*, orelse*, finalbody*) Assert(test, msg?)
//         Import(names*) ImportFrom(module, names*, level) Global(names) Nonlocal(names)
//         Expr(value) Pass Break Continue
//   expr  BoolOp(op, values*) BinOp(left, op, right) UnaryOp(op, operand) Lambda(args, body)
//         IfExp(test, body, orelse) Dict(keys?*, values*) Set(elts*) ListComp(elt, generators*)
//         SetComp DictComp(key, value, generators*) GeneratorExp Yield(value?) YieldFrom(value)
//         Compare(left, ops, comparators*)
//         Call(func, args*, keywords*) JoinedStr(values*) FormattedValue(value, conversion, spec?)
//         Constant(value) Attribute(value, attr, ctx) Subscript(value, slice, ctx)
//         Starred(value, ctx) Name(id, ctx) List(elts*, ctx) Tuple(elts*, ctx)
//         Slice(lower?, upper?, step?)
//   aux   Arguments Arg Keyword Alias WithItem ExceptHandler Comprehension
//
// Nodes are built mutable (make<T>) and then only ever shared as `Ref`
// (shared_ptr<const Node>). A rewrite copies the nodes it changes and shares the
// rest, so node identity is a valid cache key for analyses.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "transpiler/base/check.h"
#include "transpiler/base/identifier.h"
#include "transpiler/base/source.h"

namespace agc::ast {

enum class NodeKind : uint8_t {
#define AGC_STMT(Name, Fields) Name,
#define AGC_EXPR(Name, Fields) Name,
#define AGC_AUX(Name, Fields) Name,
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
};

enum class ExprContext : uint8_t { Load, Store, Del };
enum class BinOpKind : uint8_t { Add, Sub, Mult, MatMult, Div, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd, FloorDiv };
enum class UnaryOpKind : uint8_t { Invert, Not, UAdd, USub };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// The value of a Constant node, kept in the form Python's repr() needs.
struct ConstantValue {
  enum class Kind : uint8_t { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis };
  Kind kind = Kind::None;
  bool boolean = false;
  double number = 0;  // Float value, or the imaginary part of a Complex
  std::string text;   // Int: decimal digits; Str: UTF-8 text; Bytes: raw bytes
  bool u_prefix = false;  // u'...' literal (Python keeps kind='u')

  static ConstantValue none() { return {}; }
  static ConstantValue of_bool(bool b) { ConstantValue v; v.kind = Kind::Bool; v.boolean = b; return v; }
  static ConstantValue of_int(std::string decimal) { ConstantValue v; v.kind = Kind::Int; v.text = std::move(decimal); return v; }
  static ConstantValue of_int(long long n) { return of_int(std::to_string(n)); }
  static ConstantValue of_float(double d) { ConstantValue v; v.kind = Kind::Float; v.number = d; return v; }
  static ConstantValue of_complex(double imag) { ConstantValue v; v.kind = Kind::Complex; v.number = imag; return v; }
  static ConstantValue of_str(std::string s) { ConstantValue v; v.kind = Kind::Str; v.text = std::move(s); return v; }
  static ConstantValue of_bytes(std::string s) { ConstantValue v; v.kind = Kind::Bytes; v.text = std::move(s); return v; }
  static ConstantValue ellipsis() { ConstantValue v; v.kind = Kind::Ellipsis; return v; }
};

struct Node;
using Ref = std::shared_ptr<const Node>;
using Refs = std::vector<Ref>;
template <class T>
using Ptr = std::shared_ptr<const T>;

/// One `set_loop_options` directive argument attached to a loop.
struct LoopOption {
  std::string key;
  Ref value;
};

/// A set of node kinds as a bit mask (there are fewer than 64 kinds).
using KindMask = uint64_t;
constexpr KindMask kind_bit(NodeKind k) { return KindMask{1} << static_cast<unsigned>(k); }
constexpr KindMask kinds(std::initializer_list<NodeKind> ks) {
  KindMask m = 0;
  for (NodeKind k : ks) m |= kind_bit(k);
  return m;
}

struct Node {
  explicit Node(NodeKind k) : kind(k) {}
  // A copy is about to be changed, so it starts without the cached mask.
  Node(const Node& o) : kind(o.kind), span(o.span) {}
  Node& operator=(const Node&) = delete;

  NodeKind kind;
  SourceSpan span;

  /// The kinds of this node and everything below it (hidden fields included),
  /// computed on first use. Lets a rewrite skip subtrees with nothing to rewrite.
  KindMask kinds_below() const;

  template <class T>
  const T& as() const {
    AGC_CHECK(kind == T::kKind) << "expected " << T::kName << " node";
    return static_cast<const T&>(*this);
  }
  template <class T>
  const T* dyn() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }
  template <class T>
  bool is() const {
    return kind == T::kKind;
  }

 protected:
  // Not virtual: a node is only ever owned by the shared_ptr made for its
  // concrete type (make, clone), which destroys it as that type, and a table
  // pointer would cost 8 bytes in every node of trees that can be millions
  // of nodes.
  ~Node() = default;

 private:
  // 0 until computed; computing twice (from two threads) gives the same value.
  mutable std::atomic<KindMask> kinds_below_{0};
};

#define AGC_FIELD_TYPE_ONE Ref
#define AGC_FIELD_TYPE_OPT Ref
#define AGC_FIELD_TYPE_HIDDEN Ref
#define AGC_FIELD_TYPE_LIST Refs
#define AGC_FIELD_TYPE_OPTLIST Refs
#define AGC_FIELD_TYPE_STMTS Refs
#define AGC_FIELD_TYPE_IDENT Identifier
#define AGC_FIELD_TYPE_STR std::string
#define AGC_FIELD_TYPE_STRS std::vector<std::string>
#define AGC_FIELD_TYPE_BOOL bool
#define AGC_FIELD_TYPE_INT int
#define AGC_FIELD_TYPE_CTX ExprContext
#define AGC_FIELD_TYPE_BINOP BinOpKind
#define AGC_FIELD_TYPE_UNOP UnaryOpKind
#define AGC_FIELD_TYPE_BOOLOP BoolOpKind
#define AGC_FIELD_TYPE_CMPOPS std::vector<CmpOpKind>
#define AGC_FIELD_TYPE_CONST ConstantValue
#define AGC_FIELD_TYPE_LOOPOPTS std::vector<LoopOption>

#define FIELD(kind, name) AGC_FIELD_TYPE_##kind name{};
#define AGC_NODE_STRUCT(Name, Fields)                  \
  struct Name final : Node {                           \
    static constexpr NodeKind kKind = NodeKind::Name;  \
    static constexpr const char* kName = #Name;        \
    Name() : Node(kKind) {}                            \
    Fields                                             \
  };
#define AGC_STMT(Name, Fields) AGC_NODE_STRUCT(Name, Fields)
#define AGC_EXPR(Name, Fields) AGC_NODE_STRUCT(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_NODE_STRUCT(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
#undef AGC_NODE_STRUCT
#undef FIELD

bool is_stmt(NodeKind k);
bool is_expr(NodeKind k);
const char* kind_name(NodeKind k);

/// A new mutable node of type T; share it as Ref once built.
template <class T>
std::shared_ptr<T> make(SourceSpan span) {
  auto n = std::make_shared<T>();
  n->span = span;
  return n;
}

/// A mutable shallow copy of `n` (children shared), for building a changed version.
template <class T>
std::shared_ptr<T> clone(const T& n) {
  return std::make_shared<T>(n);
}
std::shared_ptr<Node> clone_node(const Node& n);

/// A copy of the whole subtree with fresh identities (spans and flags kept).
Ref deep_copy(const Ref& n);

/// `n` with its store/load context set to `ctx` (through tuples, lists and starred).
Ref with_context(const Ref& n, ExprContext ctx);

/// Whether a def is a generator function: a yield in its own body (not in a
/// def, lambda or class nested in it).
bool is_generator(const FunctionDef& f);

// ---- small builders used by passes and the frontend
Ref name(std::string id, ExprContext ctx, SourceSpan span, bool from_source = false);
Ref constant(ConstantValue v, SourceSpan span);
Ref str_constant(std::string s, SourceSpan span);

/// The parsed module: statements plus the file they came from (spans point into it).
struct Module {
  std::shared_ptr<const SourceFile> file;
  Refs body;
};

}  // namespace agc::ast
