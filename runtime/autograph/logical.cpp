#include "runtime/autograph/logical.h"

#include <optional>

#include "runtime/api/tf_api.h"
#include "runtime/autograph/staging.h"

namespace ag::autograph {

Value and_(const std::function<Value()>& a, const std::function<Value()>& b) {
  Value av = a();
  if (detail::staged(av)) return detail::tf_cond1(av, b, [&] { return av; });
  return truthy(av) ? b() : av;
}

Value or_(const std::function<Value()>& a, const std::function<Value()>& b) {
  Value av = a();
  if (detail::staged(av)) return detail::tf_cond1(av, [&] { return av; }, b);
  return truthy(av) ? av : b();
}

Value not_(const Value& a) {
  if (a.is_tensor()) return tf::logical_not(a);
  return Value(!truthy(a));
}

Value eq(const Value& a, const Value& b) {
  if (a.is_tensor() || b.is_tensor()) return tf::equal(a, b);
  return a == b;
}

Value not_eq_(const Value& a, const Value& b) { return autograph::not_(eq(a, b)); }

Value if_exp(const Value& cond, const std::function<Value()>& if_true, const std::function<Value()>& if_false,
             const std::string& expr_repr) {
  if (!detail::staged(cond)) return truthy(cond) ? if_true() : if_false();
  std::optional<Value> tv, fv;
  auto branch = [&](const std::function<Value()>& fn, std::optional<Value>& mine) {
    mine = fn();
    if (tv && fv) detail::verify_cond_var(expr_repr, *tv, *fv);
    return std::vector<Value>{*mine};
  };
  return detail::tf_cond(
      cond, [&] { return branch(if_true, tv); }, [&] { return branch(if_false, fv); }, {expr_repr})[0];
}

}  // namespace ag::autograph
