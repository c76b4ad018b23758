// for_stmt: _tf_range_for_stmt, _known_len_tf_for_stmt, _tf_dataset_for_stmt and _py_for_stmt of
// AutoGraph's control_flow.py.
#include "runtime/autograph/for_stmt.h"

#include "runtime/api/data_dataset.h"
#include "runtime/api/tf_api.h"
#include "runtime/autograph/staging.h"
#include "runtime/autograph/undefined.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/iterator_ops.h"
#include "runtime/value/convert.h"
#include "runtime/value/iteration.h"

namespace ag::autograph {
namespace {

using ExtraTest = std::function<Value()>;

std::vector<std::string> with_iterate_name(const std::vector<std::string>& names) {
  std::vector<std::string> aug{"<internal iterate>"};
  aug.insert(aug.end(), names.begin(), names.end());
  return aug;
}

/// The loop test combined with extra_test: tf.cond(main, extra_test, lambda: False).
Value with_extra_test(const Value& main_test, const ExtraTest& extra_test) {
  if (!extra_test) return main_test;
  return detail::tf_cond1(main_test, extra_test, [] { return Value(false); });
}

/// The sign of a constant delta, or 0 when it is not a constant.
int const_sign(const Output& delta) {
  const Tensor* t = Graph::constant_value(delta);
  if (t == nullptr || t->num_elements() != 1) return 0;
  switch (t->dtype()) {
    case DType::Int32: return t->scalar_value<int32_t>() >= 0 ? 1 : -1;
    case DType::Int64: return t->scalar_value<int64_t>() >= 0 ? 1 : -1;
    case DType::Float32: return t->scalar_value<float>() >= 0 ? 1 : -1;
    case DType::Float64: return t->scalar_value<double>() >= 0 ? 1 : -1;
    default: return 0;
  }
}

void tf_range_for_stmt(const Output& range, const ExtraTest& extra_test, const std::function<void(const Value&)>& body,
                       const GetState& get_state, const SetState& set_state, const std::vector<std::string>& names,
                       const LoopOptions& opts) {
  const Node* node = range.node;
  const Value start(node->inputs[0]), limit(node->inputs[1]), delta(node->inputs[2]);
  const int sign = const_sign(node->inputs[2]);
  Value iterate = start;
  GetState aug_get_state = [&] {
    std::vector<Value> state = get_state();
    for (size_t i = 0; i < state.size() && i < names.size(); ++i) {
      // The target, if read after the loop, is the last iterate.
      if (names[i] == opts.iterate_names && is_undefined(state[i])) state[i] = iterate;
    }
    state.insert(state.begin(), iterate);
    return state;
  };
  SetState aug_set_state = [&](const std::vector<Value>& v) {
    iterate = v.at(0);
    set_state(std::vector<Value>(v.begin() + 1, v.end()));
  };
  auto aug_body = [&] {
    body(iterate);
    iterate = iterate + delta;
  };
  auto aug_test = [&] {
    Value main_test;
    if (sign > 0) {
      main_test = iterate < limit;
    } else if (sign < 0) {
      main_test = iterate > limit;
    } else {
      main_test = tf::logical_or(tf::logical_and(delta >= Value(0), iterate < limit),
                                 tf::logical_and(delta < Value(0), iterate > limit));
    }
    return with_extra_test(main_test, extra_test);
  };
  detail::tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state, with_iterate_name(names), opts);
}

void known_len_tf_for_stmt(const Value& iter, const ExtraTest& extra_test,
                           const std::function<void(const Value&)>& body, const GetState& get_state,
                           const SetState& set_state, const std::vector<std::string>& names,
                           const LoopOptions& opts) {
  const TensorHandle& t = iter.as_tensor();
  const Shape shape = t.shape();
  if (shape.rank_known() && shape.rank() == 0) {
    throw ValueError("len requires a non-scalar tensor, got one of shape " + shape.str());
  }
  Value n = shape.rank_known() && shape.dim(0) != kUnknownDim ? Value(shape.dim(0))
                                                             : getitem(tf::shape(iter), Value(0));
  Value index(0);
  GetState aug_get_state = [&] {
    std::vector<Value> state = get_state();
    state.insert(state.begin(), index);
    return state;
  };
  SetState aug_set_state = [&](const std::vector<Value>& v) {
    index = v.at(0);
    set_state(std::vector<Value>(v.begin() + 1, v.end()));
  };
  auto aug_body = [&] {
    TensorHandle args[] = {t, to_tensor(index), TensorHandle(Tensor::scalar<int32_t>(0))};
    body(Value(apply_op1(op::GatherV2, args, Attrs{{"batch_dims", int64_t{0}}}, "GatherV2")));
    index = index + Value(1);
  };
  auto aug_test = [&] { return with_extra_test(index < n, extra_test); };
  detail::tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state, with_iterate_name(names), opts);
}

