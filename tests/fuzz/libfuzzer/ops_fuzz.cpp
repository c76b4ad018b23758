// libFuzzer target: the op layer, run eagerly (runtime/ops/eager.h). Each
// input is a small program read byte by byte (Program below): an op of the
// registry (any that runs without subgraphs; named by the input, choose_op),
// its inputs' count within the op's arity, each input's dtype (inputs of one
// TF type attribute share it), shape (rank 0-3, dims 0-4; often the previous
// input's, so broadcasting ops get past their checks) and values (small
// numbers mostly, and the edge values: 0, -0, ±inf, NaN, extremes), then
// attribute values of the type the kernel asks for, as a SavedModel's
// NodeDef could give them (node_def::read_attr).
//
// Attributes are discovered, not listed: a kernel asking for one it was not
// given raises "NodeDef missing attr 'axis'" (Attrs::get), so the program
// supplies it and runs again; "has a value of type" makes it try the next
// type. Every run must give the op's outputs or an agc error (TF's
// InvalidArgumentError and friends); another InternalError, a C++ exception,
// a crash, a hang or a sanitizer report is a failure. Where the op sweep has
// a reference for the op (tests/unit/ops/references.h), results on inputs in
// the reference's domain must match it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"
#include "tests/fuzz/libfuzzer/fuzz_inputs.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"
#include "tests/unit/ops/references.h"

namespace {

using namespace ag;

/// The program's bytes, read from the front; past the end every read is 0.
class Program {
 public:
  Program(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  bool flag() { return byte() & 1; }
  size_t pick(size_t n) { return n == 0 ? 0 : byte() % n; }

  /// Mostly small (-16..15), sometimes an edge value of int64.
  int64_t integer() {
    const uint8_t b = byte();
    if (b < 224) return static_cast<int64_t>(b % 32) - 16;
    static const int64_t kEdges[] = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                                     255, 256, -129, 1 << 20, 100, -100, 1000000, 7, 63, 64, 65, -1};
    return kEdges[(b - 224) % 16];
  }
  /// Mostly k/8 for small k, sometimes an edge value.
  double real() {
    const uint8_t b = byte();
    if (b < 208) return (static_cast<int>(b) - 104) / 8.0;
    static const double kEdges[] = {0.0,
                                    -0.0,
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN(),
                                    1e30,
                                    -1e30,
                                    1e-40,
                                    std::numeric_limits<double>::max(),
                                    std::numeric_limits<double>::lowest(),
                                    std::numeric_limits<double>::denorm_min(),
                                    0.5,
                                    1e10,
                                    3.4e38,
                                    -3.5e38,
                                    1e300};
    return kEdges[(b - 208) % 16];
  }
  std::string text() {
    using namespace std::string_view_literals;
    static constexpr std::string_view kWords[] = {"",     "a",        "hello",      "42",  "-3.5",    "SAME",
                                                  "VALID", "NHWC",    "NCHW",       "EXPLICIT", "\xff\xfe"sv, "a,b",
                                                  "float32", "utf-8", "ab\0c"sv, "tf"};
    const uint8_t b = byte();
    if (b < 240) return std::string(kWords[b % std::size(kWords)]);
    std::string s;
    for (size_t n = byte() % 8; n > 0; --n) s += static_cast<char>(byte());
    return s;
  }
  DType dtype() { return static_cast<DType>(pick(kNumDTypes)); }
  /// Rank 0-3, dims 0-4 (zero-size dims included).
  Shape shape() {
    Shape s;
    for (size_t rank = pick(4); rank > 0; --rank) s.push_back(static_cast<int64_t>(pick(5)));
    return s;
  }

