// RAII wrappers around tree-sitter's C API and the grammar's symbol and field ids,
// resolved once by name. Only frontend/ includes tree_sitter/api.h; the rest of
// agc sees agc's own AST. Uses only the API of Debian's libtree-sitter 0.20.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace agc::frontend {

/// The CST node kinds lowering distinguishes; everything else is Sym::Other.
enum class Sym : uint8_t {
  Other,
  Module, Block, Comment, Error,
  ExpressionStatement, Assignment, AugmentedAssignment, ReturnStatement, PassStatement,
  BreakStatement, ContinueStatement, DeleteStatement, RaiseStatement, AssertStatement,
  GlobalStatement, NonlocalStatement, ImportStatement, ImportFromStatement, FutureImportStatement,
  IfStatement, ElifClause, ElseClause, WhileStatement, ForStatement, TryStatement, ExceptClause,
  ExceptGroupClause, FinallyClause, WithStatement, WithClause, WithItem, FunctionDefinition,
  ClassDefinition, DecoratedDefinition, Decorator, MatchStatement, PrintStatement, ExecStatement,
  TypeAliasStatement,
  Identifier, Integer, Float, True, False, None, Ellipsis, String, ConcatenatedString,
  StringStart, StringContent, StringEnd, Interpolation, FormatSpecifier, FormatExpression,
  TypeConversion, EscapeInterpolation,
  Attribute, Subscript, Slice, Call, ArgumentList, KeywordArgument, ListSplat, DictionarySplat,
  ParenthesizedListSplat, BinaryOperator, UnaryOperator, NotOperator, BooleanOperator,
  ComparisonOperator, ConditionalExpression, Lambda, LambdaParameters, ParenthesizedExpression,
  Tuple, List, Set, Dictionary, Pair, ListComprehension, SetComprehension, DictionaryComprehension,
  GeneratorExpression, ForInClause, IfClause, Await, Yield, NamedExpression, ExpressionList,
  PatternList, TuplePattern, ListPattern, ListSplatPattern, DictionarySplatPattern, AsPattern,
  AsPatternTarget, Type, Parameters, DefaultParameter, TypedParameter, TypedDefaultParameter,
  KeywordSeparator, PositionalSeparator, DottedName, AliasedImport, RelativeImport, ImportPrefix,
  WildcardImport, TypeParameter, LineContinuation,
  kCount
};

/// Field ids of the grammar, resolved by name once per process.
struct Fields {
  TSFieldId left, right, type, operator_, condition, consequence, alternative, body, name,
      parameters, return_type, value, alias, module_name, arguments, function, object, attribute,
      subscript, argument, key, expression, format_specifier, type_conversion, definition, cause,
      superclasses, type_parameters, operators;
};

/// The Python grammar: its language object, symbol table and field ids.
class Grammar {
 public:
  static const Grammar& get();
  const TSLanguage* language() const { return language_; }
  Sym sym(TSNode n) const {
    TSSymbol s = ts_node_symbol(n);
    return s < table_.size() ? table_[s] : Sym::Other;
  }
  const Fields& fields() const { return fields_; }

 private:
  Grammar();
  const TSLanguage* language_;
  std::vector<Sym> table_;
  Fields fields_{};
};

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using ParserHandle = std::unique_ptr<TSParser, ParserDeleter>;
using TreeHandle = std::unique_ptr<TSTree, TreeDeleter>;

/// Children of a node, named or all, as a vector (CST nodes are small values).
std::vector<TSNode> children(TSNode n, bool named_only);
/// Named children minus comments and line continuations.
std::vector<TSNode> code_children(TSNode n);

}  // namespace agc::frontend
