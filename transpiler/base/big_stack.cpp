#include "transpiler/base/big_stack.h"

#include <pthread.h>

#include <utility>

namespace agc {

struct BigStackThread::State {
  std::function<void()> fn;
  std::exception_ptr failure;
  pthread_t thread{};
  bool joined = false;
};

void* BigStackThread::run(void* arg) {
  auto* s = static_cast<State*>(arg);
  try {
    s->fn();
  } catch (...) {
    s->failure = std::current_exception();
  }
  return nullptr;
}

BigStackThread::BigStackThread(std::function<void()> fn) : state_(new State{std::move(fn), nullptr}) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kBigStackBytes);
  int rc = pthread_create(&state_->thread, &attr, run, state_);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    // No thread (address space or thread limits): run here, on this stack.
    run(state_);
    state_->joined = true;
  }
}

BigStackThread::BigStackThread(BigStackThread&& o) noexcept : state_(o.state_) { o.state_ = nullptr; }

BigStackThread::~BigStackThread() {
  if (!state_) return;
  if (!state_->joined) pthread_join(state_->thread, nullptr);
  delete state_;
}

void BigStackThread::join() {
  if (!state_->joined) {
    pthread_join(state_->thread, nullptr);
    state_->joined = true;
  }
  if (state_->failure) std::rethrow_exception(std::exchange(state_->failure, nullptr));
}

}  // namespace agc
