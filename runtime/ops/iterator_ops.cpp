// Iterator ops (see iterator_ops.h): AnonymousIteratorV3 starts a pass over a
// registered source, IteratorGetNextAsOptional takes its next element (a
// has_value flag, then the components: zeros of the element's shape, unknown
// dims 0, at the end), DeleteIterator ends it. All stateful (program order)
// and run on the host.
#include "runtime/ops/iterator_ops.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "runtime/ops/families.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<int64_t, std::shared_ptr<const IterableSource>>& sources() {
  static std::unordered_map<int64_t, std::shared_ptr<const IterableSource>> s;
  return s;
}
std::unordered_map<int64_t, std::shared_ptr<ElementSource>>& iterators() {
  static std::unordered_map<int64_t, std::shared_ptr<ElementSource>> s;
  return s;
}
std::atomic<int64_t> g_next_id{1};

std::shared_ptr<const IterableSource> source(const Attrs& attrs) {
  std::lock_guard<std::mutex> lock(table_mutex());
  const int64_t id = attrs.get<int64_t>("dataset");
  auto it = sources().find(id);
  // Only a graph read from a file can name a dataset this process never made.
  if (it == sources().end()) throw NotFoundError("Resource dataset " + std::to_string(id) + " does not exist");
  return it->second;
}

std::shared_ptr<ElementSource> iterator(int64_t id) {
  std::lock_guard<std::mutex> lock(table_mutex());
  auto it = iterators().find(id);
  if (it == iterators().end()) {
    throw FailedPreconditionError("GetNext() failed because the iterator has not been initialized. Ensure that "
                                  "you have run the initializer operation for this iterator before getting the "
                                  "next element.");
  }
  return it->second;
}

TensorSpec handle_spec() { return {DType::Int64, Shape{}}; }

}  // namespace

int64_t register_iterable(std::shared_ptr<const IterableSource> source) {
  int64_t id = g_next_id.fetch_add(1);
  std::lock_guard<std::mutex> lock(table_mutex());
  sources().emplace(id, std::move(source));
  return id;
}

void register_iterator_ops(OpRegistry& reg) {
  reg.op("AnonymousIteratorV3")
      .inputs(0)
      .stateful()
      .infer([](const InferContext& c) {
        (void)source(c.attrs);
        return std::vector<TensorSpec>{handle_spec()};
      })
      .cpu([](const KernelSpec& s) {
        std::shared_ptr<const IterableSource> src = source(s.attrs);
        return Kernel([src](KernelContext& k) {
          int64_t id = g_next_id.fetch_add(1);
          std::shared_ptr<ElementSource> it = src->start();
          {
            std::lock_guard<std::mutex> lock(table_mutex());
            iterators().emplace(id, std::move(it));
          }
          k.set_output(0, Tensor::scalar<int64_t>(id));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("input pipelines run on the host")
      .not_differentiable();

  reg.op("IteratorGetNextAsOptional")
      .inputs(1)
      .outputs(-1)
      .stateful()
      .infer([](const InferContext& c) {
        std::vector<TensorSpec> out{{DType::Bool, Shape{}}};
        for (const TensorSpec& s : source(c.attrs)->element_specs()) out.push_back(s);
        return out;
      })
      .cpu([](const KernelSpec& s) {
        std::vector<TensorSpec> specs(s.outputs.begin() + 1, s.outputs.end());
        return Kernel([specs](KernelContext& k) {
          std::shared_ptr<ElementSource> it = iterator(k.input(0).scalar_value<int64_t>());
          std::vector<Tensor> element;
          bool has = it->next(element);
          k.set_output(0, Tensor::scalar<bool>(has));
          for (size_t i = 0; i < specs.size(); ++i) {
            if (has) {
              k.set_output(static_cast<int>(i + 1), std::move(element[i]));
              continue;
            }
            Shape shape = specs[i].shape.rank_known() ? specs[i].shape : Shape{};
            for (int d = 0; d < shape.rank(); ++d) {
              if (shape.dim(d) == kUnknownDim) shape.set_dim(d, 0);
            }
            k.set_output(static_cast<int>(i + 1), Tensor::zeros(specs[i].dtype, shape));
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("input pipelines run on the host")
      .not_differentiable();

  reg.op("DeleteIterator")
      .inputs(1)
      .outputs(0)
      .stateful()
      .infer([](const InferContext&) { return std::vector<TensorSpec>{}; })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          std::lock_guard<std::mutex> lock(table_mutex());
          iterators().erase(k.input(0).scalar_value<int64_t>());
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("input pipelines run on the host")
      .not_differentiable();
}

}  // namespace ag
