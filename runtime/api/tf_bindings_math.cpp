// The hand-written parts of the elementwise math rows of tf_functions.def
// whose conversions are not a plain op's (the plain ones have none).
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_api.h"

namespace ag::tf::impl {

Value add(const TfCall& c) { return tf::add(c["x"], c["y"], c.node_name()); }
Value divide(const TfCall& c) { return tf::divide(c["x"], c["y"]); }
Value truediv(const TfCall& c) { return tf::truediv(c["x"], c["y"]); }
Value round(const TfCall& c) { return tf::round(c["x"], c.node_name()); }

// No hint in the row: without `name`, each form names its node (Where, SelectV2).
Value where(const TfCall& c) { return tf::where(c["condition"], c["x"], c["y"], c.node_name()); }

}  // namespace ag::tf::impl
