// String ops (see families.h): StringJoin, AsString, StringToNumber,
// StringLength and StringFormat (what tf.print and tf.strings.format build).
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::check_dtype;

/// StringJoin's output shape: scalars broadcast, every other input must have
/// one shape (TF's kernel: "Input shapes do not match: [2] vs. [3]").
Shape join_shape(const InferContext& c) {
  bool have = false;
  Shape out;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    check_dtype(c, i, DType::String);
    const Shape& s = c.inputs[i].shape;
    if (s.rank() == 0 || !s.rank_known()) continue;
    if (!have) {
      out = s;
      have = true;
      continue;
    }
    if (!out.is_compatible_with(s)) {
      throw InvalidArgumentError("Input shapes do not match: " + out.debug_string() + " vs. " + s.debug_string());
    }
    for (int d = 0; d < s.rank(); ++d) {
      if (out.dim(d) < 0) out.set_dim(d, s.dim(d));
    }
  }
  if (!have) {
    for (const TensorSpec& in : c.inputs) {
      if (!in.shape.rank_known()) return Shape::unknown_rank();
    }
  }
  return out;
}

/// absl::StrSplit(text, delimiter): an empty delimiter splits between characters.
std::vector<std::string> split_template(const std::string& text, const std::string& delim) {
  std::vector<std::string> parts;
  if (delim.empty()) {
    if (text.empty()) return {""};
    for (char ch : text) parts.emplace_back(1, ch);
    return parts;
  }
  size_t start = 0;
  for (;;) {
    size_t at = text.find(delim, start);
    if (at == std::string::npos) break;
    parts.push_back(text.substr(start, at - start));
    start = at + delim.size();
  }
  parts.push_back(text.substr(start));
  return parts;
}

/// The printf format AsString uses, checked as TF's kernel constructor checks it.
std::string as_string_format(DType t, const Attrs& a) {
  int64_t precision = a.get_or<int64_t>("precision", -1);
  bool scientific = a.get_or<bool>("scientific", false);
  bool shortest = a.get_or<bool>("shortest", false);
  int64_t width = a.get_or<int64_t>("width", -1);
  std::string fill = a.get_or<std::string>("fill", "");
  bool floating = is_floating(t);
  if (!floating) {
    if (scientific || shortest) {
      throw InvalidArgumentError(std::string("scientific and shortest format not supported for datatype ") +
                                 dtype_tf_string(t));
    }
    if (precision >= 0) {
      throw InvalidArgumentError(std::string("precision not supported for datatype ") + dtype_tf_string(t));
    }
  }
  if (fill.size() > 1) throw InvalidArgumentError("Fill string must be one or fewer characters");
  if (scientific && shortest) throw InvalidArgumentError("Cannot select both scientific and shortest notation");
  if (!fill.empty() && std::string(" +-0#").find(fill[0]) == std::string::npos) {
    throw InvalidArgumentError("Fill argument not supported: \"" + fill + "\"");
  }
  if (width > 1000000 || precision > 1000000) throw InvalidArgumentError("AsString width or precision too large");
  std::string f = "%";
  if (width > -1) f += fill + std::to_string(width);
  if (precision > -1) f += "." + std::to_string(precision);
  if (floating) f += shortest ? "g" : scientific ? "e" : "f";
  else if (t == DType::Int64) f += "lld";
  else if (t == DType::String) f += "s";
  else f += "d";
  return f;
}

template <class... Args>
std::string printf_string(const std::string& fmt, Args... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  int n = std::snprintf(nullptr, 0, fmt.c_str(), args...);
  std::string out(static_cast<size_t>(n < 0 ? 0 : n), '\0');
  if (n > 0) std::snprintf(out.data(), out.size() + 1, fmt.c_str(), args...);
#pragma GCC diagnostic pop
  return out;
}

