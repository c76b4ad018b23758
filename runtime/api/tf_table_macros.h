// Helpers for expanding the rows of tf_functions.def, whose `paths` column is
// a parenthesized list: ("tanh", "math.tanh"). Light enough for every reader
// of the table (the runtime, the transpiler, docs/api.md's generator, tests).
#pragma once

/// AG_TF_UNPAREN paths -> "tanh", "math.tanh" (an initializer list's items).
#define AG_TF_UNPAREN(...) __VA_ARGS__
/// AG_TF_FIRST paths -> "tanh" (the function's main path).
#define AG_TF_FIRST(...) AG_TF_FIRST_(__VA_ARGS__, )
#define AG_TF_FIRST_(first, ...) first
