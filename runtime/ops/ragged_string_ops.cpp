// String ops whose results are ragged (see families.h): StringSplitV2 (a
// SparseTensor's indices, values and dense shape, which tf.strings.split
// makes a RaggedTensor of) and StringNGrams (values and row splits).
#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::check_dtype;

bool split_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

/// TF's SplitV2, Python's str.split(sep, maxsplit) on bytes but for the
/// remainder after `maxsplit` splits, kept as it is (trailing whitespace, or
/// an empty remainder, included), and maxsplit 0, which keeps the string
/// whole. An empty `sep` splits on runs of ASCII whitespace, dropping empty
/// pieces; an empty string split by a `sep` is [""].
std::vector<std::string> split_v2(const std::string& s, const std::string& sep, int64_t maxsplit) {
  std::vector<std::string> out;
  if (maxsplit == 0) return {s};
  std::string_view text(s);
  if (sep.empty()) {
    auto skip_space = [&] {
      while (!text.empty() && split_space(text.front())) text.remove_prefix(1);
    };
    skip_space();
    int64_t splits = 0;
    while (!text.empty()) {
      size_t n = 0;
      while (n < text.size() && !split_space(text[n])) ++n;
      out.emplace_back(text.substr(0, n));
      text.remove_prefix(n);
      skip_space();
      if (maxsplit > 0 && ++splits == maxsplit) {
        out.emplace_back(text);
        return out;
      }
    }
    return out;
  }
  int64_t splits = 0;
  for (size_t at = text.find(sep); at != std::string_view::npos; at = text.find(sep)) {
    out.emplace_back(text.substr(0, at));
    text.remove_prefix(at + sep.size());
    if (maxsplit > 0 && ++splits == maxsplit) break;
  }
  out.emplace_back(text);
  return out;
}

void check_string_rank(const Shape& s, int want, const char* what) {
  if (s.rank_known() && s.rank() != want) {
    throw InvalidArgumentError(std::string("Shape must be rank ") + std::to_string(want) + " but is rank " +
                               std::to_string(s.rank()) + what);
  }
}

}  // namespace

