// Sweep cases for text_ops.cpp and ragged_string_ops.cpp: each op against a
// naive reference (random strings and shapes for the elementwise ones, the
// ragged ones on hand-checked cases from TF's docstrings), plus TF's error texts.
#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("StringLower", "StringUpper", "StringStrip", "StaticRegexReplace", "RegexReplace",
                "StaticRegexFullMatch", "RegexFullMatch", "Substr", "ReduceJoin", "StringSplitV2", "StringNGrams",
                "RaggedTensorToTensor", "UnicodeDecode", "UnicodeEncode", "StringSplit");

namespace {

Tensor texts(const std::vector<std::string>& v, std::optional<Shape> s = std::nullopt) {
  return Tensor::from_vector<std::string>(s ? *s : Shape{static_cast<int64_t>(v.size())}, v);
}
Tensor text_scalar(const std::string& s) { return Tensor::scalar(s); }
std::vector<std::string> text_values(const Tensor& t) {
  return std::vector<std::string>(t.data<std::string>(), t.data<std::string>() + t.num_elements());
}
std::vector<int64_t> int_values(const Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    out.push_back(t.dtype() == DType::Int64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i]);
  }
  return out;
}
Tensor int64_vec(const std::vector<int64_t>& v) { return Tensor::from_vector<int64_t>(Shape{static_cast<int64_t>(v.size())}, v); }

}  // namespace

TEST_CASE("StringLower, StringUpper and StringStrip map every element") {
  for (int trial = 0; trial < 20; ++trial) {
    Shape s = sweep::random_shape(3, 4);
    Tensor a = sweep::random_tensor(DType::String, s);
    Tensor lower(DType::String, s), upper(DType::String, s), strip(DType::String, s);
    for (int64_t i = 0; i < a.num_elements(); ++i) {
      std::string x = a.data<std::string>()[i], l = x, u = x;
      for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      lower.data<std::string>()[i] = l;
      upper.data<std::string>()[i] = u;
      std::string w = "  \t" + x + "\n ";
      a.data<std::string>()[i] = w;
      strip.data<std::string>()[i] = x;  // random strings hold no spaces at their ends
    }
    sweep::expect_close(run1("StringStrip", {a}), strip, "StringStrip " + s.str());
    sweep::expect_close(run1("StringLower", {run1("StringStrip", {a})}), lower, "StringLower " + s.str());
    sweep::expect_close(run1("StringUpper", {run1("StringStrip", {a})}), upper, "StringUpper " + s.str());
  }
  CHECK(text_values(run1("StringLower", {texts({"CamelCase", "ÄB"})})) == std::vector<std::string>{"camelcase", "Äb"});
}

TEST_CASE("regex ops use RE2's replace and full match") {
  Tensor in = texts({"Text with tags.<br /><b>contains html</b>", "aaa"});
  Tensor got = run1("StaticRegexReplace", {in}, Attrs{{"pattern", std::string("<[^>]+>")}, {"rewrite", std::string(" ")},
                                                      {"replace_global", true}});
  CHECK(text_values(got) == std::vector<std::string>{"Text with tags.  contains html ", "aaa"});
  got = run1("RegexReplace", {texts({"abab"}), text_scalar("(a)(b)"), text_scalar("\\2\\1")}, Attrs{{"replace_global", false}});
  CHECK(text_values(got) == std::vector<std::string>{"baab"});
  Tensor m = run1("StaticRegexFullMatch", {texts({"TF lib", "lib TF"})}, Attrs{{"pattern", std::string("TF.*")}});
  CHECK(m.data<bool>()[0]);
  CHECK(!m.data<bool>()[1]);
  Tensor m2 = run1("RegexFullMatch", {texts({"abc", "ab"}), text_scalar("a.c")});
  CHECK(m2.data<bool>()[0]);
  CHECK(!m2.data<bool>()[1]);
  CHECK(error_of("RegexReplace", {texts({"a"}), text_scalar("("), text_scalar("")}) ==
        "Invalid pattern: (, error: missing ): (");
  // TF does not check the rewrite: RE2 leaves the string as it is.
  CHECK(text_values(run1("RegexReplace", {texts({"a"}), text_scalar("a"), text_scalar("\\1")})) == std::vector<std::string>{"a"});
}

