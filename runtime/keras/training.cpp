// Model.compile / fit / evaluate / predict and the steps they run, as Keras
// 2.15's training.py does them:
// - compile keeps the optimizer (a name made an object), the loss (through
//   keras.losses.get) and the metric identifiers; the metric objects are made
//   at the first step, when the targets' and outputs' shapes decide what
//   "accuracy" means (metrics.h).
// - train_step / test_step / predict_step are methods a subclass may
//   override (the Keras guide's custom train_step); fit runs train_step
//   through one tf.function per compile (Keras's make_train_function), or
//   directly with run_eagerly=True.
// - arrays are cut into batches of `batch_size` (32), the last one partial;
//   validation_split takes the last fraction before shuffling; shuffle draws a
//   new permutation each epoch (tf.random.shuffle); a tf.data.Dataset gives
//   its own batches.
// - "loss" is a Mean weighted by batch size and the metrics are running means
//   over the epoch; logs are reported in model.metrics order, then val_*.
// - callbacks run in Keras's order: the user's, then History, then the
//   progress bar (runtime/keras/progbar.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "runtime/api/py_sys.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/callbacks.h"
#include "runtime/keras/compile_utils.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/losses.h"
#include "runtime/keras/metrics.h"
#include "runtime/keras/model.h"
#include "runtime/keras/model_state.h"
#include "runtime/keras/progbar.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

// ---- compile.

/// keras.optimizers.get: a name ("adam", case-insensitive) or the optimizer itself.
Value optimizer_from(const Value& identifier) {
  if (!identifier.is_str()) {
    if (identifier.is_object()) return identifier;
    throw ValueError("Could not interpret optimizer identifier: " + str(identifier));
  }
  std::string name = identifier.as_str();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name == "sgd") return tf::api::keras_optimizers_SGD()({}, {});
  if (name == "adam") return tf::api::keras_optimizers_Adam()({}, {});
  if (name == "adamw") return tf::api::keras_optimizers_AdamW()({}, {});
  if (name == "rmsprop") return tf::api::keras_optimizers_RMSprop()({}, {});
  if (name == "adagrad") return tf::api::keras_optimizers_Adagrad()({}, {});
  throw ValueError("Unknown optimizer: '" + identifier.as_str() +
                   "'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is "
                   "included in the scope. See "
                   "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for "
                   "details.");
}

Value compile(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (!a[10].as_dict().entries.empty()) {
    std::string names;
    for (const auto& [k, v] : a[10].as_dict().entries) names += (names.empty() ? "'" : ", '") + k.as_str() + "'";
    throw TypeError("Invalid keyword argument(s) in `compile()`: ({" + names +
                    "},). Valid keyword arguments include \"cloning\", \"experimental_run_tf_function\", "
                    "\"distribute\", \"target_tensors\", or \"sample_weight_mode\".");
  }
  ModelState& state = model_state(self);
  self.setattr("optimizer", optimizer_from(a[1]));
  self.setattr("loss", a[2]);
  Value tracker = tf::api::keras_metrics_Mean()({}, {{"name", Value("loss")}});
  self.setattr("_agc_loss_tracker", tracker);
  self.setattr("_agc_compiled_loss", losses_container(a[2].is_none() ? Value() : get_loss(a[2]), a[2], tracker));
  self.setattr("_agc_compiled_metrics", metrics_container(a[3].is_none() ? Value::list() : Value::list(iterate(a[3]))));
  self.setattr("_agc_run_eagerly", Value(truthy(a[6])));
  self.setattr("stop_training", Value(false));
  state.train_function = state.test_function = state.predict_function = Value();
  return Value();
}

bool is_compiled(const Value& model) { return model.hasattr("_agc_loss_tracker"); }

void require_compiled(const Value& model) {
  if (!is_compiled(model)) {
    throw RuntimeError("You must compile your model before training/testing. Use `model.compile(optimizer, loss)`.");
  }
}

// ---- the steps.

/// (x, y, sample_weight) of a batch: a tuple of 1 to 3, or x alone.
std::tuple<Value, Value, Value> unpack(const Value& data) {
  if (data.is_tuple() || data.is_list()) {
    const std::vector<Value>& items = data.items();
    if (items.size() == 1) return {items[0], Value(), Value()};
    if (items.size() == 2) return {items[0], items[1], Value()};
    if (items.size() == 3) return {items[0], items[1], items[2]};
    throw ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, found: " +
                     str(data));
  }
  return {data, Value(), Value()};
}

