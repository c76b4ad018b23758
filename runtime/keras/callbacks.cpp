// tf.keras.callbacks; see callbacks.h. Texts and rules are Keras 2.15's
// (callbacks.py): EarlyStopping's mode "auto" (max for names ending in acc,
// accuracy or auc), its min_delta sign, its "Epoch N: early stopping" and
// "Restoring model weights ..." lines; LearningRateScheduler's
// schedule(epoch, lr) with the schedule(epoch) fallback and its message.
#include "runtime/keras/callbacks.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "runtime/api/py_sys.h"
#include "runtime/api/python_api.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

using Body = std::function<Value(const std::vector<Value>&)>;

Value hook(const std::string& qualname, std::vector<Param> params, Body body) {
  params.insert(params.begin(), Param{"self", std::nullopt});
  return make_function(qualname, std::move(params), std::move(body));
}

Value no_op(const std::vector<Value>&) { return Value(); }

Value dict_get(const Value& dict, const std::string& key) {
  if (!dict.is_dict()) return Value();
  for (const auto& [k, v] : dict.as_dict().entries) {
    if (k.is_str() && k.as_str() == key) return v;
  }
  return Value();
}

Value make_callback_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back({"__init__", hook("Callback.__init__", {}, [](const std::vector<Value>& a) {
                     a[0].setattr("model", Value());
                     a[0].setattr("params", Value::dict());
                     a[0].setattr("validation_data", Value());
                     return Value();
                   })});
  attrs.push_back({"set_model", hook("Callback.set_model", {{"model", std::nullopt}}, [](const std::vector<Value>& a) {
                     a[0].setattr("model", a[1]);
                     return Value();
                   })});
  attrs.push_back({"set_params", hook("Callback.set_params", {{"params", std::nullopt}}, [](const std::vector<Value>& a) {
                     a[0].setattr("params", a[1]);
                     return Value();
                   })});
  for (const char* name : {"on_epoch_begin", "on_epoch_end", "on_batch_begin", "on_batch_end", "on_test_batch_begin",
                           "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end"}) {
    attrs.push_back({name, hook(std::string("Callback.") + name, {{"index", std::nullopt}, {"logs", Value()}}, no_op)});
  }
  // The train batch hooks forward to on_batch_begin/end, as Keras's do.
  attrs.push_back({"on_train_batch_begin",
                   hook("Callback.on_train_batch_begin", {{"batch", std::nullopt}, {"logs", Value()}},
                        [](const std::vector<Value>& a) { return a[0].getattr("on_batch_begin")({a[1], a[2]}, {}); })});
  attrs.push_back({"on_train_batch_end",
                   hook("Callback.on_train_batch_end", {{"batch", std::nullopt}, {"logs", Value()}},
                        [](const std::vector<Value>& a) { return a[0].getattr("on_batch_end")({a[1], a[2]}, {}); })});
  for (const char* name : {"on_train_begin", "on_train_end", "on_test_begin", "on_test_end", "on_predict_begin",
                           "on_predict_end"}) {
    attrs.push_back({name, hook(std::string("Callback.") + name, {{"logs", Value()}}, no_op)});
  }
  return make_class("Callback", {}, std::move(attrs));
}

/// History's model, held weakly: the model holds its History (model.history),
/// and Python's collector frees that cycle where reference counts cannot.
struct HistoryState : NativeState {
  WeakValue model;
};

HistoryState& history_state(const Value& self) {
  ObjectObj& o = self.as_object();
  if (auto* s = dynamic_cast<HistoryState*>(o.native.get())) return *s;
  auto s = std::make_shared<HistoryState>();
  o.native = s;
  return *s;
}