  Tensor tensor(DType dtype, const Shape& shape) {
    Tensor t(dtype, shape);
    const int64_t n = t.num_elements();
    dispatch_dtype(dtype, [&]<class T>() {
      T* d = t.data<T>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>) {
          d[i] = flag();
        } else if constexpr (std::is_same_v<T, std::string>) {
          d[i] = text();
        } else if constexpr (std::is_same_v<T, bfloat16>) {
          d[i] = bfloat16(static_cast<float>(real()));
        } else if constexpr (std::is_floating_point_v<T>) {
          d[i] = static_cast<T>(real());
        } else {
          d[i] = static_cast<T>(integer());  // wraps to the type, as an edge value should
        }
      }
    });
    return t;
  }

  /// An attribute value of the kind `kind` (AttrValue's alternatives, in order).
  AttrValue attr(size_t kind) {
    switch (kind % std::variant_size_v<AttrValue>) {
      case 0: return integer();
      case 1: return real();
      case 2: return flag();
      case 3: return text();
      case 4: return dtype();
      case 5: {
        if (byte() == 255) return Shape::unknown_rank();
        Shape s;
        for (size_t rank = pick(5); rank > 0; --rank) s.push_back(byte() % 8 == 0 ? kUnknownDim : integer());
        return s;
      }
      case 6: {
        std::vector<int64_t> v;
        for (size_t n = pick(6); n > 0; --n) v.push_back(integer());
        return v;
      }
      case 7: {
        std::vector<double> v;
        for (size_t n = pick(5); n > 0; --n) v.push_back(real());
        return v;
      }
      case 8: {
        std::vector<std::string> v;
        for (size_t n = pick(4); n > 0; --n) v.push_back(text());
        return v;
      }
      default: {
        const DType t = dtype();
        return tensor(t, shape());
      }
    }
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

/// The op a program names: its first byte is the length of an op name that
/// follows. A name that is no fuzzable op picks one by its hash, so mutated
/// names still run something, and a saved input keeps naming its op however
/// the registry grows.
const OpDef& choose_op(Program& p) {
  std::string name;
  for (size_t n = p.byte() % 40; n > 0; --n) name += static_cast<char>(p.byte());
  const auto& ops = fuzz::fuzzable_ops();
  for (const OpDef* op : ops) {
    if (op->name == name) return *op;
  }
  return *ops[std::hash<std::string>{}(name) % ops.size()];
}

/// The attribute an InvalidArgumentError from Attrs::get names ("NodeDef
/// missing attr 'NAME'", or "attr 'NAME' has a value of type ..." when
/// `wrong_type`), or "" for any other error.
std::string attr_request(const std::string& message, bool& wrong_type) {
  static const std::string kMissing = "NodeDef missing attr '", kWrong = "attr '";
  const bool missing = message.rfind(kMissing, 0) == 0;
  if (!missing && message.rfind(kWrong, 0) != 0) return "";
  const size_t begin = missing ? kMissing.size() : kWrong.size();
  const size_t end = message.find('\'', begin);
  if (end == std::string::npos) return "";
  wrong_type = !missing;
  static const std::string kType = "' has a value of type '";
  if (wrong_type && message.compare(end, kType.size(), kType) != 0) return "";
  if (missing && end + 1 != message.size()) return "";
  return message.substr(begin, end - begin);
}

/// The op's inputs: their count within its arity, and for each a dtype (one
/// per TF type attribute), a shape and values.
std::vector<Tensor> make_inputs(Program& p, const OpDef& op) {
  const int max = op.max_inputs < 0 ? op.min_inputs + 3 : std::min(op.max_inputs, op.min_inputs + 3);
  const int n = op.min_inputs + static_cast<int>(p.pick(static_cast<size_t>(max - op.min_inputs + 1)));
  // Inputs read from one type attribute ("T" of AddV2's x and y) get one dtype.
  std::map<std::string, DType> by_attr;
  std::vector<Tensor> inputs;
  for (int i = 0; i < n; ++i) {
    std::string attr;
    if (op.tf_signature && static_cast<size_t>(i) < op.tf_signature->inputs.size()) {
      attr = op.tf_signature->inputs[static_cast<size_t>(i)].type_attr;
    }
    DType dtype = p.dtype();
    if (!attr.empty()) dtype = by_attr.emplace(attr, dtype).first->second;
    const Shape shape = !inputs.empty() && p.flag() ? inputs.back().shape() : p.shape();
    inputs.push_back(p.tensor(dtype, shape));
  }
  return inputs;
}

/// With AGC_FUZZ_TRACE set, each run's op, inputs and attributes on stderr.
void trace(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  if (!fuzz::tracing()) return;
  std::string s = "ops_fuzz: " + op.name + "\n";
  for (const Tensor& t : inputs) s += "  input " + tensor_repr(t) + "\n";
  for (const auto& [name, value] : attrs.items()) {
    s += "  attr " + name + " = " + std::visit([](const auto& v) -> std::string {
      using V = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<V, int64_t> || std::is_same_v<V, double>) return std::to_string(v);
      else if constexpr (std::is_same_v<V, bool>) return v ? "true" : "false";
      else if constexpr (std::is_same_v<V, std::string>) return "'" + v + "'";
      else if constexpr (std::is_same_v<V, DType>) return dtype_name(v);
      else if constexpr (std::is_same_v<V, Shape>) return v.debug_string();
      else if constexpr (std::is_same_v<V, Tensor>) return tensor_repr(v);
      else {
        std::string list = "[";
        for (const auto& x : v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::string>) list += "'" + x + "', ";
          else list += std::to_string(x) + ", ";
        }
        return list + "]";
      }
    }, value) + "\n";
  }
  std::fputs(s.c_str(), stderr);
}

/// Compares an elementwise op's result with the op sweep's references.
void check_reference(const OpDef& op, const std::vector<Tensor>& inputs, const Tensor& got) {
  std::string why;
  if (!test::matches_references(op.name, inputs, got, why)) {
    fuzz::fail(op.name + " disagrees with the op sweep's reference: " + why);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Program p(data, size);
  const OpDef& op = choose_op(p);
  const std::vector<Tensor> inputs = make_inputs(p, op);
  Attrs attrs;
  // TF's type attributes say the dtype of the inputs they type, as every
  // builder (and a well-formed NodeDef) sets them.
  for (const auto& [name, input] : op.type_attrs) {
    if (static_cast<size_t>(input) < inputs.size()) attrs.set(name, inputs[static_cast<size_t>(input)].dtype());
  }
  std::map<std::string, size_t> kinds;  // the alternative each discovered attribute holds
  for (int attempt = 0; attempt < 24; ++attempt) {
    try {
      trace(op, inputs, attrs);
      const std::vector<Tensor> outputs = run_op(op, inputs, attrs);
      if (outputs.size() == 1) check_reference(op, inputs, outputs[0]);
      return 0;
    } catch (const InternalError& e) {
      fuzz::fail(op.name + ": InternalError (an agc bug by definition): " + e.what());
    } catch (const InvalidArgumentError& e) {
      bool wrong_type = false;
      const std::string name = attr_request(e.what(), wrong_type);
      if (name.empty()) {
        fuzz::check_error(e, op.name);
        return 0;
      }
      auto [it, fresh] = kinds.emplace(name, p.byte());
      if (!fresh || wrong_type) ++it->second;
      attrs.set(name, p.attr(it->second));
    } catch (const Error& e) {
      fuzz::check_error(e, op.name);
      return 0;
    } catch (const std::exception& e) {
      fuzz::fail(op.name + ": a C++ exception escaped instead of an agc error: " + e.what());
    }
  }
  return 0;
}
