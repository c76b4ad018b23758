// tf.keras.layers.EinsumDense (also keras.layers.experimental.EinsumDense):
// a dense layer whose product is tf.einsum(equation, inputs, kernel), the
// kernel's and bias's shapes read off the equation as Keras 2.15's
// _analyze_einsum_string does (the three equation forms it accepts, its
// checks and texts, its bias shape from the first bias axis on). The
// projections of MultiHeadAttention (layers_multi_head_attention.cpp).
#include <algorithm>
#include <optional>
#include <regex>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/activations.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::keras {
namespace {

/// A shape as Keras's lists hold it: -1 for None.
using Dims = std::vector<int64_t>;

std::string dim_text(int64_t d) { return d < 0 ? "None" : std::to_string(d); }

Value dims_value(const Dims& dims) {
  std::vector<Value> out;
  for (int64_t d : dims) out.push_back(d < 0 ? Value() : Value(d));
  return Value::list(std::move(out));
}

/// Python's list[i], negative i from the end.
int64_t dim_at(const Dims& dims, int64_t i) {
  int64_t n = static_cast<int64_t>(dims.size());
  if (i < -n || i >= n) throw IndexError("list index out of range");
  return dims[static_cast<size_t>(i < 0 ? i + n : i)];
}

bool has_char(const std::string& s, char c) { return s.find(c) != std::string::npos; }

struct EinsumShapes {
  Dims kernel;
  std::optional<Dims> bias;
  Dims output;
};

/// _analyze_split_string: the weight's, bias's and full output's shapes.
EinsumShapes analyze_split(const std::string& input_spec, const std::string& weight_spec,
                           const std::string& output_spec, const std::optional<std::string>& bias_axes,
                           const Dims& input_shape, const Dims& partial_output, bool left_elided) {
  int64_t elided = static_cast<int64_t>(input_shape.size()) - static_cast<int64_t>(input_spec.size());
  Dims output = partial_output;
  output.insert(output.begin(), dim_at(input_shape, 0));
  if (elided > 0 && left_elided) {
    // Keras inserts each at position 1, so these land in reverse order.
    for (int64_t i = 1; i < elided; ++i) output.insert(output.begin() + 1, dim_at(input_shape, i));
  } else if (elided > 0) {
    for (int64_t i = static_cast<int64_t>(input_shape.size()) - elided; i < static_cast<int64_t>(input_shape.size()); ++i) {
      output.push_back(dim_at(input_shape, i));
    }
  }
  // Where each label's dim sits: from the end for a left ellipsis.
  auto input_index = [&](char c) {
    int64_t i = static_cast<int64_t>(input_spec.find(c));
    return left_elided ? i + elided - static_cast<int64_t>(input_shape.size()) : i;
  };
  auto output_index = [&](char c) {
    int64_t i = static_cast<int64_t>(output_spec.find(c));
    return left_elided ? i + elided : i;
  };
  for (char c : input_spec) {
    int64_t in_dim = dim_at(input_shape, input_index(c));
    if (!has_char(output_spec, c)) continue;
    int64_t out_dim = dim_at(output, output_index(c));
    if (out_dim >= 0 && out_dim != in_dim) {
      throw ValueError(std::string("Input shape and output shape do not match at shared dimension '") + c +
                       "'. Input shape is " + dim_text(in_dim) + ", and output shape is " + dim_text(out_dim) + ".");
    }
  }
  for (char c : output_spec) {
    if (!has_char(input_spec, c) && !has_char(weight_spec, c)) {
      // Keras names the output spec where it means the weight spec.
      throw ValueError(std::string("Dimension '") + c + "' was specified in the output '" + output_spec +
                       "' but has no corresponding dim in the input spec '" + input_spec + "' or weight spec '" +
                       output_spec + "'");
    }
  }
  EinsumShapes out;
  for (char c : weight_spec) {
    if (has_char(input_spec, c)) {
      out.kernel.push_back(dim_at(input_shape, input_index(c)));
    } else if (has_char(output_spec, c)) {
      out.kernel.push_back(dim_at(output, output_index(c)));
    } else {
      throw ValueError(std::string("Weight dimension '") + c + "' did not have a match in either the input spec '" +
                       input_spec + "' or the output spec '" + output_spec +
                       "'. For this layer, the weight must be fully specified.");
    }
  }
  if (bias_axes) {
    int64_t left = left_elided ? elided : 0;
    for (char c : *bias_axes) {
      if (!has_char(output_spec, c)) {
        throw ValueError(std::string("Bias dimension '") + c + "' was requested, but is not part of the output spec '" +
                         output_spec + "'");
      }
    }
    size_t first = output_spec.size();
    for (char c : *bias_axes) first = std::min(first, output_spec.find(c));
    Dims bias;
    for (size_t i = first; i < output_spec.size(); ++i) {
      bias.push_back(has_char(*bias_axes, output_spec[i]) ? dim_at(output, static_cast<int64_t>(i) + left) : 1);
    }
    if (!left_elided) {
      for (int64_t i = 0; i < elided; ++i) bias.push_back(1);
    }
    out.bias = bias;
  }
  out.output = output;
  return out;
}

/// _analyze_einsum_string: the three forms Keras accepts ("..." stands for
/// the dims an ellipsis covers), matched from the equation's start as re.match does.
EinsumShapes analyze_equation(const std::string& equation, const std::optional<std::string>& bias_axes,
                              const Dims& input_shape, const Dims& partial_output) {
  std::string dotted = std::regex_replace(equation, std::regex("\\.\\.\\."), "0");
  std::smatch m;
  auto match = [&](const char* pattern) {
    return std::regex_search(dotted, m, std::regex(pattern), std::regex_constants::match_continuous);
  };
  if (match("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)")) {
    return analyze_split(m[1], m[2], m[3], bias_axes, input_shape, partial_output, false);
  }
  if (match("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)")) {
    return analyze_split(m[1], m[2], m[3], bias_axes, input_shape, partial_output, true);
  }
  if (match("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0")) {
    return analyze_split(m[1], m[2], m[3], bias_axes, input_shape, partial_output, false);
  }
  throw ValueError("Invalid einsum equation '" + equation +
                   "'. Equations must be in the form [X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....");
}

Dims shape_dims(const Value& input_shape) {
  std::optional<Shape> s = tensor_shape_of(input_shape);
  if (!s) s = tensor_shape_of(tensor_shape_class()({input_shape}, {}));
  if (!s || !s->rank_known()) throw ValueError("EinsumDense needs an input of known rank");
  Dims out;
  for (int i = 0; i < s->rank(); ++i) out.push_back(s->dim(i) < 0 ? -1 : s->dim(i));
  return out;
}

std::vector<int64_t> weight_shape(const Value& self, const Dims& dims, const char* what) {
  for (int64_t d : dims) {
    if (d < 0) {
      throw ValueError(std::string("agc: EinsumDense's ") + what + " shape " + str(dims_value(dims)) + " of layer \"" +
                       layer_name(self) + "\" is not fully defined: give the input's dims it takes");
    }
  }
  return dims;
}

void build_einsum_dense(const Value& self, const Value& input_shape) {
  Dims partial;
  for (const Value& d : iterate(self.getattr("partial_output_shape"))) partial.push_back(d.is_none() ? -1 : d.as_int());
  Value axes = self.getattr("bias_axes");
  std::optional<std::string> bias_axes = axes.is_none() ? std::nullopt : std::optional<std::string>(str(axes));
  EinsumShapes shapes = analyze_equation(str(self.getattr("equation")), bias_axes, shape_dims(input_shape), partial);
  self.setattr("full_output_shape", dims_value(shapes.output));
  self.setattr("kernel", add_weight(self, {"kernel", weight_shape(self, shapes.kernel, "kernel"),
                                           self.getattr("kernel_initializer"), self.getattr("kernel_regularizer")}));
  self.setattr("bias", shapes.bias ? add_weight(self, {"bias", weight_shape(self, *shapes.bias, "bias"),
                                                       self.getattr("bias_initializer"), self.getattr("bias_regularizer")})
                                   : Value());
}

Value einsum_dense_config(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value config = layer_class().getattr("get_config")({self}, {});
  auto& d = config.as_dict();
  d.set(Value("output_shape"), self.getattr("partial_output_shape"));
  d.set(Value("equation"), self.getattr("equation"));
  d.set(Value("activation"), Value(activation_name(self.getattr("activation"))));
  for (const char* key : {"bias_axes", "kernel_initializer", "bias_initializer", "kernel_regularizer",
                          "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint"}) {
    d.set(Value(key), self.getattr(key));
  }
  return config;
}

}  // namespace

