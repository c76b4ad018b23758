#include "transpiler/emit/to_code.h"

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
    if (const ast::Ref& c = cm.entities[i].converted) texts[i] = ast::to_source(c) + "\n\n";
  });
  std::string out;
  for (const std::string& t : texts) out += t;
  return out;
}

}  // namespace agc::emit
