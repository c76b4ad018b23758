// The TensorList ops behind TensorArray (TF's list_ops.cc / list_kernels):
// a list is a scalar variant tensor (runtime/core/tensor_list.h). Every op
// takes the element dtype as attr `element_dtype` and, where TF takes an
// `element_shape` input, agc takes the static element shape as attr
// `element_shape` (a Shape, possibly partial): the TensorArray knows it when it
// builds the node, and the shape rule needs it.
//
// Lists are never constant-folded (constant_folding.cpp skips variants): a
// folded list would be one storage shared by every call of the function.
#include <string>
#include <vector>

#include "runtime/core/tensor_list.h"
#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::check_dtype;

constexpr const char* kListDTypes =
    "float32, float64, int32, int64, bool, string, bfloat16, int8, uint8 (agc's list element types)";

/// Lists the user makes hold data tensors only (no lists of lists); a
/// loop's gradient accumulates the lists of a nested loop in a list
/// (TensorListPushBack and TensorListGetItem take them).
DType checked_element_dtype(DType t) {
  if (t == DType::Variant) {
    throw InvalidArgumentError(std::string("Value for attr 'element_dtype' of variant is not in the list of allowed "
                                           "values: ") + kListDTypes);
  }
  return t;
}

DType element_dtype(const Attrs& a) { return checked_element_dtype(a.get<DType>("element_dtype")); }

/// The element dtype of a new list: DType::Variant means "decided by the
/// first item" (a Python list turned into a TensorArray before its first append).
DType new_list_dtype(const Attrs& a) { return a.get<DType>("element_dtype"); }

Shape element_shape(const Attrs& a) { return a.get_or<Shape>("element_shape", Shape::unknown_rank()); }

std::vector<TensorSpec> list_spec() { return {{DType::Variant, Shape{}}}; }

void check_list_input(const InferContext& c) { check_dtype(c, 0, DType::Variant); }

/// TF: "Invalid data types; op elements float but list elements int32". A list
/// whose element dtype is not known yet (Variant) takes the first item's.
void check_element_dtype(const TensorList& l, DType want) {
  if (l.element_dtype != want && l.element_dtype != DType::Variant) {
    throw InvalidArgumentError(std::string("Invalid data types; op elements ") + dtype_tf_string(want) +
                               " but list elements " + dtype_tf_string(l.element_dtype));
  }
}

int32_t index_of(const Tensor& t) { return array::scalar_of<int32_t>(t, "index"); }

/// The element shape of unset slots when reading them: every dim must be known.
Shape zeros_shape(const TensorList& l, const Shape& declared, const char* message, const char* suffix = "") {
  Shape s = inferred_element_shape(l, declared);
  if (!s.fully_defined()) throw InvalidArgumentError(message + s.debug_string() + suffix);
  return s;
}

/// [n] + elem, or an unknown rank when elem's is unknown.
Shape with_leading_dim(int64_t n, const Shape& elem) {
  if (!elem.rank_known()) return Shape::unknown_rank();
  Shape out{n};
  for (int64_t d : elem.dims()) out.push_back(d);
  return out;
}

/// Elements `indices` of `l` stacked along a new first axis (unset ones as zeros).
void stack_into(const TensorList& l, const std::vector<int64_t>& indices, const Shape& declared, KernelContext& k,
                const char* gather_error) {
  Shape elem = inferred_element_shape(l, declared);
  if (!elem.fully_defined()) {
    if (l.size == 0) {
      throw InvalidArgumentError("Tried to stack elements of an empty list with non-fully-defined element_shape: " +
                                 elem.debug_string());
    }
    throw InvalidArgumentError(
        "Tried to stack list which only contains uninitialized tensors and has a non-fully-defined element_shape: " +
        elem.debug_string());
  }
  Tensor& out = k.allocate_output(0, l.element_dtype, with_leading_dim(static_cast<int64_t>(indices.size()), elem));
  Tensor zeros;
  int64_t per = elem.num_elements();
  for (size_t j = 0; j < indices.size(); ++j) {
    int64_t i = indices[j];
    if (i < 0 || i >= l.size) {
      throw InvalidArgumentError(std::string(gather_error) + std::to_string(i) + " in a list with " +
                                 std::to_string(l.size) + " elements.");
    }
    Tensor t = l.get(i);
    if (!t.defined()) {
      if (!zeros.defined()) zeros = Tensor::zeros(l.element_dtype, elem);
      t = zeros;
    } else if (!(t.shape() == elem)) {
      throw InvalidArgumentError("Incompatible shapes during merge: " + elem.debug_string() + " vs. " +
                                 t.shape().debug_string());
    }
    copy_elements(out, static_cast<int64_t>(j) * per, t, 0, per);
  }
}

