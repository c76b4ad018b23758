#include "runtime/graph/tape.h"

#include <algorithm>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"

namespace ag {

constinit thread_local int detail::t_recording_tapes = 0;

namespace {

/// The tapes recording on this thread, in the order they started.
thread_local std::vector<Tape*> t_tapes;
void update_recording_count() { detail::t_recording_tapes = static_cast<int>(t_tapes.size()); }

/// A variable's key: tagged by this object's address, never a node's.
const char kVariableTag = 0;

}  // namespace

TensorKey key_of(const TensorHandle& t) {
  if (t.symbolic()) return TensorKey{t.output().node, static_cast<uint64_t>(t.output().index)};
  return TensorKey{nullptr, t.id()};
}

TensorKey variable_key(int64_t variable_id) { return TensorKey{&kVariableTag, static_cast<uint64_t>(variable_id)}; }

// Variant: TensorLists, whose gradients are lists (TF's IsTrainable too).
bool is_trainable_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16 || t == DType::Variant;
}

Tape::Tape(bool persistent, bool watch_accessed_variables)
    : persistent_(persistent), watch_accessed_variables_(watch_accessed_variables) {}

void Tape::watch(const TensorHandle& t) { watched_.insert(key_of(t)); }

void Tape::watch_variable(int64_t variable_id) {
  if (watched_.insert(variable_key(variable_id)).second) watched_variables_.push_back(variable_id);
}

void Tape::maybe_record(const TapeEntry& entry) {
  bool record = false;
  for (size_t i = 0; i < entry.input_keys.size() && !record; ++i) {
    record = watching(entry.input_keys[i]) && is_trainable_dtype(entry.input_dtypes[i]);
  }
  if (!record) return;
  for (const TensorHandle& o : entry.outputs) watched_.insert(key_of(o));
  entries_.push_back(entry);
}

void Tape::clear() {
  watched_.clear();
  watched_variables_.clear();
  entries_.clear();
}

void Tape::start() {
  if (recording_) {
    throw ValueError("Tape is still recording, This can happen if you try to re-enter an already-active tape.");
  }
  recording_ = true;
  graph_ = current_graph();
  t_tapes.push_back(this);
  update_recording_count();
}

void Tape::stop() {
  if (!recording_) return;
  recording_ = false;
  t_tapes.erase(std::find(t_tapes.begin(), t_tapes.end(), this));
  update_recording_count();
}

void record_op(const OpDef& op, const Attrs& attrs, std::span<const TensorHandle> inputs,
               std::span<const TensorHandle> outputs, std::string_view name) {
  Graph* g = current_graph();
  // Tapes record only their own graph's ops (an eager tape sees none of a trace's).
  if (std::none_of(t_tapes.begin(), t_tapes.end(), [g](const Tape* t) { return t->graph() == g; })) return;
  if (!op.traits.reads_variable) {
    // Most ops a tape is offered have no watched input: decline them before
    // building an entry (copying attrs and handles cost 100 ns an op).
    bool wanted = std::any_of(t_tapes.begin(), t_tapes.end(), [&](const Tape* t) {
      return t->graph() == g && std::any_of(inputs.begin(), inputs.end(), [&](const TensorHandle& h) {
               return is_trainable_dtype(h.dtype()) && t->watching(key_of(h));
             });
    });
    if (!wanted) return;
  }
  TapeEntry e{&op, attrs, {inputs.begin(), inputs.end()}, {outputs.begin(), outputs.end()}, {}, {}, {}, {},
              std::string(name)};
  if (op.traits.reads_variable) {
    // A variable read's input is its variable, which tapes that watch
    // accessed variables watch when it is trainable.
    int64_t id = attrs.get<int64_t>("var");
    note_variable_read(id, Variable::lookup(id)->trainable());
    e.input_keys.push_back(variable_key(id));
    e.input_dtypes.push_back(outputs[0].dtype());
  } else {
    for (const TensorHandle& t : inputs) {
      e.input_keys.push_back(key_of(t));
      e.input_dtypes.push_back(t.dtype());
    }
  }
  record_call(e);
}

void record_call(const TapeEntry& entry) {
  Graph* g = current_graph();
  for (Tape* tape : t_tapes) {
    if (tape->graph() == g) tape->maybe_record(entry);
  }
}

namespace {

void collect_variables(const Graph& g, std::vector<std::pair<int64_t, DType>>& out) {
  for (const auto& n : g.nodes()) {
    if (n->op->traits.reads_variable) {
      int64_t id = n->attrs.get<int64_t>("var");
      bool seen = std::any_of(out.begin(), out.end(), [id](const auto& v) { return v.first == id; });
      if (!seen) out.emplace_back(id, n->outputs[0].dtype);
    }
    for (const auto& sub : n->subgraphs) collect_variables(*sub, out);
  }
}

}  // namespace

std::vector<std::pair<int64_t, DType>> variables_read(std::span<const std::shared_ptr<Graph>> graphs) {
  std::vector<std::pair<int64_t, DType>> out;
  for (const auto& g : graphs) collect_variables(*g, out);
  return out;
}

std::vector<std::pair<int64_t, DType>> variables_read(const Graph& g) {
  std::vector<std::pair<int64_t, DType>> out;
  collect_variables(g, out);
  return out;
}

TapeEntry entry_of(const Node& n) {
  TapeEntry e;
  e.op = n.op;
  e.attrs = n.attrs;
  e.inputs.assign(n.inputs.begin(), n.inputs.end());
  for (int i = 0; i < static_cast<int>(n.outputs.size()); ++i) e.outputs.emplace_back(Output{const_cast<Node*>(&n), i});
  e.subgraphs = n.subgraphs;
  e.name = n.name;
  if (n.op->traits.reads_variable) {
    e.input_keys.push_back(variable_key(n.attrs.get<int64_t>("var")));
    e.input_dtypes.push_back(n.outputs[0].dtype);
    return e;
  }
  for (const Output& o : n.inputs) {
    e.input_keys.push_back(TensorKey{o.node, static_cast<uint64_t>(o.index)});
    e.input_dtypes.push_back(o.spec().dtype);
  }
  for (auto [id, dtype] : variables_read(n.subgraphs)) {
    e.input_keys.push_back(variable_key(id));
    e.input_dtypes.push_back(dtype);
  }
  return e;
}

void record_node(const Node& n) {
  if (!any_tape_recording()) return;
  for (auto [id, dtype] : variables_read(n.subgraphs)) note_variable_read(id, Variable::lookup(id)->trainable());
  record_call(entry_of(n));
}

PauseTapes::PauseTapes() : paused_(t_tapes) {
  for (Tape* t : paused_) t->stop();
}

PauseTapes::~PauseTapes() {
  for (Tape* t : paused_) {
    if (!t->recording()) t->start();
  }
}

void note_variable_read(int64_t variable_id, bool trainable) {
  if (!trainable || !any_tape_recording()) return;
  Graph* g = current_graph();
  for (Tape* tape : t_tapes) {
    if (tape->graph() == g && tape->watch_accessed_variables()) tape->watch_variable(variable_id);
  }
}

}  // namespace ag