Value make_einsum_dense() {
  return make_layer_class(LayerDef{
      .name = "EinsumDense",
      .init_params = with_kernel_bias_params({{"equation", std::nullopt},
                                              {"output_shape", std::nullopt},
                                              {"activation", Value()},
                                              {"bias_axes", Value()}}),
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[12], a[13], a[14], a[15]);
            self.setattr("equation", a[1]);
            self.setattr("partial_output_shape", a[2].is_int() ? Value::list({a[2]}) : Value::list(iterate(a[2])));
            self.setattr("bias_axes", a[4]);
            self.setattr("activation", get_activation(a[3]));
            self.setattr("kernel_initializer", a[5]);
            self.setattr("bias_initializer", a[6]);
            self.setattr("kernel_regularizer", a[7]);
            self.setattr("bias_regularizer", a[8]);
            self.setattr("activity_regularizer", a[9]);
            self.setattr("kernel_constraint", a[10]);
            self.setattr("bias_constraint", a[11]);
          },
      .build = build_einsum_dense,
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value y = tf::einsum(str(self.getattr("equation")), a[1], self.getattr("kernel"));
            Value bias = self.getattr("bias");
            if (!bias.is_none()) y = tf::add(y, bias);
            return self.getattr("activation")({y}, {});
          },
      .methods = {native_method("EinsumDense.get_config", "get_config", {{"self", std::nullopt}}, einsum_dense_config)},
      .config = {},
  });
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_EinsumDense() {
  static const Value cls = keras::make_einsum_dense();
  return cls;
}

}  // namespace ag::tf::api