Kernel get_item_kernel(const KernelSpec& s) {
  DType dtype = s.attrs.get<DType>("element_dtype");
  Shape declared = element_shape(s.attrs);
  return [dtype, declared](KernelContext& k) {
    const TensorList& l = list_of(k.input(0));
    check_element_dtype(l, dtype);
    int32_t i = index_of(k.input(1));
    if (i < 0 || i >= l.size) {
      throw InvalidArgumentError("Trying to access element " + std::to_string(i) + " in a list with " +
                                 std::to_string(l.size) + " elements.");
    }
    Tensor t = l.get(i);
    if (!t.defined()) {
      t = Tensor::zeros(dtype, zeros_shape(l, declared,
                                           "Trying to read an uninitialized tensor but element_shape is not fully "
                                           "defined: ",
                                           " and no list element is set."));
    }
    k.set_output(0, std::move(t));
  };
}

Kernel set_item_kernel(const KernelSpec& s) {
  bool resize = s.attrs.get_or<bool>("resize_if_index_out_of_bounds", false);
  return [resize](KernelContext& k) {
    const TensorList& l = list_of(k.input(0));
    const Tensor& item = k.input(2);
    check_element_dtype(l, item.dtype());
    int32_t i = index_of(k.input(1));
    if (resize && i < 0) throw InvalidArgumentError("Trying to resize with negative index: " + std::to_string(i));
    if (i < 0 || (i >= l.size && !resize)) {
      throw InvalidArgumentError("Trying to modify element " + std::to_string(i) + " in a list with " +
                                 std::to_string(l.size) + " elements.");
    }
    if (!l.element_shape.is_compatible_with(item.shape())) {
      throw InvalidArgumentError("Tried to set a tensor with incompatible shape at a list index. Item element shape: " +
                                 item.shape().debug_string() + " list shape: " + l.element_shape.debug_string());
    }
    k.set_output(0, list_tensor(l.set(i, item)));
  };
}

/// Shape `s` without its first dim (unknown rank stays unknown).
Shape without_first_dim(const Shape& s) {
  return s.rank_known() && s.rank() >= 1 ? Shape(s.dims().subspan(1)) : Shape::unknown_rank();
}