std::string_view trim_spaces(std::string_view s) {
  auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

/// TF's safe_strtof/safe_strtod: spaces around, sign, decimal or scientific,
/// hex integers ("0xF"), nan/inf in any case; overflow gives +-inf.
template <class T>
bool parse_float(std::string_view s, T& out) {
  s = trim_spaces(s);
  bool neg = false;
  std::string_view body = s;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (iequals(body, "nan")) {
    out = neg ? -std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::quiet_NaN();
    return true;
  }
  if (iequals(body, "inf") || iequals(body, "infinity")) {
    out = neg ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    return true;
  }
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    uint64_t v = 0;
    auto r = std::from_chars(body.data() + 2, body.data() + body.size(), v, 16);
    if (r.ptr != body.data() + body.size()) return false;
    out = static_cast<T>(r.ec == std::errc::result_out_of_range ? 1.8446744073709552e19 : static_cast<double>(v));
    if (neg) out = -out;
    return true;
  }
  if (body.empty() || body[0] == '+' || body[0] == '-') return false;
  T probe;
  auto r = std::from_chars(body.data(), body.data() + body.size(), probe);
  if (r.ptr != body.data() + body.size()) return false;
  std::string text(s);  // strtof/strtod round correctly and give +-inf on overflow
  if constexpr (std::is_same_v<T, float>) {
    out = std::strtof(text.c_str(), nullptr);
  } else {
    out = std::strtod(text.c_str(), nullptr);
  }
  return true;
}

/// TF's safe_strto32/64: spaces around, optional sign, decimal digits, no overflow.
template <class T>
bool parse_int(std::string_view s, T& out) {
  s = trim_spaces(s);
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s[0] == '+') return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out, 10);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

int64_t utf8_length(const std::string& s) {
  int64_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

}  // namespace

