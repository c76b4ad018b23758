#include <doctest/doctest.h>

#include "tests/unit/support.h"
#include "transpiler/ast/dump.h"
#include "transpiler/base/big_stack.h"

using namespace agc;
using agc::testing::parse;

namespace {

std::string dump_of(const std::string& src) {
  auto p = parse(src);
  if (p->sink.has_errors()) return "ERRORS: " + p->errors();
  return ast::dump(p->body());
}

std::string errors_of(const std::string& src) { return parse(src)->errors(); }

}  // namespace

TEST_CASE("assignments lower to Python's Assign, AnnAssign and AugAssign") {
  CHECK(dump_of("a = b = 1\n") == "[(Assign [(Name a Store from_source) (Name b Store from_source)] (Constant 1))]");
  CHECK(dump_of("x: int = 5\n") == "[(AnnAssign (Name x Store from_source) (Name int Load from_source) (Constant 5) simple)]");
  CHECK(dump_of("x += 1\n") == "[(AugAssign (Name x Store from_source) op0 (Constant 1))]");
  CHECK(dump_of("a, *b = c\n") ==
        "[(Assign [(Tuple [(Name a Store from_source) (Starred (Name b Store from_source) Store)] Store)] "
        "(Name c Load from_source))]");
}

TEST_CASE("boolean chains flatten into one BoolOp unless parenthesised") {
  CHECK(dump_of("a and b and c\n") ==
        "[(Expr (BoolOp And [(Name a Load from_source) (Name b Load from_source) (Name c Load from_source)]))]");
  CHECK(dump_of("a and (b and c)\n") ==
        "[(Expr (BoolOp And [(Name a Load from_source) (BoolOp And [(Name b Load from_source) (Name c Load "
        "from_source)])]))]");
  CHECK(dump_of("a or b and c\n") ==
        "[(Expr (BoolOp Or [(Name a Load from_source) (BoolOp And [(Name b Load from_source) (Name c Load "
        "from_source)])]))]");
}

TEST_CASE("chained comparisons keep every operator") {
  CHECK(dump_of("a < b <= c is not d not in e\n") ==
        "[(Expr (Compare (Name a Load from_source) cmp2 cmp3 cmp7 cmp9 [(Name b Load from_source) (Name c Load "
        "from_source) (Name d Load from_source) (Name e Load from_source)]))]");
}

TEST_CASE("subscripts with slices, tuples, Ellipsis and a trailing comma") {
  CHECK(dump_of("x[1:2:3]\n") ==
        "[(Expr (Subscript (Name x Load from_source) (Slice (Constant 1) (Constant 2) (Constant 3)) Load))]");
  CHECK(dump_of("x[::2]\n") == "[(Expr (Subscript (Name x Load from_source) (Slice None None (Constant 2)) Load))]");
  CHECK(dump_of("x[i, ...]\n") ==
        "[(Expr (Subscript (Name x Load from_source) (Tuple [(Name i Load from_source) (Constant ...)] Load) Load))]");
  CHECK(dump_of("x[i,]\n") ==
        "[(Expr (Subscript (Name x Load from_source) (Tuple [(Name i Load from_source)] Load) Load))]");
}

TEST_CASE("if/elif/else becomes nested Ifs in orelse") {
  CHECK(dump_of("if a:\n  pass\nelif b:\n  pass\nelse:\n  x\n") ==
        "[(If (Name a Load from_source) [(Pass)] [(If (Name b Load from_source) [(Pass)] [(Expr (Name x Load "
        "from_source))])])]");
}

TEST_CASE("function parameters of every kind") {
  auto p = parse("@dec\ndef f(a, b=1, /, c=2, *args, d, e=3, **kw) -> int:\n  return a\n");
  REQUIRE(!p->sink.has_errors());
  const auto& f = p->first()->as<ast::FunctionDef>();
  const auto& a = f.args->as<ast::Arguments>();
  CHECK(f.name == "f");
  CHECK(f.decorator_list.size() == 1);
  CHECK(a.posonlyargs.size() == 2);
  CHECK(a.args.size() == 1);
  CHECK(a.defaults.size() == 2);
  CHECK(a.vararg->as<ast::Arg>().arg == "args");
  CHECK(a.kwonlyargs.size() == 2);
  CHECK(a.kw_defaults[0] == nullptr);
  CHECK(a.kw_defaults[1] != nullptr);
  CHECK(a.kwarg->as<ast::Arg>().arg == "kw");
  CHECK(f.returns != nullptr);
}

TEST_CASE("string literals decode escapes, join implicit concatenation and keep bytes apart") {
  CHECK(dump_of("'a\\tb' 'c'\n") == "[(Expr (Constant 'a\\tbc'))]");
  CHECK(dump_of("r'a\\tb'\n") == "[(Expr (Constant 'a\\\\tb'))]");
  CHECK(dump_of("b'\\x00a'\n") == "[(Expr (Constant b'\\x00a'))]");
  CHECK(dump_of("'\\u00e9'\n") == "[(Expr (Constant '\xc3\xa9'))]");
  CHECK(errors_of("x = '\\N'\n").find("\\N{...} escapes are not supported") != std::string::npos);
  CHECK(dump_of("'''multi\nline'''\n") == "[(Expr (Constant 'multi\\nline'))]");
  CHECK(errors_of("x = b'a' 'b'\n").find("cannot mix bytes and nonbytes literals") != std::string::npos);
}

