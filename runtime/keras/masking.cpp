// Keras's implicit masks; see masking.h.
#include "runtime/keras/masking.h"

#include <deque>
#include <map>
#include <mutex>
#include <tuple>

#include "runtime/graph/tracing.h"

namespace ag::keras {
namespace {

/// (eager id, node uid, index): one of the first or the last two is set. A
/// node by its uid, not its address: a freed graph's addresses come back in
/// later traces, and a stale entry gave an unrelated tensor a mask.
using MaskKey = std::tuple<uint64_t, uint64_t, int>;

MaskKey mask_key(const TensorHandle& h) {
  if (h.symbolic()) return {0, h.output().node->uid, h.output().index};
  return {h.id(), 0, 0};
}

struct MaskTable {
  static constexpr size_t kCapacity = 4096;
  std::mutex mu;
  std::map<MaskKey, Value> masks;
  std::deque<MaskKey> order;  ///< insertion order, oldest first
};

MaskTable& table() {
  static MaskTable* t = new MaskTable();  // never destroyed: masks may be read during static destruction
  return *t;
}

Value lookup(const Value& t) {
  if (!t.is_tensor()) return Value();
  MaskTable& m = table();
  std::lock_guard<std::mutex> lock(m.mu);
  auto it = m.masks.find(mask_key(t.as_tensor()));
  return it == m.masks.end() ? Value() : it->second;
}

void store(const Value& t, const Value& mask) {
  if (!t.is_tensor()) return;
  MaskTable& m = table();
  std::lock_guard<std::mutex> lock(m.mu);
  MaskKey key = mask_key(t.as_tensor());
  if (mask.is_none()) {
    m.masks.erase(key);
    return;
  }
  if (m.masks.insert_or_assign(key, mask).second) m.order.push_back(key);
  while (m.order.size() > MaskTable::kCapacity) {
    m.masks.erase(m.order.front());
    m.order.pop_front();
  }
}

}  // namespace

Value implicit_mask(const Value& tensors) {
  if (tensors.is_list() || tensors.is_tuple()) {
    std::vector<Value> masks;
    bool any = false;
    for (const Value& t : tensors.items()) {
      masks.push_back(lookup(t));
      any |= !masks.back().is_none();
    }
    return any ? Value::list(std::move(masks)) : Value();
  }
  return lookup(tensors);
}

void set_implicit_mask(const Value& tensors, const Value& mask) {
  if (tensors.is_list() || tensors.is_tuple()) {
    // Keras zips the flattened outputs with the flattened masks: one mask
    // for several outputs is the first one's (MultiHeadAttention's output
    // and its scores), and outputs past the masks keep theirs.
    const std::vector<Value>& items = tensors.items();
    bool several = mask.is_list() || mask.is_tuple();
    for (size_t i = 0; i < items.size(); ++i) {
      if (several) {
        if (i < mask.items().size()) store(items[i], mask.items()[i]);
      } else if (mask.is_none() || i == 0) {
        store(items[i], mask);
      }
    }
    return;
  }
  store(tensors, mask);
}

}  // namespace ag::keras
