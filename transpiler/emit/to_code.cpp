#include "transpiler/emit/to_code.h"

#include <atomic>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "transpiler/base/big_stack.h"
#include "transpiler/ast/python_printer.h"

namespace agc::emit {

std::string to_code(const ast::Module& m, const ToCodeRequest& request, DiagnosticSink& sink) {
  auto entities = passes::find_entities(m);
  std::vector<bool> wanted(entities.size(), request.functions.empty());
  for (const auto& name : request.functions) {
    bool found = false;
    for (size_t i = 0; i < entities.size(); ++i) {
      const auto& e = entities[i];
      if (e.qualified_name == name || e.fn->as<ast::FunctionDef>().name == name) {
        wanted[i] = true;
        found = true;
      }
    }
    if (!found) {
      sink.error({m.file.get(), 0, 0}, fmt::format("no function named '{}' in {}", name, m.file->path()));
    }
  }
  if (sink.has_errors()) return "";
  auto globals = passes::module_names(m);
  auto imports = passes::module_imports(m);
  // Functions convert independently (each has its own namer and analyses), so
  // large modules convert on every core; results are joined in source order.
  // A pass observer prints as it goes, so it keeps conversion on one thread.
  std::vector<std::string> texts(entities.size());
  std::vector<DiagnosticSink> sinks(entities.size());
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t i; !failed && (i = next++) < entities.size();) {
      if (!wanted[i]) continue;
      try {
        ast::Ref converted =
            passes::convert_entity(entities[i].fn, request.options, globals, imports, sinks[i], request.observer);
        // inspect.getsource ends the function with a newline; print adds another.
        if (converted) texts[i] = ast::to_source(converted) + "\n\n";
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    }
  };
  size_t threads = request.observer ? 1 : std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), 8);
  threads = std::min(threads, std::max<size_t>(1, entities.size() / 16));
  std::vector<BigStackThread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  std::string out;
  for (size_t i = 0; i < entities.size(); ++i) {
    for (const auto& d : sinks[i].diagnostics()) sink.report(d);
    out += texts[i];
  }
  if (sink.has_errors()) return "";
  return out;
}

}  // namespace agc::emit