Value make_history_class() {
  return make_class(
      "History", {callback_class()},
      {{"__init__", hook("History.__init__", {}, [](const std::vector<Value>& a) {
          a[0].setattr("params", Value::dict());
          a[0].setattr("validation_data", Value());
          a[0].setattr("history", Value::dict());
          a[0].setattr("epoch", Value::list());
          return Value();
        })},
       {"model", make_property(Value::callable("model", [](std::vector<Value> args, Kwargs) -> Value {
          return history_state(args.at(0)).model.lock();
        }))},
       {"set_model", hook("History.set_model", {{"model", std::nullopt}}, [](const std::vector<Value>& a) {
          history_state(a[0]).model = WeakValue(a[1]);
          return Value();
        })},
       {"on_train_begin", hook("History.on_train_begin", {{"logs", Value()}}, [](const std::vector<Value>& a) {
          a[0].setattr("epoch", Value::list());
          return Value();
        })},
       {"on_epoch_end", hook("History.on_epoch_end", {{"epoch", std::nullopt}, {"logs", Value()}},
                             [](const std::vector<Value>& a) {
                               a[0].getattr("epoch").items().push_back(a[1]);
                               Value history = a[0].getattr("history");
                               if (!a[2].is_dict()) return Value();
                               for (const auto& [k, v] : a[2].as_dict().entries) {
                                 Value list = dict_get(history, k.as_str());
                                 if (list.is_none()) {
                                   list = Value::list();
                                   history.as_dict().set(k, list);
                                 }
                                 list.items().push_back(v);
                               }
                               a[0].getattr("model").setattr("history", a[0]);
                               return Value();
                             })}});
}

const Value& history_class() {
  static const Value cls = make_history_class();
  return cls;
}

// ---- EarlyStopping.

bool improved(const Value& self, double current, double reference) {
  double delta = self.getattr("min_delta").as_float();
  return truthy(self.getattr("_agc_max")) ? current - delta > reference : current - delta < reference;
}