TEST_CASE("Substr cuts bytes or UTF-8 characters as TF's kernel does") {
  Tensor in = texts({"Hello", "World"});
  CHECK(text_values(run1("Substr", {in, Tensor::scalar<int32_t>(1), Tensor::scalar<int32_t>(3)})) ==
        std::vector<std::string>{"ell", "orl"});
  CHECK(text_values(run1("Substr", {in, Tensor::scalar<int32_t>(-3), Tensor::scalar<int32_t>(-1)})) ==
        std::vector<std::string>{"llo", "rld"});  // a negative length takes the rest
  CHECK(text_values(run1("Substr", {in, int32s({1, 2}), int32s({2, 3})})) == std::vector<std::string>{"el", "rld"});
  CHECK(text_values(run1("Substr", {texts({"héllo"}), Tensor::scalar<int32_t>(1), Tensor::scalar<int32_t>(2)},
                    Attrs{{"unit", std::string("UTF8_CHAR")}})) == std::vector<std::string>{"él"});
  CHECK(text_values(run1("Substr", {texts({"héllo"}), Tensor::scalar<int32_t>(-4), Tensor::scalar<int32_t>(2)},
                    Attrs{{"unit", std::string("UTF8_CHAR")}})) == std::vector<std::string>{"él"});
  CHECK(error_of("Substr", {in, Tensor::scalar<int32_t>(6), Tensor::scalar<int32_t>(1)}) ==
        "pos 6 out of range for string b'Hello' at index 0");
  CHECK(error_of("Substr", {texts({"héllo"}), Tensor::scalar<int32_t>(6), Tensor::scalar<int32_t>(1)},
                 Attrs{{"unit", std::string("UTF8_CHAR")}}) == "pos 6 out of range for string at index 0");
  CHECK(error_of("Substr", {in, int32s({1, 2}), Tensor::scalar<int32_t>(1)}) ==
        "pos and len should have the same shape, got: [2] vs. []");
}

TEST_CASE("ReduceJoin joins the listed axes, the first listed fastest") {
  Tensor in = texts({"abc", "123", "def", "456"}, Shape{2, 2});
  auto join = [&](std::vector<int32_t> axes, bool keep, std::string sep) {
    return run1("ReduceJoin", {in, int32s(axes)}, Attrs{{"keep_dims", keep}, {"separator", sep}});
  };
  CHECK(text_values(join({1, 0}, false, "")) == std::vector<std::string>{"abc123def456"});
  CHECK(text_values(join({0, 1}, false, "")) == std::vector<std::string>{"abcdef123456"});
  CHECK(text_values(join({-1}, false, " ")) == std::vector<std::string>{"abc 123", "def 456"});
  Tensor kept = join({0}, true, "");
  CHECK(kept.shape() == Shape{1, 2});
  CHECK(text_values(kept) == std::vector<std::string>{"abcdef", "123456"});
  CHECK_THROWS_WITH_AS(run1("ReduceJoin", {in, int32s({2})}), "Invalid reduction dimension 2 for input with 2 dimension(s)",
                       OutOfRangeError);
  CHECK(error_of("ReduceJoin", {in, int32s({1, -1})}) == "Duplicate reduction dimension -1");
}

TEST_CASE("StringSplitV2 splits as TF's SplitV2 (Python's str.split but for maxsplit's remainder)") {
  auto split = [](std::vector<std::string> in, std::string sep, int64_t maxsplit) {
    return runv("StringSplitV2", {texts(in), text_scalar(sep)}, Attrs{{"maxsplit", maxsplit}});
  };
  auto out = split({"hello world", " a  b c "}, "", -1);
  CHECK(text_values(out[1]) == std::vector<std::string>{"hello", "world", "a", "b", "c"});
  CHECK(int_values(out[0]) == std::vector<int64_t>{0, 0, 0, 1, 1, 0, 1, 1, 1, 2});
  CHECK(int_values(out[2]) == std::vector<int64_t>{2, 3});
  out = split({"1<>2<><>3"}, "<>", -1);
  CHECK(text_values(out[1]) == std::vector<std::string>{"1", "2", "", "3"});
  out = split({"a,b,c"}, ",", 1);
  CHECK(text_values(out[1]) == std::vector<std::string>{"a", "b,c"});
  out = split({"  a b  c "}, "", 1);  // the remainder as it is
  CHECK(text_values(out[1]) == std::vector<std::string>{"a", "b  c "});
  out = split({"a ", ""}, "", 1);
  CHECK(text_values(out[1]) == std::vector<std::string>{"a", ""});
  out = split({" a b"}, "", 0);
  CHECK(text_values(out[1]) == std::vector<std::string>{" a b"});
  out = split({""}, ",", -1);
  CHECK(text_values(out[1]) == std::vector<std::string>{""});
}

