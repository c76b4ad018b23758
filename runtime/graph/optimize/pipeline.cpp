#include "runtime/graph/optimize/pipeline.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/printer.h"
#include "runtime/graph/verify.h"

namespace ag {
namespace {

/// Per-pass totals for AG_TIME_GRAPH_PASSES, printed when the process exits.
class PassTimes {
 public:
  static PassTimes& get() {
    static PassTimes* t = new PassTimes();  // outlives static destructors; reports via atexit
    return *t;
  }
  void add(const char* pass, double ms) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& [total, runs] = totals_[pass];
    total += ms;
    ++runs;
  }

 private:
  PassTimes() {
    std::atexit([] { get().report(); });
  }
  void report() {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [pass, t] : totals_) {
      std::fprintf(stderr, "graph pass %-32s %10.3f ms in %d runs\n", pass.c_str(), t.first, t.second);
    }
  }
  std::mutex mu_;
  std::map<std::string, std::pair<double, int>> totals_;
};

/// A cheap fingerprint of a graph's nodes, to dump only what a pass changed.
size_t fingerprint(const Graph& g) {
  size_t h = g.nodes().size();
  for (const auto& n : g.nodes()) {
    h = h * 1000003u ^ reinterpret_cast<uintptr_t>(n->op) ^ n->inputs.size() * 31u ^ n->subgraphs.size();
    for (const Output& in : n->inputs) h = h * 31u ^ static_cast<size_t>(in.node->id) ^ static_cast<size_t>(in.index);
  }
  return h;
}

void run_one(Graph& g, const GraphPass& pass, const PassOptions& options) {
  const bool dump = !options.dump_after.empty() && (options.dump_after == "all" || options.dump_after == pass.name);
  const size_t before = dump ? fingerprint(g) : 0;
  const auto start = std::chrono::steady_clock::now();
  pass.run(g);
  if (options.time) {
    PassTimes::get().add(pass.name, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  if (dump && fingerprint(g) != before) {
    std::fprintf(options.log, "--- graph '%s' after %s ---\n%s\n", g.name().c_str(), pass.name, dump_graph(g).c_str());
  }
  if (!options.verify) return;
  try {
    verify_graph(g);
  } catch (const InternalError& e) {
    throw InternalError(std::string("after graph pass ") + pass.name + ": " + e.what());
  }
}

}  // namespace

const PassOptions& PassOptions::from_environment() {
  static const PassOptions options = [] {
    PassOptions o;
    auto set = [](const char* name) {
      const char* v = std::getenv(name);
      return v != nullptr && *v != '\0' && std::string(v) != "0";
    };
    o.verify = set("AG_VERIFY_GRAPHS");
    o.time = set("AG_TIME_GRAPH_PASSES");
    if (const char* d = std::getenv("AG_DUMP_GRAPH_AFTER")) o.dump_after = d;
    return o;
  }();
  return options;
}

void run_passes(Graph& g, std::span<const GraphPass> passes, const PassOptions& options) {
  for (const auto& n : g.nodes()) {
    for (const auto& sub : n->subgraphs) run_passes(*sub, passes, options);
  }
  for (const GraphPass& pass : passes) run_one(g, pass, options);
}

}  // namespace ag