TEST_CASE("f-strings become JoinedStr with FormattedValue parts") {
  CHECK(dump_of("f'a{b!r:>{w}}c'\n") ==
        "[(Expr (JoinedStr [(Constant 'a') (FormattedValue (Name b Load from_source) 114 (JoinedStr [(Constant "
        "'>') (FormattedValue (Name w Load from_source) -1 None)])) (Constant 'c')]))]");
  CHECK(dump_of("f'{{x}}'\n") == "[(Expr (JoinedStr [(Constant '{x}')]))]");
}

TEST_CASE("numbers of every Python form") {
  CHECK(dump_of("0x1F, 0o17, 0b101, 1_000, 1.5e-7, 3j, 10.\n") ==
        "[(Expr (Tuple [(Constant 31) (Constant 15) (Constant 5) (Constant 1000) (Constant 1.5e-07) (Constant 3j) "
        "(Constant 10.0)] Load))]");
  CHECK(dump_of("0xFFFFFFFFFFFFFFFFFFFF\n") == "[(Expr (Constant 1208925819614629174706175))]");
  CHECK(errors_of("x = 0777\n").find("leading zeros") != std::string::npos);
}

TEST_CASE("every node carries the span of its source text") {
  auto p = parse("x = foo(a, b=2)\n");
  REQUIRE(!p->sink.has_errors());
  const auto& assign = p->first()->as<ast::Assign>();
  const auto& call = assign.value->as<ast::Call>();
  CHECK(assign.span.begin == 0);
  CHECK(call.span.begin == 4);
  CHECK(call.span.end == 15);
  CHECK(call.keywords[0]->span.begin == 11);
  CHECK(call.args[0]->span.begin == 8);
}

TEST_CASE("syntax errors are reported with position, every one of them") {
  std::string e = errors_of("def f(x)\n  return x\n\ny = (1 +\n");
  CHECK(e.find("t.py:1:") != std::string::npos);
  CHECK(e.find("error:") != std::string::npos);
  CHECK(errors_of("x = 1\n").empty());
}

TEST_CASE("constructs outside the subset are rejected at the user's line") {
  // A generator is Python (AutoGraph leaves it unconverted); yield outside a def is not.
  CHECK(errors_of("def g():\n  x = yield 1\n  yield from x\n").empty());
  CHECK(errors_of("yield 1\n").find("t.py:1:1: error: 'yield' outside function") != std::string::npos);
  CHECK(errors_of("async def g():\n  pass\n").find("t.py:1:1: error: async functions are not supported") !=
        std::string::npos);
  CHECK(errors_of("if (n := 1):\n  pass\n").find("assignment expressions (:=) are not supported") != std::string::npos);
  CHECK(errors_of("break\n").find("'break' outside loop") != std::string::npos);
  CHECK(errors_of("return 1\n").find("'return' outside function") != std::string::npos);
  CHECK(errors_of("def f(a, a): pass\n").find("duplicate argument 'a'") != std::string::npos);
  CHECK(errors_of("def f(a=1, b): pass\n").find("non-default argument follows default argument") != std::string::npos);
  CHECK(errors_of("f(a=1, b)\n").find("positional argument follows keyword argument") != std::string::npos);
}

TEST_CASE("input that is not UTF-8 text is rejected before parsing") {
  CHECK(errors_of(std::string("x = 1\0\n", 7)).find("t.py:1:6: error: source contains a NUL byte") != std::string::npos);
  CHECK(errors_of("x = '\xff'\n").find("invalid UTF-8 byte 0xff") != std::string::npos);
  CHECK(errors_of("\xEF\xBB\xBFx = 1\n").empty());
}

TEST_CASE("pathological nesting is reported, not a stack overflow") {
  std::string deep = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  std::string e = errors_of(deep);
  CHECK(e.find("nested too deeply") != std::string::npos);
}

TEST_CASE("an if with 3000 elif clauses is refused, as CPython's compiler refuses it") {
  // Each elif nests in the else of the one before: CPython 3.9-3.11 stop
  // compiling near 3,000 (RecursionError) and parsing near 6,000.
  auto chain = [](int elifs) {
    std::string src = "def f(x):\n    if x == 0:\n        y = 0\n";
    for (int k = 1; k <= elifs; ++k) src += "    elif x == " + std::to_string(k) + ":\n        y = 1\n";
    return src + "    else:\n        y = 2\n    return y\n";
  };
  std::string ok = run_on_big_stack([&] { return errors_of(chain(2999)); });
  CHECK(ok.empty());
  std::string e = run_on_big_stack([&] { return errors_of(chain(20000)); });
  CHECK(e.find("t.py:6002:5: error: too many elif clauses: CPython cannot compile an if statement with 3000 or more "
               "(RecursionError: maximum recursion depth exceeded during compilation)") != std::string::npos);
}

TEST_CASE("blocks nest at most 99 deep, as in CPython's tokenizer") {
  auto nested_ifs = [](int n) {
    std::string src;
    for (int d = 0; d < n; ++d) src += std::string(static_cast<size_t>(d), ' ') + "if x:\n";
    return src + std::string(static_cast<size_t>(n), ' ') + "pass\n";
  };
  CHECK(errors_of(nested_ifs(99)).find("too many levels of indentation") == std::string::npos);
  CHECK(errors_of(nested_ifs(100)).find("t.py:101:101: error: too many levels of indentation") != std::string::npos);
}

TEST_CASE("f-strings nest at most 16 deep: past the quote kinds each level doubles the printed text") {
  auto nested = [](int n) {
    std::string s = "x";
    for (int i = 0; i < n; ++i) s = "f'{" + s + "}'";
    return "y = " + s + "\n";
  };
  CHECK(errors_of(nested(16)).empty());
  CHECK(errors_of(nested(17)).find("f-strings nested more than 16 levels deep") != std::string::npos);
}
