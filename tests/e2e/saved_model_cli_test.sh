#!/usr/bin/env bash
# `agc saved-model` (and, as they land, `agc convert` and `agc serve`) end to
# end: a program saves a SavedModel with tf.saved_model.save, the commands
# read it; bad directories and files give clear errors.
# usage: saved_model_cli_test.sh AGC
set -u
AGC=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 300 "$TMP/err"))"
}

cat >"$TMP/save.py" <<'PY'
import os
import tensorflow as tf


class Model(tf.Module):
  def __init__(self):
    self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

  @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
  def __call__(self, x):
    return tf.matmul(x, self.w)

  @tf.function
  def scale(self, x, factor):
    return x * factor


m = Model()
m.scale(tf.constant([1.0, 2.0]), 2.0)
m.scale(tf.constant([1, 2]), True)
tf.saved_model.save(m, os.getenv("OUT"))
PY
OUT="$TMP/model" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/save.py"

expect 0 "$AGC" saved-model show "$TMP/model"
cat >"$TMP/want" <<'TXT'

MetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:

signature_def['__saved_model_init_op']:
  The given SavedModel SignatureDef contains the following input(s):
  The given SavedModel SignatureDef contains the following output(s):
    outputs['__saved_model_init_op'] tensor_info:
        dtype: DT_INVALID
        shape: unknown_rank
        name: NoOp
  Method name is: 

signature_def['serving_default']:
  The given SavedModel SignatureDef contains the following input(s):
    inputs['x'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 2)
        name: serving_default_x:0
  The given SavedModel SignatureDef contains the following output(s):
    outputs['output_0'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 2)
        name: StatefulPartitionedCall:0
  Method name is: tensorflow/serving/predict

Concrete Functions:
  Function Name: '__call__'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(None, 2), dtype=tf.float32, name='x')

  Function Name: 'scale'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(2,), dtype=tf.float32, name='x')
        Argument #2
          DType: float
          Value: 2.0
    Option #2
      Callable with:
        Argument #1
          x: TensorSpec(shape=(2,), dtype=tf.int32, name='x')
        Argument #2
          DType: bool
          Value: True
TXT
diff "$TMP/want" "$TMP/out" >"$TMP/diff" || fail "saved-model show: $(cat "$TMP/diff")"
expect 0 "$AGC" saved-model show --dir "$TMP/model" --all
diff "$TMP/want" "$TMP/out" >/dev/null || fail "saved-model show --dir --all differs from show DIR"

expect 1 "$AGC" saved-model show "$TMP/nowhere"
grep -qx "agc: error: OSError: SavedModel file does not exist at: $TMP/nowhere/{saved_model.pbtxt|saved_model.pb}" "$TMP/err" ||
  fail "missing SavedModel: $(cat "$TMP/err")"
mkdir "$TMP/bad" && printf 'garbage' >"$TMP/bad/saved_model.pb"
expect 1 "$AGC" saved-model show "$TMP/bad"
grep -q "Cannot parse file $TMP/bad/saved_model.pb" "$TMP/err" || fail "corrupt saved_model.pb: $(cat "$TMP/err")"
expect 2 "$AGC" saved-model show
expect 2 "$AGC" saved-model list "$TMP/model"
expect 2 "$AGC" saved-model show "$TMP/model" --bogus

echo ok
exit $((failures > 0))