/// Model.compute_loss(x, y, y_pred, sample_weight): Keras 2.15's, the
/// compiled loss container on the model's losses (regularizers, add_loss).
Value compute_loss(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value container = self.getattr("compiled_loss");
  if (self.getattr("_agc_compiled_loss").getattr("_agc_fn").is_none() && iterate(self.getattr("losses")).empty()) {
    throw ValueError("No loss found. You may have forgotten to provide a `loss` argument in the `compile()` method.");
  }
  return container({a[2], a[3], a[4]}, {{"regularization_losses", self.getattr("losses")}});
}

/// {name: result} for model.metrics.
Value metrics_result(const Value& model) {
  std::vector<std::pair<Value, Value>> out;
  for (const Value& m : iterate(model.getattr("metrics"))) {
    out.emplace_back(m.getattr("name"), m.getattr("result")({}, {}));
  }
  return Value::dict(std::move(out));
}

Value update_metrics(const Value& model, const Value& y, const Value& y_pred, const Value& sample_weight) {
  model.getattr("compiled_metrics").getattr("update_state")({y, y_pred}, {{"sample_weight", sample_weight}});
  return metrics_result(model);
}

Value train_step(const std::vector<Value>& a) {
  const Value& self = a[0];
  auto [x, y, sw] = unpack(a[1]);
  Value tape = tf::api::GradientTape()({}, {});
  tape.getattr("__enter__")({}, {});
  Value y_pred, loss;
  try {
    y_pred = self({x}, {{"training", Value(true)}});
    loss = self.getattr("compute_loss")({x, y, y_pred, sw}, {});
  } catch (...) {
    tape.getattr("__exit__")({Value(), Value(), Value()}, {});
    throw;
  }
  tape.getattr("__exit__")({Value(), Value(), Value()}, {});
  self.getattr("optimizer").getattr("minimize")({loss, self.getattr("trainable_variables")}, {{"tape", tape}});
  return update_metrics(self, y, y_pred, sw);
}

Value test_step(const std::vector<Value>& a) {
  const Value& self = a[0];
  auto [x, y, sw] = unpack(a[1]);
  Value y_pred = self({x}, {{"training", Value(false)}});
  self.getattr("compute_loss")({x, y, y_pred, sw}, {});
  return update_metrics(self, y, y_pred, sw);
}

Value predict_step(const std::vector<Value>& a) {
  auto [x, y, sw] = unpack(a[1]);
  return a[0]({x}, {{"training", Value(false)}});
}

/// model.metrics: the loss tracker, then the compiled metrics (once made).
Value metrics_property(const Value& self) {
  std::vector<Value> out;
  // Keras builds the metric containers at the first step; until then the list is empty.
  if (!is_compiled(self)) return Value::list();
  std::optional<std::vector<Value>> made = built_metrics(self.getattr("_agc_compiled_metrics"));
  if (!made) return Value::list();
  out.push_back(self.getattr("_agc_loss_tracker"));
  for (const Value& m : *made) out.push_back(m);
  return Value::list(std::move(out));
}

// ---- data.

/// Batches of the epoch: arrays sliced (shuffled or not), or a dataset's elements.
struct DataSource {
  Value x, y, sample_weight;  ///< arrays as tensors (nests allowed for x)
  Value dataset;               ///< a tf.data.Dataset, or None
  int64_t size = 0;
  int64_t batch_size = 32;

  std::optional<int64_t> steps() const {
    if (!dataset.is_none()) return std::nullopt;
    return (size + batch_size - 1) / batch_size;
  }
};

/// The model's data as tensors: a dict, or a list/tuple of arrays (several
/// inputs), element by element; anything else (an array, nested numbers) whole.
Value tensor_of(const Value& v) {
  if (v.is_none() || v.is_tensor()) return v;
  if (v.is_dict()) {
    std::vector<std::pair<Value, Value>> out;
    for (const auto& [k, item] : v.as_dict().entries) out.emplace_back(k, tensor_of(item));
    return Value::dict(std::move(out));
  }
  auto is_array = [](const Value& item) { return item.is_ndarray() || item.is_tensor(); };
  if ((v.is_list() || v.is_tuple()) && std::any_of(v.items().begin(), v.items().end(), is_array)) {
    std::vector<Value> out;
    for (const Value& item : v.items()) out.push_back(tensor_of(item));
    return v.is_list() ? Value::list(std::move(out)) : Value::tuple(std::move(out));
  }
  return Value(to_tensor(v));
}

