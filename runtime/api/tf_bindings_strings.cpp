// The hand-written parts of the tf.strings.* rows of tf_functions.def.
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/ragged_tensor.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"

namespace ag::tf::impl {

using ag::api::int_arg;
using ag::api::str_arg;

Value as_string(const TfCall& c) {
  return tf::as_string(c["input"], int_arg(c["precision"], "precision"), truthy(c["scientific"]),
                       truthy(c["shortest"]), int_arg(c["width"], "width"), str_arg(c["fill"], "fill"), c.node_name());
}

Value string_to_number(const TfCall& c) {
  const Value& t = c["out_type"];
  return tf::string_to_number(c["input"], t.is_none() ? DType::Float32 : require_dtype(t), c.node_name());
}

Value string_length(const TfCall& c) {
  return tf::string_length(c["input"], str_arg(c["unit"], "unit"), c.node_name());
}

Value string_join(const TfCall& c) {
  return tf::string_join(c["inputs"], str_arg(c["separator"], "separator"), c.node_name());
}

Value string_format(const TfCall& c) {
  // TF's string_ops.string_format: a lone tensor (or variable) is wrapped in
  // a list; the placeholders are counted (Python's str.count) against
  // len(inputs) before anything is converted; then StringFormat, whose list
  // input converts each element as convert_to_tensor does.
  const std::string& tmpl = str_arg(c["template"], "template");
  const std::string& placeholder = str_arg(c["placeholder"], "placeholder");
  int64_t summarize = int_arg(c["summarize"], "summarize");
  const Value& inputs = c["inputs"];
  bool lone = inputs.is_tensor() || inputs.is_variable();
  int64_t n = lone ? 1 : len(inputs);
  int64_t count = 0;
  if (placeholder.empty()) {
    count = 1;  // Python counts "" once per character, and once more
    for (unsigned char ch : tmpl) count += (ch & 0xC0) != 0x80;
  } else {
    for (size_t at = tmpl.find(placeholder); at != std::string::npos; at = tmpl.find(placeholder, at + placeholder.size())) {
      ++count;
    }
  }
  if (count != n) {
    throw ValueError("The template expects " + std::to_string(count) + " tensors, but the inputs only has " +
                     std::to_string(n) + ". Please ensure the number of placeholders in template matches inputs length.");
  }
  std::vector<TensorHandle> tensors;
  if (lone) {
    tensors.push_back(to_tensor(inputs));
  } else if (inputs.is_list() || inputs.is_tuple()) {
    for (const Value& v : inputs.items()) tensors.push_back(to_tensor(v));
  } else if (current_graph() != nullptr) {  // op_def_library's check
    throw TypeError("Expected list for 'inputs' argument to 'StringFormat' Op, not " + str(inputs) + ".");
  } else {  // the eager fallback's check
    throw TypeError("Expected list for 'inputs' argument to 'string_format' Op, not " + repr(inputs) + ".");
  }
  return Value(apply_op1(c.op(), tensors,
                         Attrs{{"template", tmpl}, {"placeholder", placeholder}, {"summarize", summarize}},
                         c.node_name()));
}


namespace {

TensorHandle text_tensor(const Value& v) { return to_tensor(v, DType::String); }

/// Applies `f` to a tensor, or to a RaggedTensor's flat values (TF's
/// ragged dispatch for elementwise string functions).
template <class F>
Value map_flat_values(const Value& x, F f) {
  if (const RaggedParts* p = ragged_parts(x)) {
    RaggedParts out = *p;
    out.flat_values = f(p->flat_values);
    return make_ragged(std::move(out));
  }
  return Value(f(text_tensor(x)));
}

}  // namespace

Value string_case(const TfCall& c) {
  const std::string& enc = str_arg(c["encoding"], "encoding");
  return map_flat_values(c["input"], [&](const TensorHandle& t) {
    TensorHandle in[1] = {t};
    return apply_op1(c.op(), in, Attrs{{"encoding", enc}}, c.node_name());
  });
}

Value regex_replace(const TfCall& c) {
  const Value& pattern = c["pattern"];
  const Value& rewrite = c["rewrite"];
  bool global = truthy(c["replace_global"]);
  return map_flat_values(c["input"], [&](const TensorHandle& t) {
    // TF: Python strings for both make the pattern an attr (StaticRegexReplace).
    if (pattern.is_str() && rewrite.is_str()) {
      TensorHandle in[1] = {t};
      return apply_op1(op::StaticRegexReplace, in,
                       Attrs{{"pattern", pattern.as_str()}, {"rewrite", rewrite.as_str()}, {"replace_global", global}},
                       c.node_name().empty() ? "StaticRegexReplace" : c.node_name());
    }
    TensorHandle in[3] = {t, text_tensor(pattern), text_tensor(rewrite)};
    return apply_op1(op::RegexReplace, in, Attrs{{"replace_global", global}},
                     c.node_name().empty() ? "RegexReplace" : c.node_name());
  });
}

Value regex_full_match(const TfCall& c) {
  const Value& pattern = c["pattern"];
  return map_flat_values(c["input"], [&](const TensorHandle& t) {
    if (pattern.is_str()) {
      TensorHandle in[1] = {t};
      return apply_op1(op::StaticRegexFullMatch, in, Attrs{{"pattern", pattern.as_str()}},
                       c.node_name().empty() ? "StaticRegexFullMatch" : c.node_name());
    }
    TensorHandle in[2] = {t, text_tensor(pattern)};
    return apply_op1(op::RegexFullMatch, in, {}, c.node_name().empty() ? "RegexFullMatch" : c.node_name());
  });
}

Value substr(const TfCall& c) {
  const std::string& unit = str_arg(c["unit"], "unit");
  if (unit != "BYTE" && unit != "UTF8_CHAR") {
    throw ValueError("Value for attr 'unit' of \"" + unit +
                     "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"");
  }
  TensorHandle pos = to_tensor(c["pos"]);
  TensorHandle len = to_tensor(c["len"], pos.dtype());
  return map_flat_values(c["input"], [&](const TensorHandle& t) {
    TensorHandle in[3] = {t, pos, len};
    return apply_op1(c.op(), in, Attrs{{"unit", unit}}, c.node_name());
  });
}

Value reduce_join(const TfCall& c) {
  TensorHandle in = text_tensor(c["inputs"]);
  const Value& axis = c["axis"];
  auto axes_of = [&]() -> TensorHandle {
    if (!axis.is_none()) return to_tensor(axis, DType::Int32);
    // TF reduces every axis, innermost listed first: a row-major join.
    if (!in.shape().rank_known()) throw UnimplementedError("reduce_join with axis=None needs a known rank");
    std::vector<int64_t> all;
    for (int d = in.shape().rank() - 1; d >= 0; --d) all.push_back(d);
    return common::int32_vector(all);
  };
  TensorHandle axes = axes_of();
  TensorHandle args[2] = {in, axes};
  return Value(apply_op1(c.op(), args,
                         Attrs{{"keep_dims", truthy(c["keepdims"])}, {"separator", str_arg(c["separator"], "separator")}},
                         c.node_name()));
}

Value string_split(const TfCall& c) {
  const Value& sep = c["sep"];
  int64_t maxsplit = int_arg(c["maxsplit"], "maxsplit");
  const Value& input = c["input"];
  if (ragged_parts(input) != nullptr) {
    throw UnimplementedError("agc's tf.strings.split takes a tensor, not a RaggedTensor");
  }
  common::NameScope scope(c["name"].is_none() ? "StringSplit" : c["name"].as_str());
  TensorHandle in = text_tensor(input);
  if (!in.shape().rank_known()) throw UnimplementedError("agc's tf.strings.split needs the input's rank");
  int rank = in.shape().rank();
  if (rank > 1) throw UnimplementedError("agc's tf.strings.split takes a scalar or a vector");
  TensorHandle vec = rank == 0 ? tf::reshape(Value(in), Value::list({Value(1)})).as_tensor() : in;
  TensorHandle args[2] = {vec, text_tensor(sep.is_none() ? Value("") : sep)};
  std::vector<TensorHandle> out = apply_op(c.op(), args, Attrs{{"maxsplit", maxsplit}}, "StringSplitV2");
  Value ids = getitem(Value(out[0]), std::vector<IndexPart>{IndexPart(SliceSpec{}), IndexPart(Value(0))});
  Value nrows = getitem(Value(out[2]), Value(0));
  Value rt = ragged_from_value_rowids(Value(out[1]), ids, nrows);
  if (rank == 0) return getitem(rt, Value(0));
  return rt;
}

Value string_ngrams(const TfCall& c) {
  const Value& widths_arg = c["ngram_width"];
  const Value& pad_values = c["pad_values"];
  const Value& padding_width = c["padding_width"];
  std::vector<int64_t> widths;
  if (widths_arg.is_list() || widths_arg.is_tuple()) {
    for (const Value& w : widths_arg.items()) widths.push_back(w.as_int());
  } else {
    widths.push_back(widths_arg.as_int());
  }
  std::string left, right;
  if (!pad_values.is_none()) {
    if (pad_values.is_list() || pad_values.is_tuple()) {
      if (pad_values.items().size() != 2 || !pad_values.items()[0].is_str() || !pad_values.items()[1].is_str()) {
        throw ValueError("pad_values must be a string, tuple of strings, or None.");
      }
      left = pad_values.items()[0].as_str();
      right = pad_values.items()[1].as_str();
    } else {
      if (!pad_values.is_str()) throw ValueError("pad_values must be a string, tuple of strings, or None.");
      left = right = pad_values.as_str();
    }
  }
  if (!padding_width.is_none() && padding_width.as_int() < 1) throw ValueError("padding_width must be greater than 0.");
  if (!padding_width.is_none() && pad_values.is_none()) {
    throw ValueError("pad_values must be provided if padding_width is set.");
  }
  common::NameScope scope(c["name"].is_none() ? "StringNGrams" : c["name"].as_str());
  const Value& data = c["data"];
  bool squeeze = false;
  const RaggedParts* rp = ragged_parts(data);
  if (rp != nullptr && rp->splits.size() != 1) throw UnimplementedError("agc's tf.strings.ngrams takes ragged_rank 1");
  TensorHandle values = rp != nullptr ? rp->flat_values : text_tensor(data);
  TensorHandle splits = rp != nullptr ? rp->splits[0] : values;
  if (rp == nullptr) {
    const Shape& s = values.shape();
    if (!s.rank_known()) throw ValueError("Rank of data must be known.");
    if (s.rank() == 0) throw ValueError("Data must have rank>0");
    if (s.rank() > 1) throw UnimplementedError("agc's tf.strings.ngrams takes a vector or a RaggedTensor");
    squeeze = true;
    splits = tf::concat(Value::list({Value(TensorHandle(Tensor::from_vector<int64_t>(Shape{1}, {0}))),
                                     tf::reshape(tf::size(Value(values), DType::Int64), Value::list({Value(1)}))}),
                        Value(0))
                 .as_tensor();
  }
  for (int64_t w : widths) {
    if (w < 1) throw ValueError("All ngram_widths must be greater than 0. Got " + repr(widths_arg));
  }
  int64_t pad = pad_values.is_none() ? 0 : padding_width.is_none() ? -1 : padding_width.as_int();
  TensorHandle args[2] = {values, splits};
  std::vector<TensorHandle> out = apply_op(c.op(), args,
                                           Attrs{{"separator", str_arg(c["separator"], "separator")},
                                                 {"ngram_widths", widths},
                                                 {"left_pad", left},
                                                 {"right_pad", right},
                                                 {"pad_width", pad},
                                                 {"preserve_short_sequences", truthy(c["preserve_short_sequences"])}},
                                           "StringNGrams");
  Value rt = ragged_from_row_splits(Value(out[0]), Value(out[1]));
  if (squeeze) return getitem(rt, Value(0));
  return rt;
}

namespace {

/// unicode_decode's code points (unicode_split's too): a scalar input gives a
/// tensor, a vector a RaggedTensor, a matrix or a RaggedTensor one more ragged level.
Value decode_code_points(const TfCall& c, bool replace_control) {
  const std::string& encoding = str_arg(c["input_encoding"], "input_encoding");
  Attrs attrs{{"input_encoding", encoding},
              {"errors", str_arg(c["errors"], "errors")},
              {"replacement_char", int_arg(c["replacement_char"], "replacement_char")},
              {"replace_control_characters", replace_control},
              {"Tsplits", DType::Int64}};
  const Value& input = c["input"];
  const RaggedParts* rp = ragged_parts(input);
  TensorHandle dense = rp != nullptr ? rp->flat_values : text_tensor(input);
  const Shape& shape = dense.shape();
  if (!shape.rank_known()) throw ValueError("Rank of `input` must be statically known.");
  if (rp != nullptr && shape.rank() != 1) throw UnimplementedError("agc decodes RaggedTensors of vectors only");
  if (rp == nullptr && shape.rank() > 2) throw UnimplementedError("agc decodes tensors of rank 2 at most");
  TensorHandle flat = shape.rank() == 1 ? dense : tf::reshape(Value(dense), Value::list({Value(-1)})).as_tensor();
  TensorHandle in[1] = {flat};
  std::vector<TensorHandle> out = apply_op(op::UnicodeDecode, in, attrs, "UnicodeDecode");
  if (rp == nullptr && shape.rank() == 0) return Value(out[1]);
  RaggedParts parts{out[1], {out[0]}};
  if (rp != nullptr) {
    parts.splits.insert(parts.splits.begin(), rp->splits.begin(), rp->splits.end());
  } else if (shape.rank() == 2) {
    if (!shape.fully_defined()) throw UnimplementedError("agc decodes matrices of known shape only");
    std::vector<int64_t> uniform;
    for (int64_t r = 0; r <= shape.dim(0); ++r) uniform.push_back(r * shape.dim(1));
    parts.splits.insert(parts.splits.begin(),
                        TensorHandle(Tensor::from_vector<int64_t>(Shape{static_cast<int64_t>(uniform.size())}, uniform)));
  }
  return make_ragged(std::move(parts));
}

/// UnicodeEncode of rows given by values and splits.
TensorHandle encode_rows(const TensorHandle& values, const TensorHandle& splits, const TfCall& c, const char* enc_param) {
  TensorHandle in[2] = {values, splits};
  return apply_op1(op::UnicodeEncode, in,
                   Attrs{{"output_encoding", str_arg(c[enc_param], enc_param)},
                         {"errors", str_arg(c["errors"], "errors")},
                         {"replacement_char", int_arg(c["replacement_char"], "replacement_char")},
                         {"Tsplits", splits.dtype()}},
                   "UnicodeEncode");
}

}  // namespace

Value unicode_decode(const TfCall& c) {
  common::NameScope scope(c["name"].is_none() ? "UnicodeDecode" : c["name"].as_str());
  return decode_code_points(c, truthy(c["replace_control_characters"]));
}

Value unicode_split(const TfCall& c) {
  // TF: decode, then encode each code point as a one-character row.
  common::NameScope scope(c["name"].is_none() ? "UnicodeSplit" : c["name"].as_str());
  Value cps = decode_code_points(c, false);
  const RaggedParts* rp = ragged_parts(cps);
  TensorHandle flat = rp != nullptr ? rp->flat_values : cps.as_tensor();
  Value ones = tf::range(Value(0), tf::size(Value(flat), DType::Int64) + Value(1), Value(1), DType::Int64);
  TensorHandle chars = encode_rows(flat, ones.as_tensor(), c, "input_encoding");
  if (rp == nullptr) return Value(chars);
  RaggedParts parts = *rp;
  parts.flat_values = chars;
  return make_ragged(std::move(parts));
}

Value unicode_encode(const TfCall& c) {
  common::NameScope scope(c["name"].is_none() ? "UnicodeEncode" : c["name"].as_str());
  const Value& input = c["input"];
  if (const RaggedParts* rp = ragged_parts(input)) {
    if (rp->flat_values.shape().rank_known() && rp->flat_values.shape().rank() != 1) {
      throw UnimplementedError("agc encodes RaggedTensors of vectors only");
    }
    // The innermost rows become strings; outer levels keep their splits.
    TensorHandle strings = encode_rows(to_tensor(Value(rp->flat_values), DType::Int32), rp->splits.back(), c,
                                       "output_encoding");
    if (rp->splits.size() == 1) return Value(strings);
    return make_ragged(RaggedParts{strings, std::vector<TensorHandle>(rp->splits.begin(), rp->splits.end() - 1)});
  }
  TensorHandle t = to_tensor(input, DType::Int32);
  const Shape& s = t.shape();
  if (!s.rank_known()) throw ValueError("Rank of input_tensor must be statically known.");
  if (s.rank() == 0) throw ValueError("input_tensor's rank must be at least 1.");
  if (s.rank() > 2) throw UnimplementedError("agc encodes tensors of rank 2 at most");
  if (s.rank() == 1) {
    Value splits = tf::concat(Value::list({Value(TensorHandle(Tensor::from_vector<int64_t>(Shape{1}, {0}))),
                                           tf::reshape(tf::size(Value(t), DType::Int64), Value::list({Value(1)}))}),
                              Value(0));
    return tf::reshape(Value(encode_rows(t, splits.as_tensor(), c, "output_encoding")), Value::list({}));
  }
  if (!s.fully_defined()) throw UnimplementedError("agc encodes matrices of known shape only");
  std::vector<int64_t> uniform;
  for (int64_t r = 0; r <= s.dim(0); ++r) uniform.push_back(r * s.dim(1));
  TensorHandle splits(Tensor::from_vector<int64_t>(Shape{static_cast<int64_t>(uniform.size())}, uniform));
  return Value(encode_rows(tf::reshape(Value(t), Value::list({Value(-1)})).as_tensor(), splits, c, "output_encoding"));
}

Value bytes_split(const TfCall& c) {
  common::NameScope scope(c["name"].is_none() ? "StringsByteSplit" : c["name"].as_str());
  TensorHandle in = text_tensor(c["input"]);
  if (!in.shape().rank_known()) throw ValueError("input must have a statically-known rank.");
  int rank = in.shape().rank();
  if (rank > 1) throw UnimplementedError("agc's tf.strings.bytes_split takes a scalar or a vector");
  TensorHandle vec = rank == 0 ? tf::reshape(Value(in), Value::list({Value(1)})).as_tensor() : in;
  TensorHandle args[2] = {vec, TensorHandle(Tensor::scalar<std::string>(""))};
  std::vector<TensorHandle> out = apply_op(c.op(), args, Attrs{{"skip_empty", false}}, "StringSplit");
  Value ids = getitem(Value(out[0]), std::vector<IndexPart>{IndexPart(SliceSpec{}), IndexPart(Value(0))});
  Value rt = ragged_from_value_rowids(Value(out[1]), ids, getitem(Value(out[2]), Value(0)));
  if (rank == 0) return getitem(rt, Value(0));
  return rt;
}

Value ragged_from_row_splits(const TfCall& c) { return ag::ragged_from_row_splits(c["values"], c["row_splits"]); }
Value ragged_from_row_lengths(const TfCall& c) { return ag::ragged_from_row_lengths(c["values"], c["row_lengths"]); }
Value ragged_from_value_rowids(const TfCall& c) {
  return ag::ragged_from_value_rowids(c["values"], c["value_rowids"], c["nrows"]);
}

Value ragged_constant(const TfCall& c) {
  if (!c["inner_shape"].is_none()) throw UnimplementedError("agc's tf.ragged.constant takes no inner_shape");
  return ag::ragged_constant(c["pylist"], c["dtype"], c["ragged_rank"]);
}

}  // namespace ag::tf::impl

namespace ag::tf::api {
const Value& RaggedTensor() { return ragged_tensor_class(); }
}  // namespace ag::tf::api
