// tf.train.CheckpointManager (TF's checkpoint/checkpoint_management.py):
// numbered saves "<directory>/<checkpoint_name>-<n>" of one tf.train.Checkpoint,
// the newest `max_to_keep` of them kept (an "active set", oldest first) and
// the rest deleted, the set recorded in the directory's "checkpoint" state
// file so that a later manager in the same directory resumes it.
//
// As in TF, a manager trusts the state file: a path it lists stays in the
// active set even when its files are gone (deleting it again is harmless),
// and only paths younger than last_preserved_timestamp are resumed, which is
// how checkpoints kept by keep_checkpoint_every_n_hours leave the set for good.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/core/tensor_bundle.h"
#include "runtime/core/variable.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

struct ManagerState : NativeState {
  Value checkpoint;
  std::string directory;
  std::string prefix;  // os.path.join(directory, checkpoint_name)
  std::optional<int64_t> max_to_keep;
  std::optional<double> keep_hours;
  Value init_fn;
  Value step_counter;
  Value checkpoint_interval;
  std::optional<int64_t> last_checkpoint_step;
  std::optional<std::string> latest;
  double last_preserved = 0;
  std::vector<std::pair<std::string, double>> maybe_delete;  // the active set, oldest first
};

ManagerState& state(const Value& self) {
  auto* s = native_state<ManagerState>(self);
  if (!s) throw TypeError("CheckpointManager method called on an object that is not a CheckpointManager");
  return *s;
}

double now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

/// An int, an integer tensor or an integer variable's value (TF's
/// training_util.global_step for a checkpoint number or step counter).
int64_t step_value(const Value& v, const char* what) {
  if (v.is_variable()) {
    Tensor t = v.as_variable()->read();
    if (t.num_elements() == 1 && t.dtype() == DType::Int64) return t.data<int64_t>()[0];
    if (t.num_elements() == 1 && t.dtype() == DType::Int32) return t.data<int32_t>()[0];
    throw TypeError(std::string("'") + what + "' must be an integer variable, got " + repr(v));
  }
  return api::int_arg(v, what);
}

/// `prefix`'s files: its .index and every .data-?????-of-????? shard.
void delete_checkpoint_files(const std::string& prefix) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove(bundle_index_file(prefix), ec);
  fs::path p(prefix);
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string stem = p.filename().string() + ".data-";
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    // stem, five characters, "-of-", five characters
    if (name.size() == stem.size() + 14 && name.compare(0, stem.size(), stem) == 0 &&
        name.compare(stem.size() + 5, 4, "-of-") == 0) {
      fs::remove(entry.path(), ec);
    }
  }
}

void record_state(const ManagerState& m) {
  CheckpointStateFile file;
  file.model_checkpoint_path = m.latest.value_or("");
  for (const auto& [path, time] : m.maybe_delete) {
    file.all_model_checkpoint_paths.push_back(path);
    file.all_model_checkpoint_timestamps.push_back(time);
  }
  file.last_preserved_timestamp = m.last_preserved;
  write_checkpoint_state(m.directory, file);
}

/// Drops the oldest of the active set beyond max_to_keep: deleted, or kept
/// on disk (but no longer listed) when keep_checkpoint_every_n_hours says so.
void sweep(ManagerState& m) {
  if (!m.max_to_keep) return;  // None keeps everything active
  while (static_cast<int64_t>(m.maybe_delete.size()) > *m.max_to_keep) {
    auto [path, time] = m.maybe_delete.front();
    m.maybe_delete.erase(m.maybe_delete.begin());
    if (m.keep_hours && *m.keep_hours != 0 && time - *m.keep_hours * 3600. >= m.last_preserved) {
      m.last_preserved = time;
      continue;
    }
    delete_checkpoint_files(path);
  }
}