/// _tf_dataset_for_stmt: a While over the dataset's elements, fetched through
/// the iterator ops (ops/iterator_ops.h). TF reduces over the dataset (or
/// scans it when there is an extra_test); agc's While runs the same body on
/// the same elements, in order, with a new pass each call.
void tf_dataset_for_stmt(const data::DatasetPtr& ds, const ExtraTest& extra_test,
                         const std::function<void(const Value&)>& body, const GetState& get_state,
                         const SetState& set_state, const std::vector<std::string>& names, const LoopOptions& opts) {
  const Attrs attrs{{"dataset", register_iterable(data::iterable(ds))}};
  const TensorHandle iterator = apply_op1(op::AnonymousIteratorV3, {}, attrs, "AnonymousIteratorV3");
  std::vector<Value> fetched;  // has_value, then the element's components
  auto fetch = [&] {
    fetched.clear();
    const TensorHandle in[] = {iterator};
    for (TensorHandle& h : apply_op(op::IteratorGetNextAsOptional, in, attrs, "IteratorGetNextAsOptional")) {
      fetched.emplace_back(std::move(h));
    }
  };
  fetch();
  const size_t n = fetched.size();
  GetState aug_get_state = [&] {
    std::vector<Value> state = get_state();
    state.insert(state.begin(), fetched.begin(), fetched.end());
    return state;
  };
  SetState aug_set_state = [&](const std::vector<Value>& v) {
    fetched.assign(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
    set_state(std::vector<Value>(v.begin() + static_cast<std::ptrdiff_t>(n), v.end()));
  };
  auto aug_body = [&] {
    std::vector<TensorHandle> components;
    for (size_t i = 1; i < n; ++i) components.push_back(fetched[i].as_tensor());
    body(data::pack_handles(ds->element_spec(), components));
    fetch();
  };
  auto aug_test = [&] { return with_extra_test(fetched[0], extra_test); };
  std::vector<std::string> aug_names{"<internal has_value>"};
  for (size_t i = 1; i < n; ++i) aug_names.push_back("<internal element " + std::to_string(i - 1) + ">");
  aug_names.insert(aug_names.end(), names.begin(), names.end());
  detail::tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state, aug_names, opts);
  const TensorHandle in[] = {iterator};
  apply_op(op::DeleteIterator, in, attrs, "DeleteIterator");
}

/// _py_for_stmt over the items `next()` produces (nullopt at the end), one at
/// a time: a loop over an endless iterable can still break.
void py_for_stmt(const std::function<std::optional<Value>()>& next, const ExtraTest& extra_test,
                 const std::function<void(const Value&)>& body) {
  int64_t iterations = 1;
  auto guarded_extra_test = [&] {
    Value r = extra_test();
    try {
      return truthy(r);
    } catch (const OperatorNotAllowedInGraphError&) {
      throw NotImplementedError(
          "break and return statements which depend on a TF condition are not supported in Python for loops. Did "
          "you intend to make it a TF loop?\nSee "
          "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
          "limitations.md#consistency-of-control-flow-types for more info.");
    }
  };
  if (extra_test && !guarded_extra_test()) return;
  while (std::optional<Value> item = next()) {
    body(*item);
    detail::count_python_iteration(iterations);
    if (extra_test && !guarded_extra_test()) break;
  }
}

}  // namespace

void for_stmt(const Value& iter, const std::function<Value()>& extra_test, const std::function<void(const Value&)>& body,
              const GetState& get_state, const SetState& set_state, const std::vector<std::string>& symbol_names,
              const LoopOptions& opts) {
  if (iter.is_tensor()) {
    const TensorHandle& t = iter.as_tensor();
    if (current_graph() != nullptr) {
      if (t.symbolic() && t.output().node->op->name == "Range") {
        tf_range_for_stmt(t.output(), extra_test, body, get_state, set_state, symbol_names, opts);
      } else {
        known_len_tf_for_stmt(iter, extra_test, body, get_state, set_state, symbol_names, opts);
      }
      return;
    }
    // Eager: iterate the rows, as iter(EagerTensor) does.
    const Shape shape = t.shape();
    if (shape.rank() == 0) throw TypeError("Cannot iterate over a scalar tensor.");
    int64_t i = 0;
    py_for_stmt([&]() -> std::optional<Value> {
      if (i >= shape.dim(0)) return std::nullopt;
      return getitem(iter, Value(i++));
    }, extra_test, body);
    return;
  }
  if (data::DatasetPtr ds = api::dataset_of(iter); ds && current_graph() != nullptr) {
    tf_dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts);
    return;
  }
  Iteration items(iter);
  py_for_stmt([&] { return items.next(); }, extra_test, body);
}

}  // namespace ag::autograph
