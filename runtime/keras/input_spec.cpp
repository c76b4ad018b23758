// Keras's InputSpec checks; see input_spec.h.
#include "runtime/keras/input_spec.h"

#include "runtime/keras/layer.h"
#include "runtime/value/exception_value.h"

namespace ag::keras {

std::string shape_text(const Shape& s) {
  if (!s.rank_known()) return "None";
  std::string out = "(";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) out += ", ";
    out += s.dim(i) < 0 ? "None" : std::to_string(s.dim(i));
  }
  return out + (s.rank() == 1 ? ",)" : ")");
}

void check_input_rank(const Value& layer, const Value& x, int min_ndim, int ndim, int max_ndim) {
  if (!x.is_tensor()) return;
  const Shape& s = x.as_tensor().shape();
  if (!s.rank_known()) return;
  auto fail = [&](const std::string& what) {
    raise_before_call(layer, ValueError("Input 0 of layer \"" + layer_name(layer) +
                                        "\" is incompatible with the layer: expected " + what + ", found ndim=" +
                                        std::to_string(s.rank()) + ". Full shape received: " + shape_text(s)));
  };
  if (ndim >= 0 && s.rank() != ndim) fail("ndim=" + std::to_string(ndim));
  if (min_ndim >= 0 && s.rank() < min_ndim) fail("min_ndim=" + std::to_string(min_ndim));
  if (max_ndim >= 0 && s.rank() > max_ndim) fail("max_ndim=" + std::to_string(max_ndim));
}

void check_input_axis(const Value& layer, const Value& x, int axis, int64_t value) {
  if (!x.is_tensor()) return;
  const Shape& s = x.as_tensor().shape();
  if (!s.rank_known()) return;
  int a = axis < 0 ? axis + s.rank() : axis;
  if (a < 0 || a >= s.rank() || s.dim(a) < 0 || s.dim(a) == value) return;
  raise_before_call(layer, ValueError("Input 0 of layer \"" + layer_name(layer) +
                                      "\" is incompatible with the layer: expected axis " + std::to_string(axis) +
                                      " of input shape to have value " + std::to_string(value) +
                                      ", but received input with shape " + shape_text(s)));
}

namespace {
constexpr const char* kBeforeCallOf = "_agc_raised_before_call_of";
}  // namespace

void raise_before_call(const Value& layer, const Error& error) {
  Value raised = exception_value(error);
  raised.setattr(kBeforeCallOf, layer);
  raise_value(raised);
}

bool raised_before_call_of(const Value& raised, const Value& layer) {
  return raised.hasattr(kBeforeCallOf) && raised.getattr(kBeforeCallOf).is(layer);
}

}  // namespace ag::keras
