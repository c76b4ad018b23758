// tf.*'s enums as Python's enum.Enum: a class whose attributes are its
// members, each with `name` and `value`, printing as Python prints them
// (str: `UnconnectedGradients.ZERO`; repr: `<UnconnectedGradients.ZERO: 'zero'>`).
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/value/object_model.h"

namespace ag {

namespace {

Value make_enum(const std::string& class_name, const std::vector<std::pair<std::string, std::string>>& members) {
  auto member_text = [class_name](bool as_repr) {
    return Value::callable(as_repr ? "__repr__" : "__str__", [class_name, as_repr](std::vector<Value> args, Kwargs) {
      const Value& self = args.at(0);
      std::string name = class_name + "." + self.getattr("name").as_str();
      return Value(as_repr ? "<" + name + ": " + repr(self.getattr("value")) + ">" : name);
    });
  };
  Value member_class = make_class(class_name, {}, {{"__repr__", member_text(true)}, {"__str__", member_text(false)}});
  std::vector<std::pair<std::string, Value>> attrs;
  for (const auto& [name, value] : members) {
    Value m = object_call(member_class, {}, {});
    m.setattr("name", Value(name));
    m.setattr("value", Value(value));
    attrs.emplace_back(name, m);
  }
  return make_class(class_name, {}, std::move(attrs));
}

}  // namespace

/// tf.UnconnectedGradients: NONE ('none') and ZERO ('zero').
const Value& tf::api::UnconnectedGradients() {
  static const Value cls = make_enum("UnconnectedGradients", {{"NONE", "none"}, {"ZERO", "zero"}});
  return cls;
}

/// tf.autograph.experimental.Feature, the optional conversion features (each
/// member's value is its name). tf.function(experimental_autograph_options=)
/// takes them; agc reads them when it converts the function (see
/// passes::ConversionOptions), so at run time they are only values.
const Value& tf::api::autograph_experimental_Feature() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, std::string>> members;
    for (const char* f : {"ALL", "AUTO_CONTROL_DEPS", "ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS", "EQUALITY_OPERATORS",
                          "LISTS", "NAME_SCOPES"}) {
      members.emplace_back(f, f);
    }
    return make_enum("Feature", members);
  }();
  return cls;
}

}  // namespace ag