/// TensorListConcatV2(l, leading_dims) -> (t, lengths): the elements
/// concatenated along their first axis. attr element_shape is TF's
/// element_shape input (the TensorArray passes [None] + its element shape's
/// trailing dims); leading_dims gives unset elements' first dims.
Kernel concat_kernel(const KernelSpec& s) {
  DType dtype = s.attrs.get<DType>("element_dtype");
  Shape given = element_shape(s.attrs);
  return [dtype, given](KernelContext& k) {
    const TensorList& l = list_of(k.input(0));
    check_element_dtype(l, dtype);
    Shape shape = merge_shapes(given, l.element_shape);
    if (shape.rank_known() && shape.rank() == 0) {
      throw InvalidArgumentError("Concat requires elements to be at least vectors, found scalars instead.");
    }
    int64_t first_dim = shape.rank_known() ? shape.dim(0) : -1;
    Shape rest = without_first_dim(shape);
    if (l.size == 0 && !rest.fully_defined()) {
      throw InvalidArgumentError("All except the first dimension must be fully defined when concating an empty tensor "
                                 "list. element_shape: " + rest.debug_string());
    }
    if (!l.element_shape.fully_defined()) {
      bool check_dim = first_dim == -1;
      int64_t inferred = first_dim;
      for (int64_t i = 0; i < l.size; ++i) {
        Tensor t = l.get(i);
        if (!t.defined()) continue;
        if (t.rank() < 1) {
          throw InvalidArgumentError("Concat saw a scalar shape at index " + std::to_string(i) +
                                     " but requires at least vectors.");
        }
        rest = merge_shapes(rest, without_first_dim(t.shape()));
        if (first_dim != -1 && first_dim != t.shape().dim(0)) {
          throw InvalidArgumentError("First entry of element_shape input does not match the first dim of list element "
                                     "at index: " + std::to_string(i) + " Expected: " + std::to_string(first_dim) +
                                     " Actual: " + std::to_string(t.shape().dim(0)));
        }
        if (check_dim) {
          if (inferred == -1) {
            inferred = t.shape().dim(0);
          } else if (inferred != t.shape().dim(0)) {
            inferred = -1;
            check_dim = false;
          }
        }
      }
      first_dim = inferred;
    }
    if (!rest.fully_defined()) {
      throw InvalidArgumentError("Trying to concat list with only uninitialized tensors but "
                                 "element_shape_except_first_dim is not fully defined: " + rest.debug_string());
    }
    // TF's Python always passes leading_dims (empty when not given).
    std::vector<int64_t> leading = array::int_values(k.input(1));
    Tensor lengths(DType::Int64, Shape{l.size});
    int64_t total = 0;
    for (int64_t i = 0; i < l.size; ++i) {
      Tensor t = l.get(i);
      int64_t dim = 0;
      auto ui = static_cast<size_t>(i);
      if (t.defined()) {
        dim = t.shape().dim(0);
      } else if (ui >= leading.size() && first_dim != -1) {
        dim = first_dim;
      } else if (ui >= leading.size()) {
        throw InvalidArgumentError("List contains uninitialized tensor at index " + std::to_string(i) +
                                   " but leading_dims has only " + std::to_string(leading.size()) + " elements.");
      } else {
        dim = leading[ui];
      }
      lengths.data<int64_t>()[i] = dim;
      total += dim;
    }
    Tensor& out = k.allocate_output(0, dtype, with_leading_dim(total, rest));
    int64_t per = rest.num_elements();
    int64_t at = 0;
    for (int64_t i = 0; i < l.size; ++i) {
      Tensor t = l.get(i);
      int64_t n = lengths.data<int64_t>()[i] * per;
      if (t.defined()) copy_elements(out, at, t, 0, n);
      else copy_elements(out, at, Tensor::zeros(dtype, with_leading_dim(lengths.data<int64_t>()[i], rest)), 0, n);
      at += n;
    }
    k.set_output(1, std::move(lengths));
  };
}

/// TensorListSplit(t, lengths) -> l: element i is the next lengths[i] rows of t.
Kernel split_kernel(const KernelSpec& s) {
  Shape declared = element_shape(s.attrs);
  return [declared](KernelContext& k) {
    if (declared.rank_known() && declared.rank() < 1) {
      throw InvalidArgumentError("TensorListSplit requires element_shape to be at least of rank 1, but saw: " +
                                 declared.debug_string());
    }
    const Tensor& t = k.input(0);
    if (t.rank() < 1) {
      throw InvalidArgumentError("Tensor must be at least a vector, but saw shape: " + t.shape().debug_string());
    }
    Shape rest = without_first_dim(t.shape());
    if (!without_first_dim(declared).is_compatible_with(rest)) {
      throw InvalidArgumentError("tensor shape " + t.shape().debug_string() + " is not compatible with element_shape " +
                                 declared.debug_string());
    }
    const Tensor& lengths_t = k.input(1);
    if (lengths_t.rank() != 1) {
      throw InvalidArgumentError("Expected lengths to be a vector, received shape: " +
                                 lengths_t.shape().debug_string());
    }
    std::vector<int64_t> lengths = array::int_values(lengths_t);
    int64_t n = t.shape().dim(0);
    int64_t per = rest.num_elements();
    std::vector<Tensor> items;
    int64_t start = 0;
    for (int64_t len : lengths) {
      if (len < 0) throw InvalidArgumentError("Invalid value in lengths: " + std::to_string(len));
      int64_t end = start + len;
      if (end > n) {
        throw InvalidArgumentError("Attempting to slice [" + std::to_string(start) + ", " + std::to_string(end) +
                                   "] from tensor with length " + std::to_string(n));
      }
      Tensor item(t.dtype(), with_leading_dim(len, rest));
      copy_elements(item, 0, t, start * per, len * per);
      items.push_back(std::move(item));
      start = end;
    }
    if (start != n) {
      throw InvalidArgumentError("Unused values in tensor. Length of tensor: " + std::to_string(n) +
                                 " Values used: " + std::to_string(start));
    }
    k.set_output(0, list_tensor(TensorList::from_items(t.dtype(), declared, std::move(items))));
  };
}

