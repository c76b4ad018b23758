// Keras 2's compile_utils containers; see compile_utils.h.
#include "runtime/keras/compile_utils.h"

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/core/error.h"
#include "runtime/keras/metrics.h"
#include "runtime/value/convert.h"
#include "runtime/value/iteration.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::keras {
namespace {

Value make_losses_container_class() {
  auto init = [](const std::vector<Value>& a) {
    a[0].setattr("_agc_fn", a[1]);
    a[0].setattr("_agc_identifier", a[2]);
    a[0].setattr("_agc_tracker", a[3]);
    return Value();
  };
  auto call = [](const std::vector<Value>& a) -> Value {
    const Value &self = a[0], &y = a[1], &y_pred = a[2];
    std::vector<Value> terms;
    Value fn = self.getattr("_agc_fn");
    if (!fn.is_none()) {
      if (y.is_none()) {
        throw ValueError("Target data is missing. Your model was compiled with loss=" +
                         str(self.getattr("_agc_identifier")) +
                         ", and therefore expects target data to be provided in `fit()`.");
      }
      terms.push_back(fn({y, y_pred}, {{"sample_weight", a[3]}}));
    }
    if (!a[4].is_none()) {
      for (const Value& l : iterate(a[4])) terms.push_back(l);
    }
    if (terms.empty()) return tf::zeros(Value::tuple({}));
    Value total = terms.size() == 1 ? terms[0] : tf::api::add_n({Value::list(terms)}, {});
    const Value& rows = y.is_none() ? y_pred : y;
    Value batch = tf::cast(tf::api::gather({tf::api::shape({rows}, {}), Value(0)}, {}), DType::Float32);
    self.getattr("_agc_tracker").getattr("update_state")({total}, {{"sample_weight", batch}});
    return total;
  };
  return make_class(
      "LossesContainer", {},
      {{"__init__", make_function("LossesContainer.__init__",
                                  {{"self", std::nullopt}, {"fn", std::nullopt}, {"identifier", std::nullopt},
                                   {"tracker", std::nullopt}},
                                  init)},
       {"__call__", make_function("LossesContainer.__call__",
                                  {{"self", std::nullopt},
                                   {"y_true", std::nullopt},
                                   {"y_pred", std::nullopt},
                                   {"sample_weight", Value()},
                                   {"regularization_losses", Value()}},
                                  call)}});
}

const Value& losses_container_class() {
  static const Value cls = make_losses_container_class();
  return cls;
}

Value make_metrics_container_class() {
  auto update = [](const std::vector<Value>& a) -> Value {
    const Value &self = a[0], &y = a[1], &y_pred = a[2];
    Value made = self.getattr("_agc_made");
    if (made.is_none()) {
      std::vector<Value> metrics;
      Shape ys = y.is_none() ? Shape::unknown_rank() : to_tensor(y).shape();
      Shape ps = to_tensor(y_pred).shape();
      for (const Value& id : iterate(self.getattr("_agc_ids"))) metrics.push_back(compile_metric(id, ys, ps));
      made = Value::list(std::move(metrics));
      self.setattr("_agc_made", made);
    }
    for (const Value& m : iterate(made)) m.getattr("update_state")({y, y_pred}, {{"sample_weight", a[3]}});
    return Value();
  };
  return make_class(
      "MetricsContainer", {},
      {{"__init__", make_function("MetricsContainer.__init__", {{"self", std::nullopt}, {"metrics", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    a[0].setattr("_agc_ids", a[1]);
                                    a[0].setattr("_agc_made", Value());
                                    return Value();
                                  })},
       {"update_state", make_function("MetricsContainer.update_state",
                                      {{"self", std::nullopt},
                                       {"y_true", std::nullopt},
                                       {"y_pred", std::nullopt},
                                       {"sample_weight", Value()}},
                                      update)},
       {"metrics", make_property(Value::callable("metrics", [](std::vector<Value> args, Kwargs) -> Value {
          Value made = args.at(0).getattr("_agc_made");
          return made.is_none() ? Value::list() : Value::list(iterate(made));
        }))}});
}

const Value& metrics_container_class() {
  static const Value cls = make_metrics_container_class();
  return cls;
}

}  // namespace

Value losses_container(const Value& fn, const Value& identifier, const Value& tracker) {
  return losses_container_class()({fn, identifier, tracker}, {});
}

Value metrics_container(const Value& identifiers) { return metrics_container_class()({identifiers}, {}); }

std::optional<std::vector<Value>> built_metrics(const Value& container) {
  Value made = container.getattr("_agc_made");
  if (made.is_none()) return std::nullopt;
  return iterate(made);
}

}  // namespace ag::keras
