// tf.keras.callbacks: Callback (the base a program subclasses), History,
// EarlyStopping and LearningRateScheduler, and the list fit/evaluate run
// them through in Keras's order: the user's callbacks, then History (the
// progress bar is printed by the loop itself, after both).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag::keras {

/// tf.keras.callbacks.Callback (the class value).
const Value& callback_class();
/// A new History callback (fit returns it; .history, .epoch, .params).
Value make_history();

class CallbackList {
 public:
  /// `user`: None or a list of callbacks; each gets set_model and set_params
  /// ({'verbose', 'epochs', 'steps'}).
  CallbackList(const Value& model, const Value& user, const Value& history, int64_t epochs,
               std::optional<int64_t> steps, int verbose);
  /// Whether some callback's class defines one of `hooks` itself rather
  /// than taking Callback's no-op (Keras's _should_call_*_batch_hooks).
  bool overrides(std::initializer_list<const char*> hooks) const;
  /// Calls `hook` (on_epoch_end, ...) on each callback with `args`.
  void call(const char* hook, std::vector<Value> args);

 private:
  std::vector<Value> callbacks_;
};

}  // namespace ag::keras
