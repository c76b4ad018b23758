// Text ops (see families.h): StringLower, StringUpper, StringStrip,
// (Static)RegexReplace, (Static)RegexFullMatch (RE2, as TF uses it), Substr
// and ReduceJoin, with TF's kernels' semantics and error texts.
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::check_dtype;

bool strip_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

/// A string -> string op applied to every element (the shape is kept);
/// `make(attrs)` checks the attrs and returns the element function.
using StringFn = std::function<std::string(const std::string&)>;
void elementwise_string_op(OpBuilder b, std::function<StringFn(const Attrs&)> make) {
  b.inputs(1)
      .infer([make](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        make(c.attrs);
        return std::vector<TensorSpec>{{DType::String, c.inputs[0].shape}};
      })
      .cpu([make](const KernelSpec& s) {
        StringFn f = make(s.attrs);
        return Kernel([f](KernelContext& k) {
          const Tensor& in = k.input(0);
          Tensor& out = k.allocate_output(0, DType::String, in.shape());
          const std::string* x = in.data<std::string>();
          std::string* o = out.data<std::string>();
          for (int64_t i = 0; i < in.num_elements(); ++i) o[i] = f(x[i]);
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
}

/// The encoding attr of StringLower/StringUpper: "" is ASCII case mapping;
/// TF maps "utf-8" with ICU, which agc does not have.
void check_case_encoding(const Attrs& a) {
  std::string enc = a.get_or<std::string>("encoding", "");
  if (!enc.empty()) throw UnimplementedError("agc maps case for encoding='' (ASCII) only, not '" + enc + "'");
}

/// An RE2 pattern compiled as TF's kernels compile it, or TF's error.
std::shared_ptr<RE2> compile_regex(const std::string& pattern) {
  RE2::Options opts;
  opts.set_log_errors(false);
  auto re = std::make_shared<RE2>(pattern, opts);
  if (!re->ok()) {
    throw InvalidArgumentError("Invalid pattern: " + pattern + ", error: " + re->error());
  }
  return re;
}

/// RE2::GlobalReplace / Replace; TF does not check the rewrite: an invalid
/// one ("\\1" without a group) leaves the string as it is.
std::string replace_one(const RE2& re, const std::string& s, const std::string& rewrite, bool global) {
  std::string out = s;
  if (global) RE2::GlobalReplace(&out, re, rewrite);
  else RE2::Replace(&out, re, rewrite);
  return out;
}

/// TF's string_util: a UTF-8 continuation byte.
bool utf8_trail_byte(char ch) { return (static_cast<unsigned char>(ch) & 0xC0) == 0x80; }

template <class T>
bool forward_chars(std::string_view in, T n, T* pos) {
  T counted = 0;
  const T size = static_cast<T>(in.size());
  while (counted < n && *pos < size) {
    do {
      ++*pos;
    } while (*pos < size && utf8_trail_byte(in[static_cast<size_t>(*pos)]));
    ++counted;
  }
  return counted == n;
}

template <class T>
bool back_chars(std::string_view in, T n, T* pos) {
  T counted = 0;
  while (counted < n && *pos > 0) {
    do {
      --*pos;
    } while (utf8_trail_byte(in[static_cast<size_t>(*pos)]) && *pos > 0);
    ++counted;
  }
  return counted == n;
}

/// Substr of one string: nullopt when `pos` is out of range (TF's kernel
/// then fails naming the element).
template <class T>
std::optional<std::string> substr_one(std::string_view in, T pos, T len, bool utf8) {
  T byte_pos = pos, byte_len = len;
  if (utf8) {
    if (pos >= 0) {
      byte_pos = 0;
      if (!forward_chars<T>(in, pos, &byte_pos)) return std::nullopt;
      T end = byte_pos;
      forward_chars<T>(in, len, &end);
      byte_len = end - byte_pos;
    } else {
      T end = static_cast<T>(in.size());
      T skip = -pos - len;
      if (skip < 0) skip = 0;
      if (!back_chars<T>(in, skip, &end)) return std::nullopt;
      byte_pos = end;
      if (!back_chars<T>(in, -pos - skip, &byte_pos)) return std::nullopt;
      byte_len = end - byte_pos;
    }
  } else {
    if (byte_pos < 0) byte_pos += static_cast<T>(in.size());
    if (byte_pos < 0 || static_cast<uint64_t>(byte_pos) > in.size()) return std::nullopt;
  }
  // StringPiece::substr: a negative length (as size_t) takes the rest.
  size_t n = static_cast<size_t>(byte_len);
  return std::string(in.substr(static_cast<size_t>(byte_pos), n));
}

/// Substr's output shape: pos and len alike; broadcast with the input.
Shape substr_shape(const InferContext& c) {
  check_dtype(c, 0, DType::String);
  const Shape& ps = c.inputs[1].shape;
  const Shape& ls = c.inputs[2].shape;
  if (!ps.is_compatible_with(ls)) {
    throw InvalidArgumentError("pos and len should have the same shape, got: " + ps.debug_string() + " vs. " +
                               ls.debug_string());
  }
  if (c.inputs[1].dtype != c.inputs[2].dtype) {
    throw InvalidArgumentError("cannot compute Substr as input #2(zero-based) was expected to be a " +
                               std::string(dtype_tf_string(c.inputs[1].dtype)) + " tensor but is a " +
                               dtype_tf_string(c.inputs[2].dtype) + " tensor");
  }
  kernels::check_allowed(c.op, c.inputs[1].dtype, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"});
  const Shape& in = c.inputs[0].shape;
  if (!in.rank_known() || !ps.rank_known()) return Shape::unknown_rank();
  if (ps.rank() == 0) return in;
  int rank = std::max(in.rank(), ps.rank());
  Shape out;
  for (int d = 0; d < rank; ++d) {
    int a = d - (rank - in.rank()), b = d - (rank - ps.rank());
    int64_t x = a >= 0 ? in.dim(a) : 1, y = b >= 0 ? ps.dim(b) : 1;
    if (x >= 0 && y >= 0 && x != y && x != 1 && y != 1) {
      throw InvalidArgumentError("Incompatible shapes: " + in.debug_string() + " vs. " + ps.debug_string());
    }
    out.push_back(x == 1 ? y : y == 1 ? x : (x >= 0 ? x : y));
  }
  return out;
}

/// "(i, j)" for a 2-D element, "i" otherwise: how TF's Substr errors name it.
std::string substr_index_text(const std::vector<int64_t>& idx) {
  if (idx.size() != 2) return std::to_string(idx.empty() ? 0 : idx[0]);
  return "(" + std::to_string(idx[0]) + ", " + std::to_string(idx[1]) + ")";
}

template <class T>
void substr_kernel(KernelContext& k, bool utf8) {
  const Tensor& in = k.input(0);
  const Tensor& pos = k.input(1);
  const Tensor& len = k.input(2);
  if (!(pos.shape() == len.shape())) {
    throw InvalidArgumentError("pos and len should have the same shape, got: " + pos.shape().debug_string() +
                               " vs. " + len.shape().debug_string());
  }
  bool scalar = pos.rank() == 0;
  Shape out_shape = in.shape();
  if (!scalar && !(in.shape() == pos.shape())) {
    int rank = std::max(in.rank(), pos.rank());
    out_shape = Shape{};
    for (int d = 0; d < rank; ++d) {
      int a = d - (rank - in.rank()), b = d - (rank - pos.rank());
      int64_t x = a >= 0 ? in.shape().dim(a) : 1, y = b >= 0 ? pos.shape().dim(b) : 1;
      if (x != y && x != 1 && y != 1) {
        throw InvalidArgumentError("Incompatible shapes: " + in.shape().debug_string() + " vs. " +
                                   pos.shape().debug_string());
      }
      out_shape.push_back(x == 1 ? y : x);
    }
    if (rank > 2) throw UnimplementedError("Substr broadcast not implemented for " + std::to_string(rank) + " dimensions");
  }
  Tensor& out = k.allocate_output(0, DType::String, out_shape);
  std::string* o = out.data<std::string>();
  const std::string* x = in.data<std::string>();
  const T* p = pos.data<T>();
  const T* l = len.data<T>();
  int rank = out_shape.rank();
  int64_t n = out.num_elements();
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  auto offset = [&](const Shape& s, bool same) -> int64_t {
    if (same) return 0;
    int64_t off = 0;
    for (int d = 0; d < rank; ++d) {
      int a = d - (rank - s.rank());
      if (a < 0) continue;
      off = off * s.dim(a) + (s.dim(a) == 1 ? 0 : idx[static_cast<size_t>(d)]);
    }
    return off;
  };
  bool broadcast = !(scalar || in.shape() == pos.shape());
  for (int64_t i = 0; i < n; ++i) {
    int64_t xi = broadcast ? offset(in.shape(), false) : i;
    int64_t pi = scalar ? 0 : broadcast ? offset(pos.shape(), false) : i;
    auto r = substr_one<T>(x[xi], p[pi], l[pi], utf8);
    if (!r) {
      std::string where = broadcast ? substr_index_text(idx) : std::to_string(i);
      if (utf8) throw InvalidArgumentError("pos " + std::to_string(p[pi]) + " out of range for string at index " + where);
      throw InvalidArgumentError("pos " + std::to_string(p[pi]) + " out of range for string b'" + x[xi] +
                                 "' at index " + where);
    }
    o[i] = std::move(*r);
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < out_shape.dim(d)) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

/// ReduceJoin's reduced axes (normalized), checked as TF's kernel checks them.
std::vector<int> reduce_join_axes(const Tensor& indices, int rank) {
  std::vector<int> axes;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t i = 0; i < indices.num_elements(); ++i) {
    int64_t a = indices.dtype() == DType::Int64 ? indices.data<int64_t>()[i] : indices.data<int32_t>()[i];
    int64_t r = a < 0 ? a + rank : a;
    if (r < 0 || r >= rank) {
      throw OutOfRangeError("Invalid reduction dimension " + std::to_string(a) + " for input with " +
                            std::to_string(rank) + " dimension(s)");
    }
    if (seen[static_cast<size_t>(r)]) throw InvalidArgumentError("Duplicate reduction dimension " + std::to_string(a));
    seen[static_cast<size_t>(r)] = true;
    axes.push_back(static_cast<int>(r));
  }
  return axes;
}

Shape reduce_join_shape(const Shape& in, const std::vector<int>& axes, bool keep) {
  Shape out;
  for (int d = 0; d < in.rank(); ++d) {
    bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!reduced) out.push_back(in.dim(d));
    else if (keep) out.push_back(1);
  }
  return out;
}

}  // namespace

void register_text_ops(OpRegistry& reg) {
  // StringLower/StringUpper(input: string) -> string; attr encoding.
  elementwise_string_op(reg.op("StringLower").tf_signature("input: string -> output: string"), [](const Attrs& a) -> StringFn {
    check_case_encoding(a);
    return [](const std::string& s) {
      std::string r = s;
      for (char& ch : r) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return r;
    };
  });
  elementwise_string_op(reg.op("StringUpper").tf_signature("input: string -> output: string"), [](const Attrs& a) -> StringFn {
    check_case_encoding(a);
    return [](const std::string& s) {
      std::string r = s;
      for (char& ch : r) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      return r;
    };
  });
  // StringStrip(input: string) -> string: ASCII whitespace off both ends.
  elementwise_string_op(reg.op("StringStrip").tf_signature("input: string -> output: string"), [](const Attrs&) -> StringFn {
    return [](const std::string& s) {
      size_t b = 0, e = s.size();
      while (b < e && strip_space(s[b])) ++b;
      while (e > b && strip_space(s[e - 1])) --e;
      return s.substr(b, e - b);
    };
  });
  // StaticRegexReplace(input) -> string; attrs pattern, rewrite, replace_global.
  elementwise_string_op(reg.op("StaticRegexReplace").tf_signature("input: string -> output: string"), [](const Attrs& a) -> StringFn {
    auto re = compile_regex(a.get_or<std::string>("pattern", ""));
    std::string rewrite = a.get_or<std::string>("rewrite", "");
    bool global = a.get_or<bool>("replace_global", true);
    return [re, rewrite, global](const std::string& s) { return replace_one(*re, s, rewrite, global); };
  });
  // RegexReplace(input, pattern: string scalar, rewrite: string scalar) -> string.
  reg.op("RegexReplace")
      .tf_signature("input: string, pattern: string, rewrite: string -> output: string")
      .inputs(3)
      .infer([](const InferContext& c) {
        for (size_t i = 0; i < 3; ++i) check_dtype(c, i, DType::String);
        for (size_t i = 1; i < 3; ++i) {
          const Shape& s = c.inputs[i].shape;
          if (s.rank_known() && s.rank() != 0) {
            throw InvalidArgumentError("Shape must be rank 0 but is rank " + std::to_string(s.rank()));
          }
        }
        return std::vector<TensorSpec>{{DType::String, c.inputs[0].shape}};
      })
      .cpu([](const KernelSpec& s) {
        bool global = s.attrs.get_or<bool>("replace_global", true);
        return Kernel([global](KernelContext& k) {
          const Tensor& in = k.input(0);
          // Scalars by the shape rule, unless a graph's shapes were unknown then.
          auto re = compile_regex(array::scalar_of<std::string>(k.input(1), "pattern"));
          const std::string& rewrite = array::scalar_of<std::string>(k.input(2), "rewrite");
                Tensor& out = k.allocate_output(0, DType::String, in.shape());
          for (int64_t i = 0; i < in.num_elements(); ++i) {
            out.data<std::string>()[i] = replace_one(*re, in.data<std::string>()[i], rewrite, global);
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
  // StaticRegexFullMatch(input) -> bool; attr pattern. RegexFullMatch takes it as an input.
  auto full_match = [](const RE2& re, const Tensor& in, Tensor& out) {
    for (int64_t i = 0; i < in.num_elements(); ++i) out.data<bool>()[i] = RE2::FullMatch(in.data<std::string>()[i], re);
  };
  reg.op("StaticRegexFullMatch")
      .tf_signature("input: string -> output: bool")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        compile_regex(c.attrs.get_or<std::string>("pattern", ""));
        return std::vector<TensorSpec>{{DType::Bool, c.inputs[0].shape}};
      })
      .cpu([full_match](const KernelSpec& s) {
        auto re = compile_regex(s.attrs.get_or<std::string>("pattern", ""));
        return Kernel([re, full_match](KernelContext& k) {
          full_match(*re, k.input(0), k.allocate_output(0, DType::Bool, k.input(0).shape()));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
  reg.op("RegexFullMatch")
      .tf_signature("input: string, pattern: string -> output: bool")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        check_dtype(c, 1, DType::String);
        const Shape& s = c.inputs[1].shape;
        if (s.rank_known() && s.rank() != 0) {
          throw InvalidArgumentError("Shape must be rank 0 but is rank " + std::to_string(s.rank()));
        }
        return std::vector<TensorSpec>{{DType::Bool, c.inputs[0].shape}};
      })
      .cpu([full_match](const KernelSpec&) {
        return Kernel([full_match](KernelContext& k) {
          auto re = compile_regex(array::scalar_of<std::string>(k.input(1), "pattern"));
          full_match(*re, k.input(0), k.allocate_output(0, DType::Bool, k.input(0).shape()));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
  // Substr(input: string, pos: T, len: T) -> string; attr unit BYTE | UTF8_CHAR.
  reg.op("Substr")
      .tf_signature("input: string, pos: T, len: T -> output: string")
      .inputs(3)
      .infer([](const InferContext& c) {
        std::string unit = c.attrs.get_or<std::string>("unit", "BYTE");
        if (unit != "BYTE" && unit != "UTF8_CHAR") {
          throw InvalidArgumentError("Value for attr 'unit' of \"" + unit +
                                     "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"");
        }
        return std::vector<TensorSpec>{{DType::String, substr_shape(c)}};
      })
      .cpu([](const KernelSpec& s) {
        bool utf8 = s.attrs.get_or<std::string>("unit", "BYTE") == "UTF8_CHAR";
        bool wide = s.inputs[1].dtype == DType::Int64;
        return Kernel([utf8, wide](KernelContext& k) {
          if (wide) substr_kernel<int64_t>(k, utf8);
          else substr_kernel<int32_t>(k, utf8);
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
  // ReduceJoin(inputs: string, reduction_indices: int32) -> string; attrs
  // keep_dims, separator. The first listed axis varies fastest in the join.
  reg.op("ReduceJoin")
      .tf_signature("inputs: string, reduction_indices: int32 -> output: string")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        const Shape& in = c.inputs[0].shape;
        const Tensor* idx = c.constant(1);
        if (idx == nullptr || !in.rank_known()) return std::vector<TensorSpec>{{DType::String, Shape::unknown_rank()}};
        auto axes = reduce_join_axes(*idx, in.rank());
        return std::vector<TensorSpec>{
            {DType::String, reduce_join_shape(in, axes, c.attrs.get_or<bool>("keep_dims", false))}};
      })
      .cpu([](const KernelSpec& s) {
        bool keep = s.attrs.get_or<bool>("keep_dims", false);
        std::string sep = s.attrs.get_or<std::string>("separator", "");
        return Kernel([keep, sep](KernelContext& k) {
          const Tensor& in = k.input(0);
          int rank = in.rank();
          std::vector<int> axes = reduce_join_axes(k.input(1), rank);
          Shape out_shape = reduce_join_shape(in.shape(), axes, keep);
          Tensor& out = k.allocate_output(0, DType::String, out_shape);
          std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
          for (int d = rank - 2; d >= 0; --d) strides[static_cast<size_t>(d)] = strides[static_cast<size_t>(d) + 1] * in.shape().dim(d + 1);
          std::vector<int> kept;
          for (int d = 0; d < rank; ++d) {
            if (std::find(axes.begin(), axes.end(), d) == axes.end()) kept.push_back(d);
          }
          int64_t reduced_count = 1;
          for (int a : axes) reduced_count *= in.shape().dim(a);
          const std::string* x = in.data<std::string>();
          std::string* o = out.data<std::string>();
          std::vector<int64_t> ki(kept.size(), 0);
          for (int64_t oi = 0; oi < out.num_elements(); ++oi) {
            int64_t base = 0;
            for (size_t j = 0; j < kept.size(); ++j) base += ki[j] * strides[static_cast<size_t>(kept[j])];
            std::string r;
            std::vector<int64_t> ri(axes.size(), 0);
            for (int64_t m = 0; m < reduced_count; ++m) {
              int64_t off = base;
              for (size_t j = 0; j < axes.size(); ++j) off += ri[j] * strides[static_cast<size_t>(axes[j])];
              if (m > 0) r += sep;
              r += x[off];
              for (size_t j = 0; j < axes.size(); ++j) {  // the first listed axis fastest
                if (++ri[j] < in.shape().dim(axes[j])) break;
                ri[j] = 0;
              }
            }
            o[oi] = std::move(r);
            for (int j = static_cast<int>(kept.size()) - 1; j >= 0; --j) {
              if (++ki[static_cast<size_t>(j)] < in.shape().dim(kept[static_cast<size_t>(j)])) break;
              ki[static_cast<size_t>(j)] = 0;
            }
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
}

}  // namespace ag