/// TensorListScatterIntoExistingList(l, t, indices) -> l': row j of t set at
/// indices[j]; the list grows to hold the largest index (TF resizes even a
/// TensorArray that is not dynamic_size).
Kernel scatter_kernel(const KernelSpec&) {
  return [](KernelContext& k) {
    const TensorList& l = list_of(k.input(0));
    const Tensor& t = k.input(1);
    const Tensor& indices = k.input(2);
    if (l.element_dtype != DType::Variant && t.dtype() != l.element_dtype) {
      throw InvalidArgumentError(std::string("Invalid data types; input tensor type: ") + dtype_tf_string(t.dtype()) +
                                 " list element_type: " + dtype_tf_string(l.element_dtype));
    }
    if (t.rank() < 1) {
      throw InvalidArgumentError("Tensor must be at least a vector, but saw shape: " + t.shape().debug_string());
    }
    if (indices.rank() != 1) {
      throw InvalidArgumentError("Expected indices to be a vector, but received shape: " +
                                 indices.shape().debug_string());
    }
    std::vector<int64_t> ix = array::int_values(indices);
    if (static_cast<int64_t>(ix.size()) != t.shape().dim(0)) {
      throw InvalidArgumentError("Expected len(indices) == tensor.shape[0], but saw: " + std::to_string(ix.size()) +
                                 " vs. " + std::to_string(t.shape().dim(0)));
    }
    Shape elem = without_first_dim(t.shape());
    int64_t per = elem.num_elements();
    TensorListPtr out = list_ptr_of(k.input(0));
    for (size_t j = 0; j < ix.size(); ++j) {
      // TF does not check (its kernel writes out of bounds); agc says what TensorListScatter says.
      if (ix[j] < 0) throw InvalidArgumentError("Indices in TensorListScatter must all be non-negative.");
      Tensor item(t.dtype(), elem);
      copy_elements(item, 0, t, static_cast<int64_t>(j) * per, per);
      out = out->set(ix[j], std::move(item));
    }
    k.set_output(0, list_tensor(std::move(out)));
  };
}

// ---- gradients (GRADIENTS.md 2.4, TF's list_ops.py). A list's gradient is
// a list of its elements' gradients; an unset element reads as zeros.

/// Attrs of a list whose elements have `t`'s type.
Attrs elements_like(const GradContext& c, GradTensor t) {
  const TensorSpec& s = c.spec(t);
  return Attrs{{"element_dtype", s.dtype}, {"element_shape", s.shape}};
}

/// SetItem(l, i, x): the list's gradient without element i, and element i's.
std::vector<GradTensor> set_item_grad(GradContext& c) {
  GradTensor dl = c.grad(0), dlist, ditem;
  if (c.needed(0)) dlist = c.apply1(op::TensorListSetItem, {dl, c.input(1), c.zeros_like(c.input(2))});
  if (c.needed(2)) ditem = c.apply1(op::TensorListGetItem, {dl, c.input(1)}, elements_like(c, c.input(2)));
  return grads({dlist, GradTensor{}, ditem});
}

/// GetItem(l, i): a list of l's length holding the gradient at i.
std::vector<GradTensor> get_item_grad(GradContext& c) {
  Attrs a = elements_like(c, c.output(0));
  GradTensor n = c.apply1(op::TensorListLength, {c.input(0)});
  GradTensor empty = c.apply1(op::TensorListReserve, {n}, a);
  return grads({c.apply1(op::TensorListSetItem, {empty, c.input(1), c.grad(0)}), GradTensor{}});
}

/// PushBack(l, x): pop the gradient of x off the list's.
std::vector<GradTensor> push_back_grad(GradContext& c) {
  std::vector<GradTensor> popped = c.apply(op::TensorListPopBack, std::vector<GradTensor>{c.grad(0)},
                                           elements_like(c, c.input(1)));
  return grads({popped[0], popped[1]});
}

/// PopBack(l) -> (l', x): push x's gradient back.
std::vector<GradTensor> pop_back_grad(GradContext& c) {
  return grads({c.apply1(op::TensorListPushBack, {c.grad(0), c.grad(1)})});
}