Value manager_init(const std::vector<Value>& a) {
  auto m = std::make_shared<ManagerState>();
  m->checkpoint = a[1];
  if (!a[3].is_none()) {
    int64_t keep = api::int_arg(a[3], "max_to_keep");
    if (keep <= 0) {
      throw ValueError("Expected a positive integer or `None` for `max_to_keep`, got " + std::to_string(keep) + ".");
    }
    m->max_to_keep = keep;
  }
  if (!a[4].is_none()) m->keep_hours = a[4].as_float();
  m->directory = api::str_arg(a[2], "directory");
  m->prefix = (std::filesystem::path(m->directory) / api::str_arg(a[5], "checkpoint_name")).string();
  m->step_counter = a[6];
  m->checkpoint_interval = a[7];
  m->init_fn = a[8];
  if (!a[7].is_none() && a[6].is_none()) {
    throw ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.");
  }
  auto recovered = read_checkpoint_state(m->directory);
  double clock = now();
  if (!recovered) {
    // Set back slightly, as TF does, against a manager re-created at once.
    m->last_preserved = clock - 1.;
  } else {
    m->latest = recovered->model_checkpoint_path;
    m->last_preserved = std::min(recovered->last_preserved_timestamp, clock);
    std::vector<double> times = recovered->all_model_checkpoint_timestamps;
    if (times.empty()) times.assign(recovered->all_model_checkpoint_paths.size(), m->last_preserved);
    for (size_t i = 0; i < recovered->all_model_checkpoint_paths.size() && i < times.size(); ++i) {
      double t = std::min(times[i], clock);
      if (t > m->last_preserved) m->maybe_delete.emplace_back(recovered->all_model_checkpoint_paths[i], t);
    }
  }
  a[0].as_object().native = std::move(m);
  return Value();
}

Value manager_save(const std::vector<Value>& a) {
  ManagerState& m = state(a[0]);
  if (!m.checkpoint_interval.is_none()) {
    int64_t step = step_value(m.step_counter, "step_counter");
    if (m.last_checkpoint_step) {
      if (step == *m.last_checkpoint_step) return Value();
      if (truthy(a[2]) && step < *m.last_checkpoint_step + api::int_arg(m.checkpoint_interval, "checkpoint_interval")) {
        return Value();
      }
    }
    m.last_checkpoint_step = step;
  }
  // The counter goes up even when the caller numbers the checkpoint.
  Value counter = checkpoint_save_counter(m.checkpoint);
  variable_value::assign(counter, Value(Tensor::scalar<int64_t>(1)), variable_value::AssignOp::Add);
  int64_t number = step_value(a[1].is_none() ? counter : a[1], "checkpoint_number");
  std::string path = m.prefix + "-" + std::to_string(number);
  checkpoint_write(m.checkpoint, path);
  // A checkpoint saved again moves to the end of the queue.
  std::erase_if(m.maybe_delete, [&](const auto& e) { return e.first == path; });
  m.maybe_delete.emplace_back(path, now());
  m.latest = path;
  // Recorded before deleting, so a preemption mid-sweep still finds the new
  // checkpoint; then again without the deleted ones.
  record_state(m);
  sweep(m);
  record_state(m);
  return Value(path);
}

Value manager_restore_or_initialize(const std::vector<Value>& a) {
  ManagerState& m = state(a[0]);
  if (m.latest) {
    m.checkpoint.getattr("restore")({Value(*m.latest)});
    if (!m.checkpoint_interval.is_none()) m.last_checkpoint_step = step_value(m.step_counter, "step_counter");
    return Value(*m.latest);
  }
  if (!m.init_fn.is_none()) m.init_fn();
  return Value();
}

std::pair<std::string, Value> property(const char* name, Value (*get)(ManagerState&)) {
  return {name, make_property(Value::callable(std::string("CheckpointManager.") + name,
                                              [get](std::vector<Value> args, Kwargs) { return get(state(args.at(0))); }))};
}

}  // namespace

const Value& tf::api::train_CheckpointManager() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("CheckpointManager.__init__", "__init__",
                                  {self, {"checkpoint", std::nullopt}, {"directory", std::nullopt},
                                   {"max_to_keep", std::nullopt}, {"keep_checkpoint_every_n_hours", Value()},
                                   {"checkpoint_name", Value("ckpt")}, {"step_counter", Value()},
                                   {"checkpoint_interval", Value()}, {"init_fn", Value()}},
                                  manager_init));
    attrs.push_back(native_method("CheckpointManager.save", "save",
                                  {self, {"checkpoint_number", Value()}, {"check_interval", Value(true)},
                                   {"options", Value()}},
                                  manager_save));
    attrs.push_back(native_method("CheckpointManager.restore_or_initialize", "restore_or_initialize", {self},
                                  manager_restore_or_initialize));
    attrs.push_back(property("directory", [](ManagerState& m) { return Value(m.directory); }));
    attrs.push_back(property("checkpoint", [](ManagerState& m) { return m.checkpoint; }));
    attrs.push_back(property("checkpoint_interval", [](ManagerState& m) { return m.checkpoint_interval; }));
    attrs.push_back(property("latest_checkpoint", [](ManagerState& m) { return m.latest ? Value(*m.latest) : Value(); }));
    attrs.push_back(property("checkpoints", [](ManagerState& m) {
      std::vector<Value> paths;
      for (const auto& e : m.maybe_delete) paths.emplace_back(e.first);
      return Value::list(std::move(paths));
    }));
    return make_class("CheckpointManager", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace ag
