#include "runtime/core/variable.h"

#include <atomic>
#include <unordered_map>

#include "runtime/core/error.h"

namespace ag {
namespace {

struct LiveVariables {
  std::mutex mu;
  std::unordered_map<int64_t, std::weak_ptr<Variable>> by_id;
};

LiveVariables& live() {
  static LiveVariables* l = new LiveVariables();  // outlives static destructors of variables
  return *l;
}

std::atomic<int64_t> g_next_id{1};

}  // namespace

std::shared_ptr<Variable> Variable::create(const Tensor& initial, std::string name) {
  return create(initial, std::move(name), initial.shape());
}

std::shared_ptr<Variable> Variable::create(const Tensor& initial, std::string name, const Shape& shape) {
  if (!initial.defined()) throw ValueError("A variable needs an initial value");
  if (!shape.is_compatible_with(initial.shape())) {
    throw ValueError("The initial value's shape (" + initial.shape().str() +
                     ") is not compatible with the explicitly supplied `shape` argument (" + shape.str() + ").");
  }
  std::shared_ptr<Variable> v(new Variable());
  v->id_ = g_next_id.fetch_add(1);
  v->name_ = std::move(name);
  v->dtype_ = initial.dtype();
  v->shape_ = shape;
  v->value_ = initial;
  std::lock_guard<std::mutex> lock(live().mu);
  live().by_id[v->id_] = v;
  return v;
}

std::shared_ptr<Variable> Variable::create_uninitialized(DType dtype, const Shape& shape, std::string name) {
  std::shared_ptr<Variable> v(new Variable());
  v->id_ = g_next_id.fetch_add(1);
  v->name_ = std::move(name);
  v->dtype_ = dtype;
  v->shape_ = shape;
  v->in_graph_ = true;
  std::lock_guard<std::mutex> lock(live().mu);
  live().by_id[v->id_] = v;
  return v;
}

std::shared_ptr<Variable> Variable::lookup(int64_t id) {
  std::lock_guard<std::mutex> lock(live().mu);
  auto it = live().by_id.find(id);
  std::shared_ptr<Variable> v = it == live().by_id.end() ? nullptr : it->second.lock();
  if (!v) throw NotFoundError("Resource variable " + std::to_string(id) + " does not exist (it was destroyed)");
  return v;
}

Variable::~Variable() {
  std::lock_guard<std::mutex> lock(live().mu);
  live().by_id.erase(id_);
}

namespace {
[[noreturn]] void throw_uninitialized(const std::string& name) {
  throw FailedPreconditionError("Error while reading resource variable " + name +
                                " from Container: localhost. This could mean that the variable was uninitialized. "
                                "Not found: Resource localhost/" + name + "/N10tensorflow3VarE does not exist.");
}
}  // namespace

bool Variable::initialized() const {
  std::lock_guard<std::mutex> lock(mu_);
  return value_.defined();
}

Tensor Variable::read() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!value_.defined()) throw_uninitialized(name_);
  return value_;
}

void Variable::assign(const Tensor& value) {
  if (value.dtype() != dtype_) {
    throw InvalidArgumentError(std::string("Trying to assign variable with wrong dtype. Expected ") +
                               dtype_tf_string(dtype_) + " got " + dtype_tf_string(value.dtype()));
  }
  if (!shape_.is_compatible_with(value.shape())) {
    throw InvalidArgumentError("Trying to assign to variable with tensor with wrong shape. Expected " +
                               shape_.debug_string() + " got " + value.shape().debug_string());
  }
  std::lock_guard<std::mutex> lock(mu_);
  value_ = value;
}

void Variable::update(const std::function<void(Tensor& value)>& f) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!value_.defined()) throw_uninitialized(name_);
  f(value_);
}

}  // namespace ag
