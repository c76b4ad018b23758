// boom.py written by hand in the shape the C++ emitter generates, so that the
// program's main (runtime/api/program.h) is tested end to end through a real
// process (exit statuses, the traceback on stderr, --results lines, output
// order under 2>&1) independently of the emitter:
//
//   1  def inner(x):
//   2      raise ValueError('boom ' + str(x))
//   3
//   4
//   5  def outer(x):
//   6      return inner(x)
//   7
//   8
//   9  print('before')
//  10  outer(7)
//  11  print('after')
//
// Run with BOOM_SKIP=1 to skip lines 10-11 (then FUNC calls can be tested).
#include <cstdlib>

#include "runtime/api/program.h"
#include "runtime/api/traceback.h"
#include "runtime/value/value.h"

namespace boom {

const char* kSource =
    "def inner(x):\n"
    "    raise ValueError('boom ' + str(x))\n"
    "\n"
    "\n"
    "def outer(x):\n"
    "    return inner(x)\n"
    "\n"
    "\n"
    "print('before')\n"
    "outer(7)\n"
    "print('after')\n";

ag::Value inner;
ag::Value outer;

static ag::Value tf__inner(ag::Value x) {
  ag::Frame ag_frame("boom.py", "inner");
  ag_frame.at(2);
  throw ag::ValueError("boom " + ag::str(x));
}

static ag::Value tf__outer(ag::Value x) {
  ag::Frame ag_frame("boom.py", "outer");
  ag_frame.at(6);
  return inner({x}, {});
}

static void run_module() {
  ag::Frame ag_frame("boom.py", "<module>");
  ag_frame.at(1);
  inner = ag::Value::callable("inner", [](std::vector<ag::Value> args, ag::Kwargs) { return tf__inner(args.at(0)); });
  ag_frame.at(5);
  outer = ag::Value::callable("outer", [](std::vector<ag::Value> args, ag::Kwargs) { return tf__outer(args.at(0)); });
  ag_frame.at(9);
  ag::print({"before"});
  if (std::getenv("BOOM_SKIP") != nullptr) return;
  ag_frame.at(10);
  outer({7}, {});
  ag_frame.at(11);
  ag::print({"after"});
}

}  // namespace boom

int main(int argc, char** argv) {
  return ag::program_main(argc, argv,
                          {"boom", "boom.py", boom::kSource, boom::run_module,
                           {{"inner", &boom::inner}, {"outer", &boom::outer}}});
}
