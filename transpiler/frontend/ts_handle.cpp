#include "transpiler/frontend/ts_handle.h"

#include <cstring>
#include <string>
#include <unordered_map>

#include "transpiler/base/check.h"

namespace agc::frontend {
namespace {

const std::unordered_map<std::string_view, Sym>& named_symbols() {
  static const std::unordered_map<std::string_view, Sym> m = {
      {"module", Sym::Module}, {"block", Sym::Block}, {"comment", Sym::Comment}, {"ERROR", Sym::Error},
      {"expression_statement", Sym::ExpressionStatement}, {"assignment", Sym::Assignment},
      {"augmented_assignment", Sym::AugmentedAssignment}, {"return_statement", Sym::ReturnStatement},
      {"pass_statement", Sym::PassStatement}, {"break_statement", Sym::BreakStatement},
      {"continue_statement", Sym::ContinueStatement}, {"delete_statement", Sym::DeleteStatement},
      {"raise_statement", Sym::RaiseStatement}, {"assert_statement", Sym::AssertStatement},
      {"global_statement", Sym::GlobalStatement}, {"nonlocal_statement", Sym::NonlocalStatement},
      {"import_statement", Sym::ImportStatement}, {"import_from_statement", Sym::ImportFromStatement},
      {"future_import_statement", Sym::FutureImportStatement}, {"if_statement", Sym::IfStatement},
      {"elif_clause", Sym::ElifClause}, {"else_clause", Sym::ElseClause},
      {"while_statement", Sym::WhileStatement}, {"for_statement", Sym::ForStatement},
      {"try_statement", Sym::TryStatement}, {"except_clause", Sym::ExceptClause},
      {"except_group_clause", Sym::ExceptGroupClause}, {"finally_clause", Sym::FinallyClause},
      {"with_statement", Sym::WithStatement}, {"with_clause", Sym::WithClause}, {"with_item", Sym::WithItem},
      {"function_definition", Sym::FunctionDefinition}, {"class_definition", Sym::ClassDefinition},
      {"decorated_definition", Sym::DecoratedDefinition}, {"decorator", Sym::Decorator},
      {"match_statement", Sym::MatchStatement}, {"print_statement", Sym::PrintStatement},
      {"exec_statement", Sym::ExecStatement}, {"type_alias_statement", Sym::TypeAliasStatement},
      {"identifier", Sym::Identifier}, {"integer", Sym::Integer}, {"float", Sym::Float}, {"true", Sym::True},
      {"false", Sym::False}, {"none", Sym::None}, {"ellipsis", Sym::Ellipsis}, {"string", Sym::String},
      {"concatenated_string", Sym::ConcatenatedString}, {"string_start", Sym::StringStart},
      {"string_content", Sym::StringContent}, {"string_end", Sym::StringEnd},
      {"interpolation", Sym::Interpolation}, {"format_specifier", Sym::FormatSpecifier},
      {"format_expression", Sym::FormatExpression}, {"type_conversion", Sym::TypeConversion},
      {"escape_interpolation", Sym::EscapeInterpolation}, {"attribute", Sym::Attribute},
      {"subscript", Sym::Subscript}, {"slice", Sym::Slice}, {"call", Sym::Call},
      {"argument_list", Sym::ArgumentList}, {"keyword_argument", Sym::KeywordArgument},
      {"list_splat", Sym::ListSplat}, {"dictionary_splat", Sym::DictionarySplat},
      {"parenthesized_list_splat", Sym::ParenthesizedListSplat}, {"binary_operator", Sym::BinaryOperator},
      {"unary_operator", Sym::UnaryOperator}, {"not_operator", Sym::NotOperator},
      {"boolean_operator", Sym::BooleanOperator}, {"comparison_operator", Sym::ComparisonOperator},
      {"conditional_expression", Sym::ConditionalExpression}, {"lambda", Sym::Lambda},
      {"lambda_parameters", Sym::LambdaParameters}, {"parenthesized_expression", Sym::ParenthesizedExpression},
      {"tuple", Sym::Tuple}, {"list", Sym::List}, {"set", Sym::Set}, {"dictionary", Sym::Dictionary},
      {"pair", Sym::Pair}, {"list_comprehension", Sym::ListComprehension},
      {"set_comprehension", Sym::SetComprehension}, {"dictionary_comprehension", Sym::DictionaryComprehension},
      {"generator_expression", Sym::GeneratorExpression}, {"for_in_clause", Sym::ForInClause},
      {"if_clause", Sym::IfClause}, {"await", Sym::Await}, {"yield", Sym::Yield},
      {"named_expression", Sym::NamedExpression}, {"expression_list", Sym::ExpressionList},
      {"pattern_list", Sym::PatternList}, {"tuple_pattern", Sym::TuplePattern},
      {"list_pattern", Sym::ListPattern}, {"list_splat_pattern", Sym::ListSplatPattern},
      {"dictionary_splat_pattern", Sym::DictionarySplatPattern}, {"as_pattern", Sym::AsPattern},
      {"as_pattern_target", Sym::AsPatternTarget}, {"type", Sym::Type}, {"parameters", Sym::Parameters},
      {"default_parameter", Sym::DefaultParameter}, {"typed_parameter", Sym::TypedParameter},
      {"typed_default_parameter", Sym::TypedDefaultParameter}, {"keyword_separator", Sym::KeywordSeparator},
      {"positional_separator", Sym::PositionalSeparator}, {"dotted_name", Sym::DottedName},
      {"aliased_import", Sym::AliasedImport}, {"relative_import", Sym::RelativeImport},
      {"import_prefix", Sym::ImportPrefix}, {"wildcard_import", Sym::WildcardImport},
      {"type_parameter", Sym::TypeParameter}, {"line_continuation", Sym::LineContinuation},
  };
  return m;
}

TSFieldId field(const TSLanguage* lang, const char* name) {
  TSFieldId id = ts_language_field_id_for_name(lang, name, static_cast<uint32_t>(std::strlen(name)));
  AGC_CHECK(id != 0) << "grammar has no field '" << name << "'";
  return id;
}

}  // namespace

Grammar::Grammar() : language_(tree_sitter_python()) {
  uint32_t count = ts_language_symbol_count(language_);
  table_.assign(count, Sym::Other);
  const auto& names = named_symbols();
  for (uint32_t s = 0; s < count; ++s) {
    auto sym = static_cast<TSSymbol>(s);
    // Anonymous tokens share names with nodes (e.g. "lambda", "type"); only named
    // symbols and the ERROR symbol map to node kinds.
    if (ts_language_symbol_type(language_, sym) != TSSymbolTypeRegular) continue;
    auto it = names.find(ts_language_symbol_name(language_, sym));
    if (it != names.end()) table_[s] = it->second;
  }
  table_.resize(std::max<size_t>(count, 65536), Sym::Other);
  table_[static_cast<TSSymbol>(-1)] = Sym::Error;  // ts_builtin_sym_error
  Fields& f = fields_;
  f.left = field(language_, "left");
  f.right = field(language_, "right");
  f.type = field(language_, "type");
  f.operator_ = field(language_, "operator");
  f.condition = field(language_, "condition");
  f.consequence = field(language_, "consequence");
  f.alternative = field(language_, "alternative");
  f.body = field(language_, "body");
  f.name = field(language_, "name");
  f.parameters = field(language_, "parameters");
  f.return_type = field(language_, "return_type");
  f.value = field(language_, "value");
  f.alias = field(language_, "alias");
  f.module_name = field(language_, "module_name");
  f.arguments = field(language_, "arguments");
  f.function = field(language_, "function");
  f.object = field(language_, "object");
  f.attribute = field(language_, "attribute");
  f.subscript = field(language_, "subscript");
  f.argument = field(language_, "argument");
  f.key = field(language_, "key");
  f.expression = field(language_, "expression");
  f.format_specifier = field(language_, "format_specifier");
  f.type_conversion = field(language_, "type_conversion");
  f.definition = field(language_, "definition");
  f.cause = field(language_, "cause");
  f.superclasses = field(language_, "superclasses");
  f.type_parameters = field(language_, "type_parameters");
  f.operators = field(language_, "operators");
}

const Grammar& Grammar::get() {
  static const Grammar g;
  return g;
}

namespace {

// One walk over the children with a cursor: ts_node_child(n, i) starts from the
// first child on every call, which made long blocks quadratic.
template <class Keep>
std::vector<TSNode> collect_children(TSNode n, Keep keep) {
  std::vector<TSNode> out;
  out.reserve(ts_node_child_count(n));
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode k = ts_tree_cursor_current_node(&c);
      if (keep(k)) out.push_back(k);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

}  // namespace

std::vector<TSNode> children(TSNode n, bool named_only) {
  return collect_children(n, [named_only](TSNode k) { return !named_only || ts_node_is_named(k); });
}

std::vector<TSNode> code_children(TSNode n) {
  const Grammar& g = Grammar::get();
  return collect_children(n, [&g](TSNode k) {
    if (!ts_node_is_named(k)) return false;
    Sym s = g.sym(k);
    return s != Sym::Comment && s != Sym::LineContinuation;
  });
}

}  // namespace agc::frontend
