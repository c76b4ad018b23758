// The AutoGraph operators generated code calls (ag__.* in converted Python).
#pragma once

#include "runtime/autograph/control_flow.h"
#include "runtime/autograph/exceptions.h"
#include "runtime/autograph/for_stmt.h"
#include "runtime/autograph/function_scope.h"
#include "runtime/autograph/list_ops.h"
#include "runtime/autograph/logical.h"
#include "runtime/autograph/py_builtins.h"
#include "runtime/autograph/slices.h"
#include "runtime/autograph/undefined.h"