/// Stack(l) -> t: the rows of t's gradient as a list.
std::vector<GradTensor> stack_grad(GradContext& c) {
  Shape elem = element_shape(c.attrs());
  return grads({c.apply1(op::TensorListFromTensor, {c.grad(0)}, Attrs{{"element_shape", elem}})});
}

/// FromTensor(t) -> l: the list's gradient stacked.
std::vector<GradTensor> from_tensor_grad(GradContext& c) {
  const TensorSpec& t = c.spec(c.input(0));
  Shape elem = t.shape.rank_known() ? Shape(t.shape.dims().subspan(1)) : Shape::unknown_rank();
  Attrs a{{"element_dtype", t.dtype}, {"element_shape", elem}};
  if (t.shape.rank_known() && t.shape.dim(0) >= 0) a.set("num_elements", t.shape.dim(0));
  return grads({c.apply1(op::TensorListStack, {c.grad(0)}, a)});
}

/// ConcatV2(l[, leading_dims]) -> (t, lengths): t's gradient split back by the lengths.
std::vector<GradTensor> concat_grad(GradContext& c) {
  GradTensor dlist =
      c.apply1(op::TensorListSplit, {c.grad(0), c.output(1)}, Attrs{{"element_shape", Shape::unknown_rank()}});
  return grads({dlist, GradTensor{}});
}

/// Split(t, lengths) -> l: the list's gradient concatenated, unset elements
/// as zeros of their lengths.
std::vector<GradTensor> split_grad(GradContext& c) {
  const TensorSpec& t = c.spec(c.input(0));
  Attrs a{{"element_dtype", t.dtype}, {"element_shape", with_leading_dim(-1, without_first_dim(t.shape))}};
  std::vector<GradTensor> out = c.apply(op::TensorListConcatV2, std::vector<GradTensor>{c.grad(0), c.input(1)}, a);
  return grads({out[0], GradTensor{}});
}

/// ScatterIntoExistingList(l, t, indices): t's gradient gathered from the
/// list's; the list's gradient with those slots zeroed.
std::vector<GradTensor> scatter_grad(GradContext& c) {
  GradTensor dl = c.grad(0), dlist, dtensor;
  const TensorSpec& t = c.spec(c.input(1));
  if (c.needed(1)) {
    dtensor = c.apply1(op::TensorListGather, {dl, c.input(2)},
                       Attrs{{"element_dtype", t.dtype}, {"element_shape", without_first_dim(t.shape)}});
  }
  if (c.needed(0)) dlist = c.apply1(op::TensorListScatterIntoExistingList, {dl, c.zeros_like(c.input(1)), c.input(2)});
  return grads({dlist, dtensor, GradTensor{}});
}

}  // namespace