Value make_early_stopping_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back({"__init__", hook("EarlyStopping.__init__",
                                    {{"monitor", Value("val_loss")},
                                     {"min_delta", Value(0)},
                                     {"patience", Value(0)},
                                     {"verbose", Value(0)},
                                     {"mode", Value("auto")},
                                     {"baseline", Value()},
                                     {"restore_best_weights", Value(false)},
                                     {"start_from_epoch", Value(0)}},
                                    [](const std::vector<Value>& a) {
                                      const Value& self = a[0];
                                      callback_class().getattr("__init__")({self}, {});
                                      std::string monitor = str(a[1]);
                                      std::string mode = str(a[5]);
                                      if (mode != "auto" && mode != "min" && mode != "max") {
                                        pymod::write_standard_stream(
                                            "stderr", "WARNING:tensorflow:EarlyStopping mode " + mode +
                                                          " is unknown, fallback to auto mode.\n");
                                        mode = "auto";
                                      }
                                      auto ends = [&](const std::string& s) {
                                        return monitor.size() >= s.size() &&
                                               monitor.compare(monitor.size() - s.size(), s.size(), s) == 0;
                                      };
                                      bool is_max = mode == "max" ||
                                                    (mode == "auto" && (ends("acc") || ends("accuracy") || ends("auc")));
                                      self.setattr("monitor", a[1]);
                                      self.setattr("patience", a[3]);
                                      self.setattr("verbose", a[4]);
                                      self.setattr("baseline", a[6]);
                                      // min_delta is made positive, then counts against min mode.
                                      double delta = std::fabs(a[2].as_float());
                                      self.setattr("min_delta", Value(is_max ? delta : -delta));
                                      self.setattr("restore_best_weights", Value(truthy(a[7])));
                                      self.setattr("start_from_epoch", a[8]);
                                      self.setattr("_agc_max", Value(is_max));
                                      self.setattr("wait", Value(0));
                                      self.setattr("stopped_epoch", Value(0));
                                      self.setattr("best_weights", Value());
                                      return Value();
                                    })});
  attrs.push_back({"on_train_begin", hook("EarlyStopping.on_train_begin", {{"logs", Value()}}, [](const std::vector<Value>& a) {
                     const Value& self = a[0];
                     bool is_max = truthy(self.getattr("_agc_max"));
                     double inf = std::numeric_limits<double>::infinity();
                     self.setattr("wait", Value(0));
                     self.setattr("stopped_epoch", Value(0));
                     self.setattr("best", Value(is_max ? -inf : inf));
                     self.setattr("best_weights", Value());
                     self.setattr("best_epoch", Value(0));
                     return Value();
                   })});
  attrs.push_back({"on_epoch_end", hook("EarlyStopping.on_epoch_end", {{"epoch", std::nullopt}, {"logs", Value()}},
                                        [](const std::vector<Value>& a) {
                                          const Value& self = a[0];
                                          int64_t epoch = a[1].as_int();
                                          std::string monitor = str(self.getattr("monitor"));
                                          Value current = dict_get(a[2], monitor);
                                          if (current.is_none()) {
                                            std::string keys;
                                            if (a[2].is_dict()) {
                                              for (const auto& [k, v] : a[2].as_dict().entries) keys += (keys.empty() ? "" : ",") + str(k);
                                            }
                                            pymod::write_standard_stream(
                                                "stderr", "WARNING:tensorflow:Early stopping conditioned on metric `" + monitor +
                                                              "` which is not available. Available metrics are: " + keys + "\n");
                                            return Value();
                                          }
                                          if (epoch < self.getattr("start_from_epoch").as_int()) return Value();
                                          bool restore = truthy(self.getattr("restore_best_weights"));
                                          Value model = self.getattr("model");
                                          if (restore && self.getattr("best_weights").is_none()) {
                                            self.setattr("best_weights", model.getattr("get_weights")({}, {}));
                                          }
                                          self.setattr("wait", Value(self.getattr("wait").as_int() + 1));
                                          double cur = current.as_float();
                                          if (improved(self, cur, self.getattr("best").as_float())) {
                                            self.setattr("best", Value(cur));
                                            self.setattr("best_epoch", Value(epoch));
                                            if (restore) self.setattr("best_weights", model.getattr("get_weights")({}, {}));
                                            Value baseline = self.getattr("baseline");
                                            if (baseline.is_none() || improved(self, cur, baseline.as_float())) {
                                              self.setattr("wait", Value(0));
                                            }
                                            return Value();
                                          }
                                          if (self.getattr("wait").as_int() >= self.getattr("patience").as_int() && epoch > 0) {
                                            self.setattr("stopped_epoch", Value(epoch));
                                            model.setattr("stop_training", Value(true));
                                            if (restore && !self.getattr("best_weights").is_none()) {
                                              if (self.getattr("verbose").as_int() > 0) {
                                                pymod::write_standard_stream(
                                                    "stdout", "Restoring model weights from the end of the best epoch: " +
                                                                  std::to_string(self.getattr("best_epoch").as_int() + 1) + ".\n");
                                              }
                                              model.getattr("set_weights")({self.getattr("best_weights")}, {});
                                            }
                                          }
                                          return Value();
                                        })});
  attrs.push_back({"on_train_end", hook("EarlyStopping.on_train_end", {{"logs", Value()}}, [](const std::vector<Value>& a) {
                     int64_t stopped = a[0].getattr("stopped_epoch").as_int();
                     if (stopped > 0 && a[0].getattr("verbose").as_int() > 0) {
                       pymod::write_standard_stream("stdout", "Epoch " + std::to_string(stopped + 1) + ": early stopping\n");
                     }
                     return Value();
                   })});
  return make_class("EarlyStopping", {callback_class()}, std::move(attrs));
}

// ---- LearningRateScheduler.

Value learning_rate_variable(const Value& model) {
  Value optimizer = model.getattr("optimizer");
  if (!optimizer.hasattr("_learning_rate") || !optimizer.getattr("_learning_rate").is_variable()) {
    throw ValueError("Optimizer must have a \"lr\" attribute.");
  }
  return optimizer.getattr("_learning_rate");
}