TEST_CASE("StringNGrams pads and joins as TF's kernel") {
  auto grams = [](std::vector<std::string> data, std::vector<int64_t> splits, std::vector<int64_t> widths,
                  std::string lpad, std::string rpad, int64_t pad, bool preserve) {
    return runv("StringNGrams", {texts(data), int64_vec(splits)},
                Attrs{{"separator", std::string(" ")}, {"ngram_widths", widths}, {"left_pad", lpad},
                      {"right_pad", rpad}, {"pad_width", pad}, {"preserve_short_sequences", preserve}});
  };
  auto out = grams({"A", "B", "C", "D"}, {0, 4}, {2}, "", "", 0, false);
  CHECK(text_values(out[0]) == std::vector<std::string>{"A B", "B C", "C D"});
  CHECK(int_values(out[1]) == std::vector<int64_t>{0, 3});
  out = grams({"a", "b", "c", "d", "e"}, {0, 3, 5}, {3}, "LP", "RP", -1, false);
  CHECK(text_values(out[0]) == std::vector<std::string>{"LP LP a", "LP a b", "a b c", "b c RP", "c RP RP",
                                                   "LP LP d", "LP d e", "d e RP", "e RP RP"});
  out = grams({"a", "b", "c"}, {0, 1, 3}, {3}, "", "", 0, true);
  CHECK(text_values(out[0]) == std::vector<std::string>{"a", "b c"});
  CHECK(int_values(out[1]) == std::vector<int64_t>{0, 1, 2});
  out = grams({"a", "b"}, {0, 2}, {1, 2}, "", "", 0, false);
  CHECK(text_values(out[0]) == std::vector<std::string>{"a", "b", "a b"});
}

TEST_CASE("RaggedTensorToTensor pads rows with the default value") {
  Tensor vals = int32s({1, 2, 3, 4, 5});
  Tensor out = run1("RaggedTensorToTensor", {Tensor::scalar<int64_t>(-1), vals, Tensor::scalar<int32_t>(9),
                                             int64_vec({0, 2, 2, 5})});
  CHECK(out.shape() == Shape{3, 3});
  CHECK(int_values(out) == std::vector<int64_t>{1, 2, 9, 9, 9, 9, 3, 4, 5});
  // Two ragged levels: [[[1], [2, 3]], [[4, 5]]].
  Tensor deep = run1("RaggedTensorToTensor", {Tensor::scalar<int64_t>(-1), vals, Tensor::scalar<int32_t>(0),
                                              int64_vec({0, 2, 3}), int64_vec({0, 1, 3, 5})});
  CHECK(deep.shape() == Shape{2, 2, 2});
  CHECK(int_values(deep) == std::vector<int64_t>{1, 0, 2, 3, 4, 5, 0, 0});
  // TF's row_partition_types: row splits are read, other kinds refused by name.
  std::vector<Tensor> in = {Tensor::scalar<int64_t>(-1), vals, Tensor::scalar<int32_t>(9), int64_vec({0, 2, 2, 5})};
  auto kinds = [](const char* kind) { return Attrs{{"row_partition_types", std::vector<std::string>{kind}}}; };
  CHECK(int_values(run1("RaggedTensorToTensor", in, kinds("ROW_SPLITS"))) == std::vector<int64_t>{1, 2, 9, 9, 9, 9, 3, 4, 5});
  CHECK_THROWS_WITH_AS(run1("RaggedTensorToTensor", in, kinds("VALUE_ROWIDS")),
                       "RaggedTensorToTensor with row partition type VALUE_ROWIDS: agc reads ROW_SPLITS only", UnimplementedError);
}

