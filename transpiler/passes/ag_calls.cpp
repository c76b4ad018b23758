#include "transpiler/passes/ag_calls.h"

namespace agc::passes {

using namespace ast;

Ref ag_call(const char* function, Refs args, SourceSpan span) {
  auto attr = make<Attribute>(span);
  attr->value = name("ag__", ExprContext::Load, span);
  attr->attr = function;
  attr->ctx = ExprContext::Load;
  auto call = make<Call>(span);
  call->func = attr;
  call->args = std::move(args);
  return call;
}

}  // namespace agc::passes