int64_t leading_dim(const Value& v) {
  if (v.is_tensor()) return v.as_tensor().shape().rank_known() && v.as_tensor().shape().rank() > 0 ? v.as_tensor().shape().dim(0) : 0;
  if (v.is_list() || v.is_tuple()) return v.items().empty() ? 0 : leading_dim(v.items()[0]);
  if (v.is_dict()) return v.as_dict().entries.empty() ? 0 : leading_dim(v.as_dict().entries[0].second);
  return 0;
}

/// `v` (a nest of tensors) at rows `index` (gather) or [begin, end) (slice).
Value rows(const Value& v, const Value& index, int64_t begin, int64_t end) {
  if (v.is_none()) return v;
  if (v.is_list() || v.is_tuple()) {
    std::vector<Value> out;
    for (const Value& item : v.items()) out.push_back(rows(item, index, begin, end));
    return v.is_list() ? Value::list(std::move(out)) : Value::tuple(std::move(out));
  }
  if (v.is_dict()) {
    std::vector<std::pair<Value, Value>> out;
    for (const auto& [k, item] : v.as_dict().entries) out.emplace_back(k, rows(item, index, begin, end));
    return Value::dict(std::move(out));
  }
  if (!index.is_none()) return tf::gather(v, index);
  return tf::api::gather({v, tf::api::range({Value(begin), Value(end)}, {})}, {});
}

DataSource make_source(const Value& x, const Value& y, const Value& sample_weight, const Value& batch_size) {
  DataSource s;
  s.batch_size = batch_size.is_none() ? 32 : batch_size.as_int();
  if (x.is_object() && x.type_name().find("Dataset") != std::string::npos) {
    s.dataset = x;
    return s;
  }
  s.x = tensor_of(x);
  s.y = tensor_of(y);
  s.sample_weight = tensor_of(sample_weight);
  s.size = leading_dim(s.x);
  if (s.size == 0) throw ValueError("Expected input data to be non-empty.");
  if (!s.y.is_none() && leading_dim(s.y) != s.size) {
    throw ValueError("Data cardinality is ambiguous:\n  x sizes: " + std::to_string(s.size) +
                     "\n  y sizes: " + std::to_string(leading_dim(s.y)) +
                     "\nMake sure all arrays contain the same number of samples.");
  }
  return s;
}

/// fit's class_weight as a tensor indexed by class id (Keras's
/// _make_class_weight_map_fn); its keys must be 0 .. n-1.
Value class_weight_table(const Value& class_weight) {
  if (!class_weight.is_dict()) {
    throw TypeError("`class_weight` should be a dict mapping class indices to weights, got " + str(class_weight));
  }
  std::map<int64_t, Value> by_id;
  for (const auto& [k, w] : class_weight.as_dict().entries) by_id[k.is_index() ? k.as_int() : -1] = w;
  int64_t expected = 0;
  for (const auto& [id, w] : by_id) {
    if (id != expected++) {
      throw ValueError("Expected `class_weight` to be a dict with keys from 0 to one less than the number of classes, "
                       "found " + str(class_weight));
    }
  }
  std::vector<Value> weights;
  for (const auto& [id, w] : by_id) weights.push_back(w);
  return tf::constant(Value::list(std::move(weights)));
}

/// A training batch with its class weights folded into the sample weights,
/// as Keras's _class_weights_map_fn: the class of a one-hot (or
/// probability) row is its argmax, otherwise the label itself.
Value with_class_weights(const Value& batch, const Value& table) {
  auto [x, y, sw] = unpack(batch);
  if (y.is_list() || y.is_tuple() || y.is_dict()) {
    throw ValueError("`class_weight` is only supported for Models with a single output.");
  }
  const Shape& shape = y.as_tensor().shape();
  if (shape.rank() > 2) throw ValueError("`class_weight` not supported for 3+ dimensional targets.");
  Value classes = shape.rank() == 2 && shape.dim(1) > 1 ? tf::argmax(y, Value(1))
                                                        : tf::cast(tf::reshape(y, Value::tuple({Value(-1)})), DType::Int64);
  Value cw = tf::gather(table, classes);
  if (!sw.is_none()) {
    // expand_1d: rank-1 weights become columns before they multiply.
    auto column = [](const Value& t) {
      return t.as_tensor().shape().rank() == 1 ? tf::expand_dims(t, Value(1)) : t;
    };
    cw = column(sw) * column(tf::cast(cw, sw.as_tensor().dtype()));
  }
  return Value::tuple({x, y, cw});
}

