// AutoGraph's logical operators and conditional expression
// (operators/logical.py, operators/conditional_expressions.py). and_/or_ are
// lazy: the second operand runs only when the first does not decide, as in
// Python; with a tensor first operand while tracing they stage a tf.cond.
#pragma once

#include <functional>
#include <string>

#include "runtime/value/value.h"

namespace ag::autograph {

/// ag__.and_(lambda: a, lambda: b): Python's `a and b`.
Value and_(const std::function<Value()>& a, const std::function<Value()>& b);
/// ag__.or_(lambda: a, lambda: b): Python's `a or b`.
Value or_(const std::function<Value()>& a, const std::function<Value()>& b);
/// ag__.not_(a): tf.logical_not for a tensor, else Python's `not a`.
Value not_(const Value& a);
/// ag__.eq(a, b) (the EQUALITY_OPERATORS feature's `a == b`): tf.equal when
/// either is a tensor, else Python's ==.
Value eq(const Value& a, const Value& b);
/// ag__.not_eq(a, b): not_(eq(a, b)) (`not_eq` is a C++ keyword).
Value not_eq_(const Value& a, const Value& b);
/// ag__.if_exp(cond, lambda: x, lambda: y, 'expr'): `x if cond else y`.
Value if_exp(const Value& cond, const std::function<Value()>& if_true, const std::function<Value()>& if_false,
             const std::string& expr_repr);

}  // namespace ag::autograph