void register_string_ops(OpRegistry& reg) {
  // StringJoin(inputs: N * string) -> string; attr separator. Scalars broadcast.
  reg.op("StringJoin")
      .tf_signature("inputs: N * string -> output: string")
      .inputs(0, -1)
      .infer([](const InferContext& c) { return std::vector<TensorSpec>{{DType::String, join_shape(c)}}; })
      .cpu([](const KernelSpec& s) {
        std::string sep = s.attrs.get_or<std::string>("separator", "");
        return Kernel([sep](KernelContext& k) {
          // Checked again per call: while tracing, dims may have been unknown.
          Shape shape;
          bool have = false;
          for (const Tensor* in : k.inputs) {
            if (in->rank() == 0) continue;
            if (have && !(in->shape() == shape)) {
              throw InvalidArgumentError("Input shapes do not match: " + shape.debug_string() + " vs. " +
                                         in->shape().debug_string());
            }
            shape = in->shape();
            have = true;
          }
          Tensor& out = k.allocate_output(0, DType::String, shape);
          std::string* o = out.data<std::string>();
          int64_t n = out.num_elements();
          for (int64_t i = 0; i < n; ++i) {
            std::string r;
            for (size_t j = 0; j < k.inputs.size(); ++j) {
              const Tensor& in = *k.inputs[j];
              if (j > 0) r += sep;
              r += in.data<std::string>()[in.rank() == 0 ? 0 : i];
            }
            o[i] = std::move(r);
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // AsString(input: T) -> string; attrs precision, scientific, shortest, width, fill.
  reg.op("AsString")
      .tf_signature("input: T -> output: string")
      .inputs(1)
      .infer([](const InferContext& c) {
        as_string_format(c.inputs[0].dtype, c.attrs);
        return std::vector<TensorSpec>{{DType::String, c.inputs[0].shape}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.inputs[0].dtype;
        std::string fmt = as_string_format(t, s.attrs);
        return Kernel([t, fmt](KernelContext& k) {
          const Tensor& in = k.input(0);
          Tensor& out = k.allocate_output(0, DType::String, in.shape());
          std::string* o = out.data<std::string>();
          int64_t n = in.num_elements();
          dispatch_dtype(t, [&]<class T>() {
            const T* x = in.data<T>();
            for (int64_t i = 0; i < n; ++i) {
              if constexpr (std::is_same_v<T, bool>) {
                o[i] = x[i] ? "true" : "false";
              } else if constexpr (std::is_same_v<T, std::string>) {
                o[i] = printf_string(fmt, x[i].c_str());
              } else if constexpr (std::is_same_v<T, bfloat16>) {
                o[i] = printf_string(fmt, static_cast<double>(static_cast<float>(x[i])));
              } else if constexpr (std::is_floating_point_v<T>) {
                o[i] = printf_string(fmt, static_cast<double>(x[i]));
              } else if constexpr (std::is_same_v<T, int64_t>) {
                o[i] = printf_string(fmt, static_cast<long long>(x[i]));
              } else {
                o[i] = printf_string(fmt, static_cast<int>(x[i]));
              }
            }
          });
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // StringToNumber(string_tensor: string) -> out_type (float32 by default).
  reg.op("StringToNumber")
      .tf_signature("string_tensor: string -> output: out_type")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        DType t = c.attrs.get_or<DType>("out_type", DType::Float32);
        kernels::check_allowed(c.op, t,
                               {bit(DType::Float32) | bit(DType::Float64) |
                                    bit(DType::Int32) | bit(DType::Int64),
                                "float, double, int32, int64, uint32, uint64"},
                               "out_type");
        return std::vector<TensorSpec>{{t, c.inputs[0].shape}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          const Tensor& in = k.input(0);
          Tensor& out = k.allocate_output(0, t, in.shape());
          const std::string* x = in.data<std::string>();
          int64_t n = in.num_elements();
          auto fill = [&]<class T>(auto parse) {
            T* o = out.data<T>();
            for (int64_t i = 0; i < n; ++i) {
              if (!parse(x[i], o[i])) {
                throw InvalidArgumentError("StringToNumberOp could not correctly convert string: " + x[i]);
              }
            }
          };
          switch (t) {
            case DType::Float32: fill.operator()<float>(parse_float<float>); break;
            case DType::Float64: fill.operator()<double>(parse_float<double>); break;
            case DType::Int32: fill.operator()<int32_t>(parse_int<int32_t>); break;
            default: fill.operator()<int64_t>(parse_int<int64_t>); break;
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // StringLength(input: string) -> int32; attr unit "BYTE" | "UTF8_CHAR".
  reg.op("StringLength")
      .tf_signature("input: string -> output: int32")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        std::string unit = c.attrs.get_or<std::string>("unit", "BYTE");
        if (unit != "BYTE" && unit != "UTF8_CHAR") {
          throw InvalidArgumentError("Value for attr 'unit' of \"" + unit +
                                     "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"");
        }
        return std::vector<TensorSpec>{{DType::Int32, c.inputs[0].shape}};
      })
      .cpu([](const KernelSpec& s) {
        bool chars = s.attrs.get_or<std::string>("unit", "BYTE") == "UTF8_CHAR";
        return Kernel([chars](KernelContext& k) {
          const Tensor& in = k.input(0);
          Tensor& out = k.allocate_output(0, DType::Int32, in.shape());
          const std::string* x = in.data<std::string>();
          int32_t* o = out.data<int32_t>();
          for (int64_t i = 0; i < in.num_elements(); ++i) {
            o[i] = static_cast<int32_t>(chars ? utf8_length(x[i]) : static_cast<int64_t>(x[i].size()));
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // StringFormat(inputs: T...) -> string scalar; attrs template, placeholder, summarize.
  reg.op("StringFormat")
      .tf_signature("inputs: T[] -> output: string")
      .inputs(0, -1)
      .infer([](const InferContext& c) {
        auto parts = split_template(c.attrs.get_or<std::string>("template", "%s"),
                                    c.attrs.get_or<std::string>("placeholder", "%s"));
        if (parts.size() - 1 != c.inputs.size()) {
          throw InvalidArgumentError("num placeholders in template and num inputs must match: " +
                                     std::to_string(parts.size() - 1) + " vs. " + std::to_string(c.inputs.size()));
        }
        return std::vector<TensorSpec>{{DType::String, Shape{}}};
      })
      .cpu([](const KernelSpec& s) {
        auto parts = split_template(s.attrs.get_or<std::string>("template", "%s"),
                                    s.attrs.get_or<std::string>("placeholder", "%s"));
        int summarize = static_cast<int>(s.attrs.get_or<int64_t>("summarize", 3));
        return Kernel([parts, summarize](KernelContext& k) {
          std::string msg = parts[0];
          for (size_t i = 0; i < k.inputs.size(); ++i) {
            msg += tf_print_format(*k.inputs[i], summarize);
            msg += parts[i + 1];
          }
          Tensor& out = k.allocate_output(0, DType::String, Shape{});
          *out.data<std::string>() = std::move(msg);
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
}

}  // namespace ag