Value make_scheduler_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back({"__init__", hook("LearningRateScheduler.__init__", {{"schedule", std::nullopt}, {"verbose", Value(0)}},
                                    [](const std::vector<Value>& a) {
                                      callback_class().getattr("__init__")({a[0]}, {});
                                      a[0].setattr("schedule", a[1]);
                                      a[0].setattr("verbose", a[2]);
                                      return Value();
                                    })});
  attrs.push_back({"on_epoch_begin", hook("LearningRateScheduler.on_epoch_begin", {{"epoch", std::nullopt}, {"logs", Value()}},
                                          [](const std::vector<Value>& a) {
                                            const Value& self = a[0];
                                            Value var = learning_rate_variable(self.getattr("model"));
                                            double lr_now = host_scalar(Value(variable_value::read(var)));
                                            Value schedule = self.getattr("schedule");
                                            Value lr;
                                            try {
                                              lr = schedule({a[1], Value(lr_now)}, {});
                                            } catch (const TypeError&) {
                                              lr = schedule({a[1]}, {});
                                            }
                                            bool is_float = lr.is_float() || (lr.is_tensor() && is_floating(lr.as_tensor().dtype())) ||
                                                            (lr.is_ndarray() && is_floating(to_tensor(lr).dtype()));
                                            if (lr.is_tensor() && !is_floating(lr.as_tensor().dtype())) {
                                              throw ValueError(std::string("The dtype of `lr` Tensor should be float. Got: ") +
                                                               dtype_name(lr.as_tensor().dtype()));
                                            }
                                            if (!is_float) {
                                              throw ValueError("The output of the \"schedule\" function should be float. Got: " + str(lr));
                                            }
                                            variable_value::assign(var, Value(to_tensor(lr, DType::Float32)), variable_value::AssignOp::Assign);
                                            if (self.getattr("verbose").as_int() > 0) {
                                              pymod::write_standard_stream(
                                                  "stdout", "\nEpoch " + std::to_string(a[1].as_int() + 1) +
                                                                ": LearningRateScheduler setting learning rate to " + str(lr) + ".\n");
                                            }
                                            return Value();
                                          })});
  attrs.push_back({"on_epoch_end", hook("LearningRateScheduler.on_epoch_end", {{"epoch", std::nullopt}, {"logs", Value()}},
                                        [](const std::vector<Value>& a) {
                                          if (!a[2].is_dict()) return Value();
                                          Value var = learning_rate_variable(a[0].getattr("model"));
                                          a[2].as_dict().set(Value("lr"), Value(variable_value::read(var)).getattr("numpy")({}, {}));
                                          return Value();
                                        })});
  return make_class("LearningRateScheduler", {callback_class()}, std::move(attrs));
}

// ---- ModelCheckpoint.

/// filepath.format(epoch=epoch + 1, **logs), with Keras's KeyError text.
std::string checkpoint_path(const Value& self, int64_t epoch, const Value& logs) {
  Kwargs kwargs{{"epoch", Value(epoch + 1)}};
  if (logs.is_dict()) {
    for (const auto& [k, v] : logs.as_dict().entries) kwargs.emplace_back(str(k), v);
  }
  Value filepath = self.getattr("filepath");
  try {
    return str(filepath.getattr("format")({}, std::move(kwargs)));
  } catch (const KeyError& e) {
    throw KeyError("Failed to format this callback filepath: \"" + str(filepath) + "\". Reason: " + e.what());
  }
}