/// The batches of one pass; `shuffle` draws a new order of the rows.
std::vector<Value> batches(const DataSource& s, bool shuffle) {
  std::vector<Value> out;
  if (!s.dataset.is_none()) {
    for (const Value& element : iterate(s.dataset)) out.push_back(element);
    return out;
  }
  Value order = shuffle ? tf::api::random_shuffle({tf::api::range({Value(s.size)}, {})}, {}) : Value();
  for (int64_t begin = 0; begin < s.size; begin += s.batch_size) {
    int64_t end = std::min(begin + s.batch_size, s.size);
    Value index = shuffle ? tf::api::gather({order, tf::api::range({Value(begin), Value(end)}, {})}, {}) : Value();
    std::vector<Value> parts{rows(s.x, index, begin, end)};
    if (!s.y.is_none()) parts.push_back(rows(s.y, index, begin, end));
    if (!s.sample_weight.is_none()) parts.push_back(rows(s.sample_weight, index, begin, end));
    // Keras's pack_x_y_sample_weight: x alone stays bare, unless it is a
    // list or tuple (several inputs), which becomes `(x,)` so that unpacking
    // the batch cannot read it as (x, y).
    bool bare = parts.size() == 1 && !s.x.is_list() && !s.x.is_tuple();
    out.push_back(bare ? parts[0] : Value::tuple(std::move(parts)));
  }
  return out;
}

/// A step function: the model's method run through one tf.function per
/// compile, or directly when run_eagerly.
Value step_function(const Value& model, const char* method, Value& cache) {
  // An uncompiled model (predict needs no compile) runs as a tf.function too.
  if (model.hasattr("_agc_run_eagerly") && truthy(model.getattr("_agc_run_eagerly"))) return model.getattr(method);
  if (!cache.is_none()) return cache;
  std::string m = method;
  // The model keeps this function (its state's cache), so the function holds
  // the model weakly: a strong capture would be a cycle nothing frees.
  Value body = make_function(m + "_function", {{"data", std::nullopt}},
                             [weak = WeakValue(model), m](const std::vector<Value>& a) {
                               return weak.lock().getattr(m)({a[0]}, {});
                             });
  cache = tf::api::function({body}, {{"reduce_retracing", Value(true)}});
  return cache;
}

std::vector<std::pair<std::string, double>> log_values(const Value& logs) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [k, v] : logs.as_dict().entries) {
    out.emplace_back(str(k), host_scalar(v));
  }
  return out;
}

Value logs_dict(const std::vector<std::pair<std::string, double>>& values, const std::string& prefix = "") {
  std::vector<std::pair<Value, Value>> out;
  for (const auto& [k, v] : values) out.emplace_back(Value(prefix + k), Value(v));
  return Value::dict(std::move(out));
}

std::set<std::string> stateful_names(const Value& model) {
  std::set<std::string> out;
  for (const Value& m : iterate(model.getattr("metrics"))) out.insert(str(m.getattr("name")));
  return out;
}

void reset_metrics(const Value& model) {
  for (const Value& m : iterate(model.getattr("metrics"))) m.getattr("reset_state")({}, {});
}

int verbosity(const Value& v) {
  if (v.is_str()) return 1;  // "auto"
  return static_cast<int>(v.as_int());
}

