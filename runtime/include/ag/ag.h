// The one header generated C++ includes: agc's runtime as the converted code
// uses it (Python values and builtins, the tf.* API, tf.function and
// AutoGraph's operators, classes, exceptions, the program's main), and what
// a C++ app uses around a generated library's header (runtime/api/
// embedding.h: typed views of its buffers, spans over results, errors). It
// never includes Eigen, so a model compiles quickly.
#pragma once

#include "runtime/api/embedding.h"
#include "runtime/api/generator.h"
#include "runtime/api/program.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/traceback.h"
#include "runtime/api/with_statement.h"
#include "runtime/autograph/autograph.h"
#include "runtime/core/finally.h"
#include "runtime/core/variable.h"
#include "runtime/function/function.h"
#include "runtime/function/function_value.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/bytes_value.h"
#include "runtime/value/cell.h"
#include "runtime/value/convert.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/iteration.h"
#include "runtime/value/object_model.h"
#include "runtime/value/set_value.h"
#include "runtime/value/unpack.h"
#include "runtime/value/value.h"
