// Unicode ops (see families.h): UnicodeDecode and UnicodeEncode over UTF-8
// (TF decodes through ICU, which replaces each maximal ill-formed
// subsequence with one replacement character, as done here), and
// StringSplit (TF 1's split on a set of delimiter bytes; an empty delimiter
// gives single bytes: what tf.strings.bytes_split builds).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/utf8.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::check_dtype;

/// How a decode or encode treats invalid input: TF's `errors` attr.
enum class OnError { Strict, Replace, Ignore };

OnError on_error(const Attrs& a) {
  std::string e = a.get_or<std::string>("errors", "replace");
  if (e == "strict") return OnError::Strict;
  if (e == "ignore") return OnError::Ignore;
  if (e == "replace") return OnError::Replace;
  throw InvalidArgumentError("Value for attr 'errors' of \"" + e +
                             "\" is not in the list of allowed values: \"strict\", \"replace\", \"ignore\"");
}

void check_encoding(const Attrs& a, const char* attr) {
  std::string enc = a.get_or<std::string>(attr, "");
  if (enc != "UTF-8") throw UnimplementedError("agc decodes and encodes UTF-8 only, not '" + enc + "'");
}

bool valid_code_point(int64_t cp) { return cp >= 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF); }

}  // namespace

void register_unicode_ops(OpRegistry& reg) {
  // UnicodeDecode(input: string) -> row_splits: Tsplits [n+1], char_values: int32;
  // attrs input_encoding, errors, replacement_char, replace_control_characters.
  reg.op("UnicodeDecode")
      .tf_signature("input: string -> row_splits: Tsplits, char_values: int32")
      .inputs(1)
      .outputs(2)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        check_encoding(c.attrs, "input_encoding");
        on_error(c.attrs);
        const Shape& s = c.inputs[0].shape;
        int64_t n = s.fully_defined() ? s.num_elements() + 1 : -1;
        return std::vector<TensorSpec>{{DType::Int64, Shape{n}}, {DType::Int32, Shape{-1}}};
      })
      .cpu([](const KernelSpec& s) {
        check_encoding(s.attrs, "input_encoding");
        OnError mode = on_error(s.attrs);
        int32_t replacement = static_cast<int32_t>(s.attrs.get_or<int64_t>("replacement_char", 0xFFFD));
        bool replace_control = s.attrs.get_or<bool>("replace_control_characters", false);
        return Kernel([=](KernelContext& k) {
          const Tensor& in = k.input(0);
          std::vector<int64_t> splits{0};
          std::vector<int32_t> chars;
          for (int64_t i = 0; i < in.num_elements(); ++i) {
            const std::string& str = in.data<std::string>()[i];
            for (size_t at = 0; at < str.size();) {
              auto [cp, len] = next_code_point(str, at);
              at += len;
              if (cp < 0) {
                if (mode == OnError::Strict) throw InvalidArgumentError("Invalid formatting on input string");
                if (mode == OnError::Ignore) continue;
                cp = replacement;
              } else if (replace_control && cp < 0x20) {
                cp = replacement;
              }
              chars.push_back(cp);
            }
            splits.push_back(static_cast<int64_t>(chars.size()));
          }
          Tensor& rs = k.allocate_output(0, DType::Int64, Shape{static_cast<int64_t>(splits.size())});
          for (size_t j = 0; j < splits.size(); ++j) rs.data<int64_t>()[j] = splits[j];
          Tensor& cv = k.allocate_output(1, DType::Int32, Shape{static_cast<int64_t>(chars.size())});
          for (size_t j = 0; j < chars.size(); ++j) cv.data<int32_t>()[j] = chars[j];
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // UnicodeEncode(input_values: int32 [?], input_splits: Tsplits [?]) -> string [nsplits-1];
  // attrs errors, output_encoding, replacement_char.
  reg.op("UnicodeEncode")
      .tf_signature("input_values: int32, input_splits: Tsplits -> output: string")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::Int32);
        check_encoding(c.attrs, "output_encoding");
        on_error(c.attrs);
        const Shape& s = c.inputs[1].shape;
        int64_t n = s.rank_known() && s.rank() == 1 && s.dim(0) > 0 ? s.dim(0) - 1 : -1;
        return std::vector<TensorSpec>{{DType::String, Shape{n}}};
      })
      .cpu([](const KernelSpec& s) {
        OnError mode = on_error(s.attrs);
        int32_t replacement = static_cast<int32_t>(s.attrs.get_or<int64_t>("replacement_char", 0xFFFD));
        return Kernel([=](KernelContext& k) {
          const Tensor& vals = k.input(0);
          const Tensor& st = k.input(1);
          auto split = [&](int64_t i) {
            return st.dtype() == DType::Int64 ? st.data<int64_t>()[i] : static_cast<int64_t>(st.data<int32_t>()[i]);
          };
          int64_t n = st.num_elements() > 0 ? st.num_elements() - 1 : 0;
          Tensor& out = k.allocate_output(0, DType::String, Shape{n});
          for (int64_t r = 0; r < n; ++r) {
            std::string text;
            for (int64_t j = split(r); j < split(r + 1); ++j) {
              int32_t cp = vals.data<int32_t>()[j];
              if (!valid_code_point(cp)) {
                if (mode == OnError::Strict) {
                  throw InvalidArgumentError("Code point is out of range for Unicode, or a noncharacter.");
                }
                if (mode == OnError::Ignore) continue;
                cp = replacement;
              }
              append_utf8(text, static_cast<uint32_t>(cp));
            }
            out.data<std::string>()[r] = std::move(text);
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // StringSplit(input: string [N], delimiter: string []) -> indices, values, shape;
  // attr skip_empty. Each delimiter byte splits; an empty delimiter gives bytes.
  reg.op("StringSplit")
      .tf_signature("input: string, delimiter: string -> indices: int64, values: string, shape: int64")
      .inputs(2)
      .outputs(3)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        check_dtype(c, 1, DType::String);
        // TF's kernel checks (a graph from a file may give any shapes).
        const Shape& in = c.inputs[0].shape;
        const Shape& delimiter = c.inputs[1].shape;
        if (in.rank_known() && in.rank() != 1) {
          throw InvalidArgumentError("input must be a vector, got shape: " + in.debug_string());
        }
        if (delimiter.rank_known() && delimiter.rank() != 0) {
          throw InvalidArgumentError("delimiter must be a scalar, not shape " + delimiter.debug_string());
        }
        return std::vector<TensorSpec>{
            {DType::Int64, Shape{-1, 2}}, {DType::String, Shape{-1}}, {DType::Int64, Shape{2}}};
      })
      .cpu([](const KernelSpec& s) {
        bool skip_empty = s.attrs.get_or<bool>("skip_empty", true);
        return Kernel([skip_empty](KernelContext& k) {
          const Tensor& in = k.input(0);
          const std::string& delim = array::scalar_of<std::string>(k.input(1), "delimiter");
          std::vector<int64_t> rows;
          std::vector<std::string> pieces;
          int64_t widest = 0;
          for (int64_t i = 0; i < in.num_elements(); ++i) {
            const std::string& str = in.data<std::string>()[i];
            std::vector<std::string> parts;
            if (delim.empty()) {
              for (char ch : str) parts.emplace_back(1, ch);
            } else {
              size_t start = 0;
              for (size_t j = 0; j <= str.size(); ++j) {
                if (j == str.size() || delim.find(str[j]) != std::string::npos) {
                  std::string p = str.substr(start, j - start);
                  if (!(skip_empty && p.empty())) parts.push_back(std::move(p));
                  start = j + 1;
                }
              }
            }
            widest = std::max<int64_t>(widest, static_cast<int64_t>(parts.size()));
            for (auto& p : parts) {
              rows.push_back(i);
              pieces.push_back(std::move(p));
            }
          }
          int64_t n = static_cast<int64_t>(pieces.size());
          Tensor& idx = k.allocate_output(0, DType::Int64, Shape{n, 2});
          Tensor& vals = k.allocate_output(1, DType::String, Shape{n});
          Tensor& shape = k.allocate_output(2, DType::Int64, Shape{2});
          int64_t col = 0;
          for (int64_t j = 0; j < n; ++j) {
            if (j > 0 && rows[static_cast<size_t>(j)] != rows[static_cast<size_t>(j) - 1]) col = 0;
            idx.data<int64_t>()[2 * j] = rows[static_cast<size_t>(j)];
            idx.data<int64_t>()[2 * j + 1] = col++;
            vals.data<std::string>()[j] = std::move(pieces[static_cast<size_t>(j)]);
          }
          shape.data<int64_t>()[0] = in.num_elements();
          shape.data<int64_t>()[1] = widest;
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
}

}  // namespace ag