/// One evaluation pass: the logs after the last batch.
std::vector<std::pair<std::string, double>> run_test(const Value& model, const DataSource& data, int verbose,
                                                     CallbackList* callbacks) {
  reset_metrics(model);
  Value fn = step_function(model, "test_step", model_state(model).test_function);
  std::vector<Value> bs = batches(data, false);
  std::optional<Progbar> bar;
  if (verbose) bar.emplace(static_cast<int64_t>(bs.size()), verbose);
  std::vector<std::pair<std::string, double>> logs;
  if (callbacks) callbacks->call("on_test_begin", {Value::dict()});
  // As Keras, batch hooks run only when a callback overrides them, and the
  // step's results are read back only when something shows them.
  bool hooks = callbacks != nullptr && callbacks->overrides({"on_test_batch_begin", "on_test_batch_end"});
  Value raw = Value::dict();
  for (size_t i = 0; i < bs.size(); ++i) {
    if (hooks) callbacks->call("on_test_batch_begin", {Value(static_cast<int64_t>(i)), Value::dict()});
    raw = fn({bs[i]}, {});
    if (!hooks && !(bar && verbose == 1)) continue;
    logs = log_values(raw);
    if (hooks) callbacks->call("on_test_batch_end", {Value(static_cast<int64_t>(i)), logs_dict(logs)});
    if (bar && verbose == 1) {
      bar->set_stateful(stateful_names(model));
      bar->update(static_cast<int64_t>(i + 1), logs, false);
    }
  }
  logs = log_values(raw);
  if (bar) {
    bar->set_stateful(stateful_names(model));
    bar->update(static_cast<int64_t>(bs.size()), logs, true);
  }
  if (callbacks) callbacks->call("on_test_end", {logs_dict(logs)});
  return logs;
}

Value fit(const std::vector<Value>& a) {
  const Value& self = a[0];
  require_compiled(self);
  // fit(x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
  //     class_weight, sample_weight, initial_epoch, steps_per_epoch, validation_steps,
  //     validation_batch_size, validation_freq)
  Value x = a[1], y = a[2], sample_weight = a[11];
  int64_t epochs = a[4].as_int();
  int verbose = verbosity(a[5]);
  double split = a[7].as_float();
  Value validation_data = a[8];
  DataSource train = make_source(x, y, sample_weight, a[3]);
  std::optional<DataSource> val;
  if (!validation_data.is_none()) {
    auto [vx, vy, vw] = unpack(validation_data);
    val = make_source(vx, vy, vw, a[15].is_none() ? a[3] : a[15]);
  } else if (split > 0.0) {
    if (!train.dataset.is_none()) {
      throw ValueError("`validation_split` is only supported for Tensors or NumPy arrays, found following types in "
                       "the input: [" + x.type_name() + "]");
    }
    auto split_at = static_cast<int64_t>(std::floor(double(train.size) * (1.0 - split)));
    if (split_at == 0 || split_at == train.size) {
      throw ValueError("Training data contains " + std::to_string(train.size) +
                       " samples, which is not sufficient to split it into a validation and training set as specified "
                       "by `validation_split=" + str(a[7]) + "`. Either provide more data, or a different value for "
                       "the `validation_split` argument.");
    }
    DataSource v = train;
    v.x = rows(train.x, Value(), split_at, train.size);
    v.y = rows(train.y, Value(), split_at, train.size);
    v.sample_weight = rows(train.sample_weight, Value(), split_at, train.size);
    v.size = train.size - split_at;
    train.x = rows(train.x, Value(), 0, split_at);
    train.y = rows(train.y, Value(), 0, split_at);
    train.sample_weight = rows(train.sample_weight, Value(), 0, split_at);
    train.size = split_at;
    val = v;
  }
  Value class_weights = a[10].is_none() ? Value() : class_weight_table(a[10]);
  bool shuffle = truthy(a[9]);
  int64_t initial_epoch = a[12].as_int();
  std::optional<int64_t> steps = train.steps();
  Value history = make_history();
  CallbackList callbacks(self, a[6], history, epochs, steps, verbose);
  self.setattr("stop_training", Value(false));
  callbacks.call("on_train_begin", {Value::dict()});
  Value fn = step_function(self, "train_step", model_state(self).train_function);
  // As Keras, batch hooks run only when a callback overrides them, and the
  // step's results are read back only when something shows them.
  bool batch_hooks =
      callbacks.overrides({"on_train_batch_begin", "on_train_batch_end", "on_batch_begin", "on_batch_end"});
  Value epoch_logs = Value::dict();
  for (int64_t epoch = initial_epoch; epoch < epochs; ++epoch) {
    reset_metrics(self);
    callbacks.call("on_epoch_begin", {Value(epoch), Value::dict()});
    std::optional<Progbar> bar;
    if (verbose) {
      bar.emplace(steps, verbose);
      if (epochs > 1) pymod::write_standard_stream("stdout", "Epoch " + std::to_string(epoch + 1) + "/" + std::to_string(epochs) + "\n");
    }
    std::vector<std::pair<std::string, double>> logs;
    std::vector<Value> bs = batches(train, shuffle);
    int64_t step = 0;
    Value raw = Value::dict();
    for (const Value& batch : bs) {
      if (batch_hooks) callbacks.call("on_train_batch_begin", {Value(step), Value::dict()});
      raw = fn({class_weights.is_none() ? batch : with_class_weights(batch, class_weights)}, {});
      ++step;
      if (batch_hooks || (bar && verbose == 1)) {
        logs = log_values(raw);
        if (batch_hooks) callbacks.call("on_train_batch_end", {Value(step - 1), logs_dict(logs)});
        if (bar && verbose == 1) {
          bar->set_stateful(stateful_names(self));
          bar->update(step, logs, false);
        }
      }
      if (truthy(self.getattr("stop_training"))) break;
    }
    logs = log_values(raw);
    if (!steps) steps = step;
    if (bar && !bar->target()) bar->set_target(step);
    if (val && (epoch + 1) % std::max<int64_t>(a[16].as_int(), 1) == 0) {
      std::vector<std::pair<std::string, double>> val_logs = run_test(self, *val, 0, nullptr);
      for (const auto& [k, v] : val_logs) logs.emplace_back("val_" + k, v);
    }
    epoch_logs = logs_dict(logs);
    callbacks.call("on_epoch_end", {Value(epoch), epoch_logs});
    if (bar) {
      bar->set_stateful(stateful_names(self));
      bar->update(step, log_values(epoch_logs), true);
    }
    if (truthy(self.getattr("stop_training"))) break;
  }
  callbacks.call("on_train_end", {epoch_logs});
  self.setattr("history", history);
  return history;
}