TEST_CASE("RaggedTensorToTensor refuses row splits that do not partition the values") {
  // Found by ops_fuzz: scalar float "splits" (read as int32) indexed past the
  // values. A graph from a file may hold any partition tensors.
  Tensor vals = int32s({1, 2, 3, 4, 5});
  auto to_tensor = [&](std::vector<Tensor> splits, Tensor values) {
    std::vector<Tensor> in{Tensor::scalar<int64_t>(-1), values, Tensor::scalar<int32_t>(9)};
    in.insert(in.end(), splits.begin(), splits.end());
    return error_of("RaggedTensorToTensor", in);
  };
  CHECK(to_tensor({Tensor::scalar<float>(-13)}, vals) ==
        "Value for attr 'Tindex' of float is not in the list of allowed values: int64, int32\n\t; NodeDef: {{node "
        "RaggedTensorToTensor}}");
  CHECK(to_tensor({Tensor::scalar<int64_t>(0)}, vals) == "row_partition_tensors[0] must be a vector, not of shape []");
  CHECK(to_tensor({int64_vec({0, 2})}, Tensor::scalar<int32_t>(1)) == "values must have rank at least 1, not 0");
  CHECK(to_tensor({int64_vec({})}, vals) == "Invalid row_partition_tensors[0]: row splits must have at least one element");
  CHECK(to_tensor({int64_vec({1, 5})}, vals) == "Invalid row_partition_tensors[0]: row splits must start with 0, not 1");
  CHECK(to_tensor({int64_vec({0, 3, 2, 5})}, vals) ==
        "Invalid row_partition_tensors[0]: row splits must not decrease, but 2 follows 3");
  CHECK(to_tensor({int64_vec({0, 2, 7})}, vals) ==
        "Invalid row_partition_tensors[0]: row splits end at 7, but values has 5");
  CHECK(to_tensor({int64_vec({0, 2, 4}), int64_vec({0, 1, 3, 5})}, vals) ==
        "Invalid row_partition_tensors[0]: row splits end at 4, but the next partition has 3");
}

TEST_CASE("UnicodeDecode replaces each maximal ill-formed subsequence once; UnicodeEncode inverts it") {
  Attrs a{{"input_encoding", std::string("UTF-8")}, {"errors", std::string("replace")}, {"replacement_char", int64_t{65533}}};
  auto out = runv("UnicodeDecode", {texts({"G\xc3\xb6", "", "a\xff", "\xf0\x9f\x98\x8a", "\xe2\x82z"})}, a);
  CHECK(int_values(out[0]) == std::vector<int64_t>{0, 2, 2, 4, 5, 7});
  CHECK(int_values(out[1]) == std::vector<int64_t>{71, 246, 97, 65533, 128522, 65533, 122});
  Attrs strict{{"input_encoding", std::string("UTF-8")}, {"errors", std::string("strict")}};
  CHECK(error_of("UnicodeDecode", {texts({"\xc0"})}, strict) == "Invalid formatting on input string");
  Attrs e{{"output_encoding", std::string("UTF-8")}, {"errors", std::string("replace")}, {"replacement_char", int64_t{65533}}};
  Tensor enc = run1("UnicodeEncode", {int32s({71, 246, 128522, 0xD800}), int64_vec({0, 2, 2, 4})}, e);
  CHECK(text_values(enc) == std::vector<std::string>{"G\xc3\xb6", "", "\xf0\x9f\x98\x8a\xef\xbf\xbd"});
  // Every code point round-trips (surrogates excepted).
  for (int32_t cp : {0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF}) {
    Tensor s = run1("UnicodeEncode", {int32s({cp}), int64_vec({0, 1})}, e);
    auto back = runv("UnicodeDecode", {s}, a);
    CHECK(int_values(back[1]) == std::vector<int64_t>{cp});
  }
}

TEST_CASE("StringSplit splits on any delimiter byte, or into bytes") {
  auto out = runv("StringSplit", {texts({"ab", "", "c"}), text_scalar("")}, Attrs{{"skip_empty", false}});
  CHECK(text_values(out[1]) == std::vector<std::string>{"a", "b", "c"});
  CHECK(int_values(out[0]) == std::vector<int64_t>{0, 0, 0, 1, 2, 0});
  CHECK(int_values(out[2]) == std::vector<int64_t>{3, 2});
  out = runv("StringSplit", {texts({"a,b;;c"}), text_scalar(",;")}, Attrs{{"skip_empty", true}});
  CHECK(text_values(out[1]) == std::vector<std::string>{"a", "b", "c"});
  out = runv("StringSplit", {texts({"a,b;;c"}), text_scalar(",;")}, Attrs{{"skip_empty", false}});
  CHECK(text_values(out[1]) == std::vector<std::string>{"a", "b", "", "c"});
}

TEST_CASE("StringSplit wants a vector of strings and a scalar delimiter") {
  // Found by ops_fuzz: an empty delimiter tensor (shape [0]) was read at
  // element 0, past its end.
  auto split_error = [](Tensor in, Tensor delimiter) {
    try {
      runv("StringSplit", {std::move(in), std::move(delimiter)});
    } catch (const InvalidArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  CHECK(split_error(texts({"a b"}), Tensor(DType::String, Shape{0})) == "delimiter must be a scalar, not shape [0]");
  CHECK(split_error(text_scalar("a b"), text_scalar(" ")) == "input must be a vector, got shape: []");
  CHECK(split_error(Tensor(DType::String, Shape{1, 0}), text_scalar(" ")) == "input must be a vector, got shape: [1,0]");
}
