#include "transpiler/emit/to_code.h"

#include <utility>
#include <vector>

#include "transpiler/ast/python_printer.h"
#include "transpiler/base/check.h"
#include "transpiler/base/parallel.h"

namespace agc::emit {

std::string to_code(const passes::ConvertedModule& cm) {
  AGC_CHECK(!cm.has_errors()) << "to_code of a module whose conversion failed";
  // Functions print independently: on every core for a large module.
  std::vector<std::string> texts(cm.entities.size());
  parallel_for(texts.size(), 8, 16, [&](size_t i) {
    // inspect.getsource ends the function with a newline; print adds another.
    if (const ast::Ref& c = cm.entities[i].converted) (texts[i] = ast::to_source(c)) += "\n\n";
  });
  // The first text is moved, not copied: a single function (the usual
  // case, and one that can be hundreds of megabytes) is never copied.
  std::string out;
  for (std::string& t : texts) {
    if (out.empty()) {
      out = std::move(t);
    } else {
      out += t;
    }
  }
  return out;
}

}  // namespace agc::emit
