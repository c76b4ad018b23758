#include "transpiler/ast/dump.h"

#include "transpiler/ast/python_repr.h"

namespace agc::ast {
namespace {

const char* ctx_name(ExprContext c) {
  switch (c) {
    case ExprContext::Load: return "Load";
    case ExprContext::Store: return "Store";
    case ExprContext::Del: return "Del";
  }
  return "?";
}

void dump_into(const Ref& n, std::string& out);

void dump_list(const Refs& ns, std::string& out) {
  out += '[';
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i) out += ' ';
    if (ns[i]) dump_into(ns[i], out);
    else out += "None";
  }
  out += ']';
}

#define AGC_DUMP_ONE(f) out += ' '; dump_into(src.f, out);
#define AGC_DUMP_OPT(f) out += ' '; if (src.f) dump_into(src.f, out); else out += "None";
#define AGC_DUMP_HIDDEN(f) if (src.f) { out += " " #f "="; dump_into(src.f, out); }
#define AGC_DUMP_LIST(f) out += ' '; dump_list(src.f, out);
#define AGC_DUMP_OPTLIST(f) AGC_DUMP_LIST(f)
#define AGC_DUMP_STMTS(f) AGC_DUMP_LIST(f)
#define AGC_DUMP_STR(f) out += ' '; out += src.f.empty() ? std::string("''") : src.f;
#define AGC_DUMP_IDENT(f) out += ' '; out += src.f.empty() ? std::string("''") : src.f.str();
#define AGC_DUMP_STRS(f) out += ' '; for (const auto& s : src.f) { out += s; out += ','; }
#define AGC_DUMP_BOOL(f) if (src.f) out += " " #f;
#define AGC_DUMP_INT(f) out += ' '; out += std::to_string(src.f);
#define AGC_DUMP_CTX(f) out += ' '; out += ctx_name(src.f);
#define AGC_DUMP_BINOP(f) out += " op" + std::to_string(static_cast<int>(src.f));
#define AGC_DUMP_UNOP(f) out += " op" + std::to_string(static_cast<int>(src.f));
#define AGC_DUMP_BOOLOP(f) out += src.f == BoolOpKind::And ? " And" : " Or";
#define AGC_DUMP_CMPOPS(f) for (auto o : src.f) out += " cmp" + std::to_string(static_cast<int>(o));
#define AGC_DUMP_CONST(f) out += ' '; out += ast::repr_constant(src.f);
#define AGC_DUMP_LOOPOPTS(f) for (const auto& o : src.f) { out += " opt:" + o.key + "="; dump_into(o.value, out); }

void dump_into(const Ref& n, std::string& out) {
  out += '(';
  out += kind_name(n->kind);
  switch (n->kind) {
#define FIELD(kind, name) AGC_DUMP_##kind(name)
#define AGC_CASE(Name, Fields)                        \
  case NodeKind::Name: {                              \
    [[maybe_unused]] const auto& src = n->as<Name>(); \
    Fields break;                                     \
  }
#define AGC_STMT(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_EXPR(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_CASE(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
#undef AGC_CASE
#undef FIELD
  }
  out += ')';
}

}  // namespace

std::string dump(const Ref& n) {
  std::string out;
  if (n) dump_into(n, out);
  return out;
}

std::string dump(const Refs& ns) {
  std::string out;
  dump_list(ns, out);
  return out;
}

}  // namespace agc::ast