Value make_model_checkpoint_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back({"__init__", hook("ModelCheckpoint.__init__",
                                    {{"filepath", std::nullopt},
                                     {"monitor", Value("val_loss")},
                                     {"verbose", Value(0)},
                                     {"save_best_only", Value(false)},
                                     {"save_weights_only", Value(false)},
                                     {"mode", Value("auto")},
                                     {"save_freq", Value("epoch")},
                                     {"options", Value()},
                                     {"initial_value_threshold", Value()}},
                                    [](const std::vector<Value>& a) {
                                      const Value& self = a[0];
                                      callback_class().getattr("__init__")({self}, {});
                                      if (!a[7].is_str() || a[7].as_str() != "epoch") {
                                        throw UnimplementedError("agc: ModelCheckpoint supports save_freq='epoch' only");
                                      }
                                      std::string monitor = str(a[2]);
                                      std::string mode = str(a[6]);
                                      // Not EarlyStopping's rule: "acc" anywhere, or a name starting with fmeasure.
                                      bool is_max = mode == "max" ||
                                                    (mode == "auto" && (monitor.find("acc") != std::string::npos ||
                                                                        monitor.rfind("fmeasure", 0) == 0));
                                      double inf = std::numeric_limits<double>::infinity();
                                      self.setattr("filepath", Value(str(a[1])));
                                      self.setattr("monitor", a[2]);
                                      self.setattr("verbose", a[3]);
                                      self.setattr("save_best_only", Value(truthy(a[4])));
                                      self.setattr("save_weights_only", Value(truthy(a[5])));
                                      self.setattr("_agc_max", Value(is_max));
                                      self.setattr("best", a[9].is_none() ? Value(is_max ? -inf : inf) : a[9]);
                                      return Value();
                                    })});
  attrs.push_back({"on_epoch_end", hook("ModelCheckpoint.on_epoch_end", {{"epoch", std::nullopt}, {"logs", Value()}},
                                        [](const std::vector<Value>& a) {
                                          const Value& self = a[0];
                                          int64_t epoch = a[1].as_int();
                                          std::string path = checkpoint_path(self, epoch, a[2]);
                                          bool verbose = self.getattr("verbose").as_int() > 0;
                                          std::string epoch_text = "\nEpoch " + std::to_string(epoch + 1) + ": ";
                                          Value model = self.getattr("model");
                                          auto save = [&] {
                                            if (truthy(self.getattr("save_weights_only"))) {
                                              model.getattr("save_weights")({Value(path)}, {{"overwrite", Value(true)}});
                                            } else {
                                              model.getattr("save")({Value(path)}, {{"overwrite", Value(true)}});
                                            }
                                          };
                                          if (!truthy(self.getattr("save_best_only"))) {
                                            if (verbose) pymod::write_standard_stream("stdout", epoch_text + "saving model to " + path + "\n");
                                            save();
                                            return Value();
                                          }
                                          std::string monitor = str(self.getattr("monitor"));
                                          Value current = dict_get(a[2], monitor);
                                          if (current.is_none()) {
                                            pymod::write_standard_stream("stderr", "WARNING:tensorflow:Can save best model only with " +
                                                                                       monitor + " available, skipping.\n");
                                            return Value();
                                          }
                                          double cur = current.as_float();
                                          double best = self.getattr("best").as_float();
                                          bool better = truthy(self.getattr("_agc_max")) ? cur > best : cur < best;
                                          char buf[128];
                                          if (better) {
                                            std::snprintf(buf, sizeof buf, " improved from %.5f to %.5f, saving model to ", best, cur);
                                            if (verbose) pymod::write_standard_stream("stdout", epoch_text + monitor + buf + path + "\n");
                                            self.setattr("best", Value(cur));
                                            save();
                                          } else if (verbose) {
                                            std::snprintf(buf, sizeof buf, " did not improve from %.5f", best);
                                            pymod::write_standard_stream("stdout", epoch_text + monitor + buf + "\n");
                                          }
                                          return Value();
                                        })});
  return make_class("ModelCheckpoint", {callback_class()}, std::move(attrs));
}

}  // namespace

const Value& callback_class() {
  static const Value cls = make_callback_class();
  return cls;
}

Value make_history() { return history_class()({}, {}); }

CallbackList::CallbackList(const Value& model, const Value& user, const Value& history, int64_t epochs,
                           std::optional<int64_t> steps, int verbose) {
  if (!user.is_none()) {
    for (const Value& c : iterate(user)) callbacks_.push_back(c);
  }
  callbacks_.push_back(history);
  Value params = Value::dict({{Value("verbose"), Value(verbose)},
                              {Value("epochs"), Value(epochs)},
                              {Value("steps"), steps ? Value(*steps) : Value()}});
  for (const Value& c : callbacks_) {
    c.getattr("set_model")({model}, {});
    c.getattr("set_params")({params}, {});
  }
}

bool CallbackList::overrides(std::initializer_list<const char*> hooks) const {
  for (const Value& c : callbacks_) {
    for (const Value& cls : mro(c.as_object().cls)) {
      if (cls.is(callback_class())) break;
      for (const auto& [k, v] : cls.as_object().attrs) {
        for (const char* h : hooks) {
          if (k == h) return true;
        }
      }
    }
  }
  return false;
}

void CallbackList::call(const char* name, std::vector<Value> args) {
  for (const Value& c : callbacks_) c.getattr(name)(args, {});
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_callbacks_Callback() { return keras::callback_class(); }
const Value& keras_callbacks_History() { return keras::history_class(); }
const Value& keras_callbacks_EarlyStopping() {
  static const Value cls = keras::make_early_stopping_class();
  return cls;
}
const Value& keras_callbacks_ModelCheckpoint() {
  static const Value cls = keras::make_model_checkpoint_class();
  return cls;
}
const Value& keras_callbacks_LearningRateScheduler() {
  static const Value cls = keras::make_scheduler_class();
  return cls;
}

}  // namespace ag::tf::api