Value evaluate(const std::vector<Value>& a) {
  const Value& self = a[0];
  require_compiled(self);
  // evaluate(x, y, batch_size, verbose, sample_weight, steps, callbacks, return_dict)
  DataSource data = make_source(a[1], a[2], a[5], a[3]);
  Value history = make_history();
  CallbackList callbacks(self, a[7], history, 1, data.steps(), 0);
  std::vector<std::pair<std::string, double>> logs = run_test(self, data, verbosity(a[4]), &callbacks);
  if (truthy(a[8])) return logs_dict(logs);
  if (logs.size() == 1) return Value(logs[0].second);
  std::vector<Value> out;
  for (const auto& [k, v] : logs) out.emplace_back(v);
  return Value::list(std::move(out));
}

Value predict(const std::vector<Value>& a) {
  const Value& self = a[0];
  // predict(x, batch_size, verbose, steps, callbacks)
  DataSource data = make_source(a[1], Value(), Value(), a[2]);
  Value fn = step_function(self, "predict_step", model_state(self).predict_function);
  std::vector<Value> bs = batches(data, false);
  int verbose = verbosity(a[3]);
  std::optional<Progbar> bar;
  if (verbose) bar.emplace(static_cast<int64_t>(bs.size()), verbose);
  std::vector<Value> outputs;
  for (size_t i = 0; i < bs.size(); ++i) {
    outputs.push_back(fn({bs[i]}, {}));
    if (bar && verbose == 1) bar->update(static_cast<int64_t>(i + 1), {}, false);
  }
  if (bar) bar->update(static_cast<int64_t>(bs.size()), {}, true);
  if (outputs.empty()) throw ValueError("Expected input data to be non-empty.");
  // Concatenated along the batch, as NumPy arrays (a nest of them for several outputs).
  auto concat_leaf = [&](const std::function<Value(const Value&)>& pick) {
    std::vector<Value> parts;
    for (const Value& o : outputs) parts.push_back(pick(o));
    return tf::concat(Value::list(std::move(parts)), Value(0)).getattr("numpy")({}, {});
  };
  const Value& first = outputs[0];
  if (first.is_list() || first.is_tuple()) {
    std::vector<Value> out;
    for (size_t i = 0; i < first.items().size(); ++i) {
      out.push_back(concat_leaf([i](const Value& o) { return o.items()[i]; }));
    }
    return first.is_list() ? Value::list(std::move(out)) : Value::tuple(std::move(out));
  }
  return concat_leaf([](const Value& o) { return o; });
}

}  // namespace