void register_list_ops(OpRegistry& reg) {
  reg.op("EmptyTensorList")
      .tf_signature("element_shape: shape_type = shape(element_shape), max_num_elements: int32 = int(max_num_elements) "
                    "-> handle: variant")
      .inputs(0)
      .infer([](const InferContext& c) {
        new_list_dtype(c.attrs);
        return list_spec();
      })
      .cpu([](const KernelSpec& s) {
        DType dtype = new_list_dtype(s.attrs);
        Shape shape = element_shape(s.attrs);
        return Kernel([dtype, shape](KernelContext& k) { k.set_output(0, list_tensor(TensorList::reserve(dtype, shape, 0))); });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .not_differentiable();

  reg.op("TensorListReserve")
      .tf_signature("element_shape: shape_type = shape(element_shape), num_elements: int32 -> handle: variant")
      .inputs(1)
      .infer([](const InferContext& c) {
        new_list_dtype(c.attrs);
        check_dtype(c, 0, DType::Int32);
        return list_spec();
      })
      .cpu([](const KernelSpec& s) {
        DType dtype = new_list_dtype(s.attrs);
        Shape shape = element_shape(s.attrs);
        return Kernel([dtype, shape](KernelContext& k) {
          int32_t n = array::scalar_of<int32_t>(k.input(0), "num_elements");
          if (n < 0) {
            throw InvalidArgumentError("The num_elements to reserve must be a non negative number, but got " +
                                       std::to_string(n));
          }
          k.set_output(0, list_tensor(TensorList::reserve(dtype, shape, n)));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .not_differentiable();

  reg.op("TensorListFromTensor")
      .tf_signature("tensor: element_dtype, element_shape: shape_type = shape(element_shape) -> output_handle: variant")
      .inputs(1)
      .infer([](const InferContext& c) {
        checked_element_dtype(c.inputs[0].dtype);
        return list_spec();
      })
      .cpu([](const KernelSpec& s) {
        Shape declared = element_shape(s.attrs);
        return Kernel([declared](KernelContext& k) {
          const Tensor& t = k.input(0);
          if (t.rank() < 1) {
            throw InvalidArgumentError("Tensor must be at least a vector, but saw shape: " + t.shape().debug_string());
          }
          Shape elem(t.shape().dims().subspan(1));
          Shape merged = merge_shapes(declared, elem);
          std::vector<Tensor> items;
          int64_t n = t.shape().dim(0);
          int64_t per = elem.num_elements();
          items.reserve(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) {
            Tensor item(t.dtype(), elem);
            copy_elements(item, 0, t, i * per, per);
            items.push_back(std::move(item));
          }
          k.set_output(0, list_tensor(TensorList::from_items(t.dtype(), merged, std::move(items))));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(from_tensor_grad);

  reg.op("TensorListLength")
      .tf_signature("input_handle: variant -> length: int32")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_list_input(c);
        return std::vector<TensorSpec>{{DType::Int32, Shape{}}};
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          k.set_output(0, Tensor::scalar<int32_t>(static_cast<int32_t>(list_of(k.input(0)).size)));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .not_differentiable();

  reg.op("TensorListGetItem")
      .tf_signature("input_handle: variant, index: int32, element_shape: int32 = shape(element_shape) -> item: element_dtype")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_list_input(c);
        check_dtype(c, 1, DType::Int32);
        return std::vector<TensorSpec>{{c.attrs.get<DType>("element_dtype"), element_shape(c.attrs)}};
      })
      .cpu(get_item_kernel)
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(get_item_grad);

  reg.op("TensorListSetItem")
      .tf_signature("input_handle: variant, index: int32, item: element_dtype -> output_handle: variant")
      .inputs(3)
      .infer([](const InferContext& c) {
        check_list_input(c);
        check_dtype(c, 1, DType::Int32);
        checked_element_dtype(c.inputs[2].dtype);
        return list_spec();
      })
      .cpu(set_item_kernel)
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(set_item_grad);

  reg.op("TensorListPushBack")
      .tf_signature("input_handle: variant, tensor: element_dtype -> output_handle: variant")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_list_input(c);
        
        return list_spec();
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          const TensorList& l = list_of(k.input(0));
          const Tensor& item = k.input(1);
          check_element_dtype(l, item.dtype());
          if (!l.element_shape.is_compatible_with(item.shape())) {
            throw InvalidArgumentError("Tried to append a tensor with incompatible shape to a list. Op element shape: " +
                                       item.shape().debug_string() + " list shape: " + l.element_shape.debug_string());
          }
          k.set_output(0, list_tensor(l.set(l.size, item)));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(push_back_grad);

  reg.op("TensorListPopBack")
      .tf_signature(
          "input_handle: variant, element_shape: int32 = shape(element_shape) -> output_handle: variant, tensor: element_dtype")
      .inputs(1)
      .outputs(2)
      .infer([](const InferContext& c) {
        check_list_input(c);
        return std::vector<TensorSpec>{{DType::Variant, Shape{}}, {element_dtype(c.attrs), element_shape(c.attrs)}};
      })
      .cpu([](const KernelSpec& s) {
        DType dtype = element_dtype(s.attrs);
        Shape declared = element_shape(s.attrs);
        return Kernel([dtype, declared](KernelContext& k) {
          const TensorList& l = list_of(k.input(0));
          check_element_dtype(l, dtype);
          if (l.size == 0) throw InvalidArgumentError("Trying to pop from an empty list.");
          Tensor t = l.get(l.size - 1);
          if (!t.defined()) {
            t = Tensor::zeros(dtype, zeros_shape(l, declared,
                                                 "Trying to read an uninitialized tensor but element_shape is not "
                                                 "fully defined."));
          }
          k.set_output(1, std::move(t));
          k.set_output(0, list_tensor(l.pop_back()));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(pop_back_grad);

  reg.op("TensorListStack")
      .tf_signature("input_handle: variant, element_shape: int32 = shape(element_shape) -> tensor: element_dtype")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_list_input(c);
        Shape out = with_leading_dim(c.attrs.get_or<int64_t>("num_elements", -1), element_shape(c.attrs));
        return std::vector<TensorSpec>{{element_dtype(c.attrs), out}};
      })
      .cpu([](const KernelSpec& s) {
        DType dtype = element_dtype(s.attrs);
        Shape declared = element_shape(s.attrs);
        int64_t num_elements = s.attrs.get_or<int64_t>("num_elements", -1);
        return Kernel([dtype, declared, num_elements](KernelContext& k) {
          const TensorList& l = list_of(k.input(0));
          check_element_dtype(l, dtype);
          if (num_elements != -1 && l.size != num_elements) {
            throw InvalidArgumentError("Operation expected a list with " + std::to_string(num_elements) +
                                       " elements but got a list with " + std::to_string(l.size) + " elements.");
          }
          std::vector<int64_t> all(static_cast<size_t>(l.size));
          for (int64_t i = 0; i < l.size; ++i) all[static_cast<size_t>(i)] = i;
          stack_into(l, all, declared, k, "Trying to access element ");
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(stack_grad);

  reg.op("TensorListGather")
      .tf_signature(
          "input_handle: variant, indices: int32, element_shape: int32 = shape(element_shape) -> values: element_dtype")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_list_input(c);
        check_dtype(c, 1, DType::Int32);
        Shape elem = element_shape(c.attrs);
        const Shape& idx = c.inputs[1].shape;
        if (!elem.rank_known() || !idx.rank_known()) {
          return std::vector<TensorSpec>{{element_dtype(c.attrs), Shape::unknown_rank()}};
        }
        if (idx.rank() != 1) {
          throw InvalidArgumentError("Shape must be rank 1 but is rank " + std::to_string(idx.rank()) +
                                     " for '{{node TensorListGather}}'");
        }
        return std::vector<TensorSpec>{{element_dtype(c.attrs), with_leading_dim(idx.dim(0), elem)}};
      })
      .cpu([](const KernelSpec& s) {
        DType dtype = element_dtype(s.attrs);
        Shape declared = element_shape(s.attrs);
        return Kernel([dtype, declared](KernelContext& k) {
          const TensorList& l = list_of(k.input(0));
          check_element_dtype(l, dtype);
          stack_into(l, array::int_values(k.input(1)), declared, k, "Trying to gather element ");
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad_unimplemented();
  reg.op("TensorListConcatV2")
      .tf_signature("input_handle: variant, element_shape: shape_type = shape(element_shape), leading_dims: int64 "
                    "-> tensor: element_dtype, lengths: int64")
      .inputs(2)
      .outputs(2)
      .infer([](const InferContext& c) {
        check_list_input(c);
        check_dtype(c, 1, DType::Int64);
        Shape given = element_shape(c.attrs);
        return std::vector<TensorSpec>{{element_dtype(c.attrs), with_leading_dim(-1, without_first_dim(given))},
                                       {DType::Int64, Shape{-1}}};
      })
      .cpu(concat_kernel)
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(concat_grad);

  reg.op("TensorListSplit")
      .tf_signature(
          "tensor: element_dtype, element_shape: shape_type = shape(element_shape), lengths: int64 -> output_handle: variant")
      .inputs(2)
      .infer([](const InferContext& c) {
        checked_element_dtype(c.inputs[0].dtype);
        check_dtype(c, 1, DType::Int64);
        return list_spec();
      })
      .cpu(split_kernel)
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(split_grad);

  reg.op("TensorListScatterIntoExistingList")
      .tf_signature("input_handle: variant, tensor: element_dtype, indices: int32 -> output_handle: variant")
      .inputs(3)
      .infer([](const InferContext& c) {
        check_list_input(c);
        checked_element_dtype(c.inputs[1].dtype);
        check_dtype(c, 2, DType::Int32);
        return list_spec();
      })
      .cpu(scatter_kernel)
      .cost(CostKind::Host)
      .tpu_unsupported("TensorLists are host data structures")
      .grad(scatter_grad);
}

}  // namespace ag
