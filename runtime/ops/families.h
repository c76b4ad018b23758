// One registration function per op family of the ops layer (STYLE.md 8.4);
// register_builtin_ops() (exec/register_builtin_ops.cpp) calls each of them,
// in this order, then the graph layer's and the executor's.
#pragma once

namespace ag {

class OpRegistry;

void register_array_ops(OpRegistry& reg);      // array_ops.cpp: Const, Identity, Reshape, Transpose, Gather, ...
void register_math_ops(OpRegistry& reg);       // math_ops.cpp: elementwise arithmetic, comparison, logic, Cast, Select,
                                               // special functions, segment reductions
void register_reduction_ops(OpRegistry& reg);  // reduction_ops.cpp: Sum, Mean, Max, ..., EuclideanNorm, ArgMax, Cumsum
void register_linalg_ops(OpRegistry& reg);     // linalg_ops.cpp: MatMul, BatchMatMulV2, matrix diagonals, factorizations
void register_nn_ops(OpRegistry& reg);         // nn_ops.cpp: Softmax, Conv2D, BiasAdd, pools; activations, losses
void register_string_ops(OpRegistry& reg);     // string_ops.cpp: StringJoin, AsString, StringToNumber, ...
void register_text_ops(OpRegistry& reg);       // text_ops.cpp: StringLower/Upper/Strip, regexes, Substr, ReduceJoin
void register_ragged_string_ops(OpRegistry& reg);  // ragged_string_ops.cpp: StringSplitV2, StringNGrams
void register_ragged_conversion_ops(OpRegistry& reg);  // ragged_string_ops.cpp: RaggedTensorToTensor
void register_unicode_ops(OpRegistry& reg);    // unicode_ops.cpp: UnicodeDecode, UnicodeEncode, StringSplit
void register_random_ops(OpRegistry& reg);     // random_ops.cpp: seeded and stateless random ops, RandomShuffle,
                                               // Multinomial; random_gamma_ops.cpp, random_poisson_ops.cpp
void register_stateful_random_ops(OpRegistry& reg);  // stateful_random_ops.cpp: tf.random.Generator's ops
void register_py_func_ops(OpRegistry& reg);     // py_func_ops.cpp: EagerPyFunc (tf.py_function)
void register_logging_ops(OpRegistry& reg);    // logging_ops.cpp: PrintV2 (stateful)
void register_list_ops(OpRegistry& reg);       // list_ops.cpp: TensorList* (TensorArray)
void register_state_ops(OpRegistry& reg);      // state_ops.cpp: variable reads and assignments
void register_iterator_ops(OpRegistry& reg);   // iterator_ops.cpp: dataset iterators in traced loops
void register_sparse_ops(OpRegistry& reg);     // sparse_ops.cpp: tf.SparseTensor's ops
void register_parse_example_ops(OpRegistry& reg);  // parse_example_ops.cpp: tf.train.Example records
void register_quantization_ops(OpRegistry& reg);  // quantization_ops.cpp: XlaDotV2, CustomAggregator
void register_conv3d_ops(OpRegistry& reg);    // conv3d_ops.cpp: Conv3D and its gradient ops
void register_fake_quant_ops(OpRegistry& reg);  // fake_quant_ops.cpp: FakeQuantWithMinMaxArgs/Vars (QAT)

}  // namespace ag