void register_ragged_string_ops(OpRegistry& reg) {
  // StringSplitV2(input: string [N], sep: string []) -> indices: int64 [?, 2],
  // values: string [?], shape: int64 [2]; attr maxsplit.
  reg.op("StringSplitV2")
      .tf_signature("input: string, sep: string -> indices: int64, values: string, shape: int64")
      .inputs(2)
      .outputs(3)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        check_dtype(c, 1, DType::String);
        check_string_rank(c.inputs[0].shape, 1, "");
        check_string_rank(c.inputs[1].shape, 0, "");
        return std::vector<TensorSpec>{
            {DType::Int64, Shape{-1, 2}}, {DType::String, Shape{-1}}, {DType::Int64, Shape{2}}};
      })
      .cpu([](const KernelSpec& s) {
        int64_t maxsplit = s.attrs.get_or<int64_t>("maxsplit", -1);
        return Kernel([maxsplit](KernelContext& k) {
          const Tensor& in = k.input(0);
          const std::string& sep = k.input(1).data<std::string>()[0];
          std::vector<std::pair<int64_t, std::string>> pieces;
          int64_t widest = 0;
          for (int64_t i = 0; i < in.num_elements(); ++i) {
            auto parts = split_v2(in.data<std::string>()[i], sep, maxsplit);
            widest = std::max<int64_t>(widest, static_cast<int64_t>(parts.size()));
            for (auto& p : parts) pieces.emplace_back(i, std::move(p));
          }
          int64_t n = static_cast<int64_t>(pieces.size());
          Tensor& idx = k.allocate_output(0, DType::Int64, Shape{n, 2});
          Tensor& vals = k.allocate_output(1, DType::String, Shape{n});
          Tensor& shape = k.allocate_output(2, DType::Int64, Shape{2});
          int64_t col = 0;
          for (int64_t j = 0; j < n; ++j) {
            if (j > 0 && pieces[static_cast<size_t>(j)].first != pieces[static_cast<size_t>(j) - 1].first) col = 0;
            idx.data<int64_t>()[2 * j] = pieces[static_cast<size_t>(j)].first;
            idx.data<int64_t>()[2 * j + 1] = col++;
            vals.data<std::string>()[j] = std::move(pieces[static_cast<size_t>(j)].second);
          }
          shape.data<int64_t>()[0] = in.num_elements();
          shape.data<int64_t>()[1] = widest;
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();

  // StringNGrams(data: string [?], data_splits: Tsplits [?]) -> ngrams, ngrams_splits;
  // attrs separator, ngram_widths, left_pad, right_pad, pad_width, preserve_short_sequences.
  reg.op("StringNGrams")
      .tf_signature("data: string, data_splits: Tsplits -> ngrams: string, ngrams_splits: Tsplits")
      .inputs(2)
      .outputs(2)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::String);
        check_string_rank(c.inputs[0].shape, 1, "");
        check_string_rank(c.inputs[1].shape, 1, "");
        kernels::check_allowed(c.op, c.inputs[1].dtype, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"},
                               "Tsplits");
        return std::vector<TensorSpec>{{DType::String, Shape{-1}}, {c.inputs[1].dtype, c.inputs[1].shape}};
      })
      .cpu([](const KernelSpec& s) {
        std::string sep = s.attrs.get_or<std::string>("separator", " ");
        std::vector<int64_t> widths = s.attrs.get_or<std::vector<int64_t>>("ngram_widths", {});
        std::string left = s.attrs.get_or<std::string>("left_pad", "");
        std::string right = s.attrs.get_or<std::string>("right_pad", "");
        int64_t pad = s.attrs.get_or<int64_t>("pad_width", 0);
        bool preserve = s.attrs.get_or<bool>("preserve_short_sequences", false);
        return Kernel([=](KernelContext& k) {
          const Tensor& data = k.input(0);
          const Tensor& splits_t = k.input(1);
          bool wide = splits_t.dtype() == DType::Int64;
          auto split_at = [&](int64_t i) {
            return wide ? splits_t.data<int64_t>()[i] : static_cast<int64_t>(splits_t.data<int32_t>()[i]);
          };
          int64_t nsplits = splits_t.num_elements();
          int64_t nvals = data.num_elements();
          if (nsplits > 0) {
            int64_t prev = split_at(0);
            if (prev != 0) {
              throw InvalidArgumentError("First split value must be 0, got " + std::to_string(prev));
            }
            for (int64_t i = 1; i < nsplits; ++i) {
              int64_t cur = split_at(i);
              if (cur < prev) throw InvalidArgumentError("Invalid split value " + std::to_string(cur) + ", must be >= " + std::to_string(prev));
              if (cur > nvals) throw InvalidArgumentError("Invalid split value " + std::to_string(cur) + ", must be <= " + std::to_string(nvals));
              prev = cur;
            }
            if (prev != nvals) {
              throw InvalidArgumentError("Last split value must be data size. Expected " + std::to_string(nvals) +
                                         ", got " + std::to_string(prev));
            }
          }
          auto pad_of = [&](int64_t w) { return std::min(pad < 0 ? w - 1 : pad, w - 1); };
          auto count = [&](int64_t len, int64_t w) { return std::max<int64_t>(0, len + 2 * pad_of(w) - w + 1); };
          const std::string* x = data.data<std::string>();
          std::vector<std::string> grams;
          std::vector<int64_t> out_splits{0};
          auto make = [&](int64_t start, int64_t num, int64_t w) {
            int64_t pw = pad_of(w);
            for (int64_t g = 0; g < num; ++g) {
              int64_t lp = std::max<int64_t>(0, pw - g);
              int64_t rp = std::max<int64_t>(0, pw - (num - (g + 1)));
              int64_t tokens = w - (lp + rp);
              int64_t first = lp > 0 ? 0 : g - pw;
              std::string r;
              bool any = false;
              auto add = [&](const std::string& t) {
                if (any) r += sep;
                r += t;
                any = true;
              };
              for (int64_t j = 0; j < lp; ++j) add(left);
              for (int64_t j = 0; j < tokens; ++j) add(x[start + first + j]);
              for (int64_t j = 0; j < rp; ++j) add(right);
              grams.push_back(std::move(r));
            }
          };
          for (int64_t i = 0; i + 1 < nsplits; ++i) {
            int64_t b = split_at(i), e = split_at(i + 1), len = e - b;
            size_t before = grams.size();
            for (int64_t w : widths) make(b, count(len, w), w);
            if (preserve && grams.size() == before && len > 0) make(b, 1, len + 2 * pad);
            out_splits.push_back(static_cast<int64_t>(grams.size()));
          }
          if (nsplits == 0) out_splits.clear();
          Tensor& out = k.allocate_output(0, DType::String, Shape{static_cast<int64_t>(grams.size())});
          for (size_t i = 0; i < grams.size(); ++i) out.data<std::string>()[i] = std::move(grams[i]);
          Tensor& os = k.allocate_output(1, splits_t.dtype(), splits_t.shape());
          for (size_t i = 0; i < out_splits.size(); ++i) {
            if (wide) os.data<int64_t>()[i] = out_splits[i];
            else os.data<int32_t>()[i] = static_cast<int32_t>(out_splits[i]);
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TPUs have no string type")
      .not_differentiable();
}

}  // namespace ag

namespace ag {

namespace {

/// The row splits of one ragged level: a vector that starts at 0, never
/// decreases, and ends at `total` (the next level's rows, or the values'),
/// as RaggedTensor's validation requires; a graph from a file may hold any.
void check_row_splits(size_t level, const std::vector<int64_t>& splits, int64_t total, const char* of) {
  const std::string which = "row_partition_tensors[" + std::to_string(level) + "]";
  if (splits.empty()) throw InvalidArgumentError("Invalid " + which + ": row splits must have at least one element");
  if (splits[0] != 0) {
    throw InvalidArgumentError("Invalid " + which + ": row splits must start with 0, not " + std::to_string(splits[0]));
  }
  for (size_t j = 1; j < splits.size(); ++j) {
    if (splits[j] < splits[j - 1]) {
      throw InvalidArgumentError("Invalid " + which + ": row splits must not decrease, but " +
                                 std::to_string(splits[j]) + " follows " + std::to_string(splits[j - 1]));
    }
  }
  if (splits.back() != total) {
    throw InvalidArgumentError("Invalid " + which + ": row splits end at " + std::to_string(splits.back()) + ", but " +
                               of + " has " + std::to_string(total));
  }
}

}  // namespace

/// RaggedTensorToTensor over ROW_SPLITS partitions (what RaggedTensor.to_tensor
/// builds): inputs shape (int64; -1: as small as the values allow), values,
/// default_value, then one row_splits vector per ragged dimension.
void register_ragged_conversion_ops(OpRegistry& reg) {
  reg.op("RaggedTensorToTensor")
      .tf_signature("shape: Tshape, values: T, default_value: T, row_partition_tensors: num_row_partition_tensors * Tindex -> result: T")
      .inputs(4, -1)
      .infer([](const InferContext& c) {
        // TF's row_partition_types name each partition tensor's kind; agc
        // reads row splits only (a TF graph may hold FIRST_DIM_SIZE, VALUE_ROWIDS).
        for (const std::string& kind : c.attrs.get_or<std::vector<std::string>>("row_partition_types", {})) {
          if (kind != "ROW_SPLITS") {
            throw UnimplementedError("RaggedTensorToTensor with row partition type " + kind + ": agc reads ROW_SPLITS only");
          }
        }
        const Shape& vs = c.inputs[1].shape;
        if (c.inputs[2].dtype != c.inputs[1].dtype) {
          throw InvalidArgumentError("default_value must have the dtype of values");
        }
        if (vs.rank_known() && vs.rank() == 0) throw InvalidArgumentError("values must have rank at least 1, not 0");
        for (size_t i = 3; i < c.inputs.size(); ++i) {
          kernels::check_allowed(c.op, c.inputs[i].dtype, {bit(DType::Int32) | bit(DType::Int64), "int64, int32"},
                                 "Tindex");
          const Shape& rs = c.inputs[i].shape;
          if (rs.rank_known() && rs.rank() != 1) {
            throw InvalidArgumentError("row_partition_tensors[" + std::to_string(i - 3) + "] must be a vector, not of shape " +
                                       rs.debug_string());
          }
        }
        Shape out;
        const Shape& s0 = c.inputs[3].shape;
        out.push_back(s0.rank_known() && s0.rank() == 1 && s0.dim(0) >= 0 ? s0.dim(0) - 1 : -1);
        for (size_t i = 4; i < c.inputs.size(); ++i) out.push_back(-1);
        out.push_back(-1);
        if (!vs.rank_known()) return std::vector<TensorSpec>{{c.inputs[1].dtype, Shape::unknown_rank()}};
        for (int d = 1; d < vs.rank(); ++d) out.push_back(vs.dim(d));
        return std::vector<TensorSpec>{{c.inputs[1].dtype, out}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.inputs[1].dtype;
        return Kernel([t](KernelContext& k) {
          const Tensor& values = k.input(1);
          const Tensor& dflt = k.input(2);
          size_t nsplit = k.inputs.size() - 3;
          std::vector<std::vector<int64_t>> splits(nsplit);
          for (size_t i = 0; i < nsplit; ++i) {
            const Tensor& st = k.input(3 + i);
            for (int64_t j = 0; j < st.num_elements(); ++j) {
              splits[i].push_back(st.dtype() == DType::Int64 ? st.data<int64_t>()[j] : st.data<int32_t>()[j]);
            }
          }
          for (size_t i = 0; i < nsplit; ++i) {
            const bool last = i + 1 == nsplit;
            check_row_splits(i, splits[i], last ? values.shape().dim(0) : static_cast<int64_t>(splits[i + 1].size()) - 1,
                             last ? "values" : "the next partition");
          }
          // Dims: rows, then the widest row at each ragged level, then the values' inner dims.
          std::vector<int64_t> dims{static_cast<int64_t>(splits[0].size()) - 1};
          for (size_t i = 0; i < nsplit; ++i) {
            int64_t w = 0;
            for (size_t j = 0; j + 1 < splits[i].size(); ++j) w = std::max(w, splits[i][j + 1] - splits[i][j]);
            dims.push_back(w);
          }
          int64_t inner = 1;
          for (int d = 1; d < values.rank(); ++d) {
            dims.push_back(values.shape().dim(d));
            inner *= values.shape().dim(d);
          }
          Shape out_shape;
          for (int64_t d : dims) out_shape.push_back(d);
          Tensor& out = k.allocate_output(0, t, out_shape);
          int64_t n = out.num_elements();
          if (dflt.num_elements() != 1 && dflt.num_elements() != inner) {
            throw InvalidArgumentError("default_value must be a scalar or have the values' inner shape");
          }
          dispatch_dtype(t, [&]<class T>() {
            T* o = out.data<T>();
            const T* v = values.data<T>();
            const T* dv = dflt.data<T>();
            for (int64_t i = 0; i < n; ++i) o[i] = dv[dflt.num_elements() == 1 ? 0 : i % inner];
            // Walk every position of the ragged levels; copy the inner block when it exists.
            std::function<void(size_t, int64_t, int64_t)> walk = [&](size_t level, int64_t row, int64_t out_base) {
              int64_t b = splits[level][static_cast<size_t>(row)], e = splits[level][static_cast<size_t>(row) + 1];
              int64_t stride = inner;
              for (size_t d = level + 2; d < 1 + nsplit; ++d) stride *= dims[d];
              for (int64_t j = b; j < e; ++j) {
                int64_t ob = out_base + (j - b) * stride;
                if (level + 1 == nsplit) {
                  for (int64_t q = 0; q < inner; ++q) o[ob + q] = v[j * inner + q];
                } else {
                  walk(level + 1, j, ob);
                }
              }
            };
            int64_t row_stride = inner;
            for (size_t d = 1; d < dims.size() - static_cast<size_t>(values.rank() - 1); ++d) row_stride *= dims[d];
            for (int64_t r = 0; r < dims[0]; ++r) walk(0, r, r * row_stride);
          });
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("ragged shapes depend on the values")
      .not_differentiable();
}

}  // namespace ag