std::vector<std::pair<std::string, Value>> training_methods() {
  std::vector<std::pair<std::string, Value>> m;
  m.push_back({"compile", make_function("Model.compile",
                                        {{"self", std::nullopt},
                                         {"optimizer", Value("rmsprop")},
                                         {"loss", Value()},
                                         {"metrics", Value()},
                                         {"loss_weights", Value()},
                                         {"weighted_metrics", Value()},
                                         {"run_eagerly", Value()},
                                         {"steps_per_execution", Value()},
                                         {"jit_compile", Value()},
                                         {"pss_evaluation_shards", Value(0)},
                                         {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                        compile)});
  m.push_back({"fit", make_function("Model.fit",
                                    {{"self", std::nullopt},
                                     {"x", Value()},
                                     {"y", Value()},
                                     {"batch_size", Value()},
                                     {"epochs", Value(1)},
                                     {"verbose", Value("auto")},
                                     {"callbacks", Value()},
                                     {"validation_split", Value(0.0)},
                                     {"validation_data", Value()},
                                     {"shuffle", Value(true)},
                                     {"class_weight", Value()},
                                     {"sample_weight", Value()},
                                     {"initial_epoch", Value(0)},
                                     {"steps_per_epoch", Value()},
                                     {"validation_steps", Value()},
                                     {"validation_batch_size", Value()},
                                     {"validation_freq", Value(1)},
                                     {"max_queue_size", Value(10)},
                                     {"workers", Value(1)},
                                     {"use_multiprocessing", Value(false)}},
                                    fit)});
  m.push_back({"evaluate", make_function("Model.evaluate",
                                         {{"self", std::nullopt},
                                          {"x", Value()},
                                          {"y", Value()},
                                          {"batch_size", Value()},
                                          {"verbose", Value("auto")},
                                          {"sample_weight", Value()},
                                          {"steps", Value()},
                                          {"callbacks", Value()},
                                          {"return_dict", Value(false)},
                                          {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                         evaluate)});
  m.push_back({"predict", make_function("Model.predict",
                                        {{"self", std::nullopt},
                                         {"x", std::nullopt},
                                         {"batch_size", Value()},
                                         {"verbose", Value("auto")},
                                         {"steps", Value()},
                                         {"callbacks", Value()},
                                         {"max_queue_size", Value(10)},
                                         {"workers", Value(1)},
                                         {"use_multiprocessing", Value(false)}},
                                        predict)});
  m.push_back({"train_step", make_function("Model.train_step", {{"self", std::nullopt}, {"data", std::nullopt}}, train_step)});
  m.push_back({"test_step", make_function("Model.test_step", {{"self", std::nullopt}, {"data", std::nullopt}}, test_step)});
  m.push_back({"predict_step",
               make_function("Model.predict_step", {{"self", std::nullopt}, {"data", std::nullopt}}, predict_step)});
  m.push_back({"compute_loss", make_function("Model.compute_loss",
                                             {{"self", std::nullopt},
                                              {"x", Value()},
                                              {"y", Value()},
                                              {"y_pred", Value()},
                                              {"sample_weight", Value()}},
                                             compute_loss)});
  m.push_back({"compute_metrics", make_function("Model.compute_metrics",
                                                {{"self", std::nullopt},
                                                 {"x", std::nullopt},
                                                 {"y", std::nullopt},
                                                 {"y_pred", std::nullopt},
                                                 {"sample_weight", std::nullopt}},
                                                [](const std::vector<Value>& a) {
                                                  return update_metrics(a[0], a[2], a[3], a[4]);
                                                })});
  m.push_back({"reset_metrics", make_function("Model.reset_metrics", {{"self", std::nullopt}},
                                              [](const std::vector<Value>& a) {
                                                reset_metrics(a[0]);
                                                return Value();
                                              })});
  // Read through properties, not kept as attributes: a checkpoint of the
  // model does not track them (Keras's neither).
  for (const char* name : {"compiled_loss", "compiled_metrics"}) {
    m.push_back({name, make_property(Value::callable(name, [name](std::vector<Value> args, Kwargs) -> Value {
                   const Value& self = args.at(0);
                   return is_compiled(self) ? self.getattr(std::string("_agc_") + name) : Value();
                 }))});
  }
  m.push_back({"metrics", make_property(Value::callable("metrics", [](std::vector<Value> args, Kwargs) -> Value {
                 return metrics_property(args.at(0));
               }))});
  m.push_back({"metrics_names", make_property(Value::callable("metrics_names", [](std::vector<Value> args, Kwargs) -> Value {
                 std::vector<Value> names;
                 for (const Value& mt : iterate(metrics_property(args.at(0)))) names.push_back(mt.getattr("name"));
                 return Value::list(std::move(names));
               }))});
  return m;
}

}  // namespace ag::keras
