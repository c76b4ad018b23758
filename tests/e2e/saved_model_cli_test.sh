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

# ---- agc convert: the seed's converter workflow on its toy models (tf.Module
# for its tf.keras.Model, which has no call here).
cat >"$TMP/toy.py" <<'PY'
import os
import tensorflow as tf


class ToyModel(tf.Module):
  @tf.function(input_signature=[tf.TensorSpec(shape=[None, 10], dtype=tf.float32)])
  def tpu_func(self, x):
    return x * 1.0


model = ToyModel()
save_options = tf.saved_model.SaveOptions(function_aliases={
    'func_on_tpu': model.tpu_func,
})
tf.saved_model.save(model, os.getenv("OUT"), options=save_options)
PY
OUT="$TMP/toy" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/toy.py"
expect 0 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/toy_tpu" \
  --converter_options_string='
    tpu_functions {
      function_alias: "func_on_tpu"
    }
'
cat >"$TMP/want" <<'TXT'
-------- Conversion Report --------
TPU cost of the model: 100.00% (1/1)
CPU cost of the model:  0.00% (0/1)

Cost breakdown
================================
%         Cost    Name
--------------------------------
0.00      0       [CPU cost]
100.00    1       func_on_tpu
--------------------------------
TXT
diff "$TMP/want" "$TMP/out" >"$TMP/diff" || fail "convert toy report: $(cat "$TMP/diff")"
[ -f "$TMP/toy_tpu/saved_model.pb" ] && [ -f "$TMP/toy_tpu/variables/variables.index" ] || fail "convert: no output model"
expect 0 "$AGC" saved-model show "$TMP/toy_tpu"
grep -q "name: serving_default_x:0" "$TMP/out" || fail "converted model lost its signature"
cat >"$TMP/serve.py" <<'PY'
import os
import tensorflow as tf

model = tf.saved_model.load(os.getenv("IN"))
serving_fn = model.signatures['serving_default']
print(serving_fn(x=tf.ones([2, 10])))
print(serving_fn(x=tf.fill([1, 10], 3.14159)))
PY
IN="$TMP/toy_tpu" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/serve.py"
cat >"$TMP/want" <<'TXT'
{'output_0': <tf.Tensor: shape=(2, 10), dtype=float32, numpy=
array([[1., 1., 1., 1., 1., 1., 1., 1., 1., 1.],
       [1., 1., 1., 1., 1., 1., 1., 1., 1., 1.]], dtype=float32)>}
{'output_0': <tf.Tensor: shape=(1, 10), dtype=float32, numpy=
array([[3.140625, 3.140625, 3.140625, 3.140625, 3.140625, 3.140625,
        3.140625, 3.140625, 3.140625, 3.140625]], dtype=float32)>}
TXT
diff "$TMP/want" "$TMP/out" >"$TMP/diff" || fail "converted toy model's results (bfloat16 on, B33): $(cat "$TMP/diff")"
# With the bfloat16 optimization off, float32 stays float32 (B36).
expect 0 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/toy_f32" \
  --converter_options_string='tpu_functions { function_alias: "func_on_tpu" } bfloat16_optimization: DISABLED'
IN="$TMP/toy_f32" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/serve.py"
grep -q "array(\[\[3.14159, 3.14159" "$TMP/out" || fail "bfloat16_optimization: DISABLED rounded: $(cat "$TMP/out")"
# Scope ALL rounds the CPU's float32 values as well (B33); the default scope
# leaves a model without TPU functions as it was.
expect 0 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/toy_all" \
  --converter_options_string='bfloat16_optimization_options { scope: ALL }'
IN="$TMP/toy_all" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/serve.py"
grep -q "array(\[\[3.140625, 3.140625" "$TMP/out" || fail "scope ALL left the CPU in float32: $(cat "$TMP/out")"
expect 0 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/toy_cpu" --converter_options_string=''
IN="$TMP/toy_cpu" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/serve.py"
grep -q "array(\[\[3.14159, 3.14159" "$TMP/out" || fail "the default scope rounded the CPU: $(cat "$TMP/out")"

# The seed's converter command: the TPU function and the seed's batch options.
# A request of 3 rows waits for the 5 ms timeout, runs padded to 4, and
# gets its own 3 rows back.
expect 0 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/toy_batched" \
  --converter_options_string=' \
    tpu_functions { \
      function_alias: "func_on_tpu" \
    } \
    batch_options { \
      num_batch_threads: 2 \
      max_batch_size: 8 \
      batch_timeout_micros: 5000 \
      allowed_batch_sizes: 2 \
      allowed_batch_sizes: 4 \
      allowed_batch_sizes: 8 \
      max_enqueued_batches: 10 \
    } '
cat >"$TMP/serve_batched.py" <<'PY'
import os
import tensorflow as tf

model = tf.saved_model.load(os.getenv("IN"))
serving_fn = model.signatures['serving_default']
print(serving_fn(x=tf.reshape(tf.range(30, dtype=tf.float32), [3, 10]))['output_0'])
PY
IN="$TMP/toy_batched" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/serve_batched.py"
cat >"$TMP/want" <<'TXT'
tf.Tensor(
[[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9.]
 [10. 11. 12. 13. 14. 15. 16. 17. 18. 19.]
 [20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]], shape=(3, 10), dtype=float32)
TXT
diff "$TMP/want" "$TMP/out" >"$TMP/diff" || fail "batched toy model: $(cat "$TMP/diff")"

# agc serve: TF Serving's REST predict API over the batched model.
http() {  # http METHOD PATH [BODY]: the response, status line and body
  local body=${3:-}
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%s %s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "$1" "$2" "${#body}" "$body" >&3
  cat <&3
  exec 3<&-
}
port=$((20000 + RANDOM % 20000))
"$AGC" serve "$TMP/toy_batched" --port "$port" --model_name toy 2>"$TMP/serve.err" &
server=$!
for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
http POST /v1/models/toy:predict '{"instances": [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 1, 1, 1, 1, 1, 1, 1, 1, 3.14159]]}' >"$TMP/resp"
grep -q "^HTTP/1.1 200" "$TMP/resp" || fail "serve: $(cat "$TMP/resp")"
grep -qF '{"predictions": [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 3.140625]]}' "$TMP/resp" ||
  fail "serve predictions: $(cat "$TMP/resp")"
# B46's record of the request: its batch's device time and bytes, padded size, queue wait.
grep -qE '^X-Agc-Tpu-Call: device_time_us=[0-9]+\.[0-9]{3}; h2d_bytes=[0-9]+; d2h_bytes=[0-9]+; padded_batch=[0-9]+; queue_wait_us=[0-9]+' "$TMP/resp" ||
  fail "serve per-request record: $(cat "$TMP/resp")"
cp "$TMP/resp" "$TMP/resp_first"
http POST /v1/models/toy:predict '{"inputs": {"x": [[2, 2, 2, 2, 2, 2, 2, 2, 2, 2]]}}' >"$TMP/resp"
grep -qF '{"outputs": [[2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]]}' "$TMP/resp" || fail "serve columnar: $(cat "$TMP/resp")"
http POST /v1/models/toy:predict '{"instances": [[1, 2]' >"$TMP/resp"
grep -q "^HTTP/1.1 400" "$TMP/resp" && grep -q '"error": "JSON Parse error' "$TMP/resp" || fail "serve bad JSON: $(cat "$TMP/resp")"
http POST /v1/models/other:predict '{"instances": [[1]]}' >"$TMP/resp"
grep -q "^HTTP/1.1 404" "$TMP/resp" && grep -qF 'Servable not found for request: Latest(other)' "$TMP/resp" || fail "serve unknown model: $(cat "$TMP/resp")"
http GET /v1/models/toy >"$TMP/resp"
grep -qF '"state": "AVAILABLE"' "$TMP/resp" || fail "serve status: $(cat "$TMP/resp")"
kill "$server"; wait "$server" 2>/dev/null
expect 1 "$AGC" serve "$TMP/nowhere" --port "$port"
grep -q "OSError: SavedModel file does not exist" "$TMP/err" || fail "serve of a missing model: $(cat "$TMP/err")"
expect 2 "$AGC" serve "$TMP/toy_batched" --port 0

# B8 on traced functions: tpu_func calls tpu_func_2 through helper.
cat >"$TMP/indirect.py" <<'PY'
import os
import tensorflow as tf


class Indirect(tf.Module):
  @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
  def tpu_func_2(self, x):
    return x + 1.0

  @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
  def helper(self, x):
    return self.tpu_func_2(x) * 2.0

  @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
  def tpu_func(self, x):
    return self.helper(x)


m = Indirect()
tf.saved_model.save(m, os.getenv("OUT"), signatures=m.tpu_func, options=tf.saved_model.SaveOptions(
    function_aliases={'tpu_func': m.tpu_func, 'tpu_func_2': m.tpu_func_2}))
PY
OUT="$TMP/indirect" AGC_CXXFLAGS=-O0 expect 0 "$AGC" run "$TMP/indirect.py"
expect 1 "$AGC" convert --input_model_dir="$TMP/indirect" --output_model_dir="$TMP/none" \
  --converter_options_string='tpu_functions { function_alias: "tpu_func" } tpu_functions { function_alias: "tpu_func_2" }'
grep -Eqx 'agc: error: InvalidArgumentError: Unable to place both "__inference_tpu_func_[0-9]+" and "__inference_tpu_func_2_[0-9]+" on the TPU because "__inference_tpu_func_[0-9]+" indirectly calls "__inference_tpu_func_2_[0-9]+". This behavior is unsupported because it can cause invalid graphs to be generated.' "$TMP/err" ||
  fail "B8: $(cat "$TMP/err")"
# tpu_func alone takes helper and tpu_func_2 into its TPU program.
expect 0 "$AGC" convert --input_model_dir="$TMP/indirect" --output_model_dir="$TMP/indirect_tpu" \
  --converter_options_string='tpu_functions { function_alias: "tpu_func" }'
grep -q "^100.00    [0-9]* *tpu_func$" "$TMP/out" || fail "B8 single TPU function report: $(cat "$TMP/out")"

# Bad conversions fail whole: no output directory.
expect 1 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/none" \
  --converter_options_string='tpu_functions { function_alias: "tpu_func" }'
grep -qx 'agc: error: NotFoundError: Function alias "tpu_func" not found in the SavedModel' "$TMP/err" ||
  fail "unknown alias: $(cat "$TMP/err")"
expect 1 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/none" \
  --converter_options_string='disable_default_optimizations=True'
grep -qx 'agc: error: InvalidArgumentError: Failed to parse converter_options_string: 1:30: Expected ":", found "=".' "$TMP/err" ||
  fail "bad options: $(cat "$TMP/err")"
expect 1 "$AGC" convert --input_model_dir="$TMP/bad" --output_model_dir="$TMP/none"
grep -q "Cannot parse file $TMP/bad/saved_model.pb" "$TMP/err" || fail "convert of a corrupt model: $(cat "$TMP/err")"
expect 1 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/toy_tpu"
grep -q "AlreadyExistsError: Output directory $TMP/toy_tpu already exists and is not empty" "$TMP/err" ||
  fail "convert over a model: $(cat "$TMP/err")"
[ -e "$TMP/none" ] && fail "a failed conversion left $TMP/none"
ls "$TMP" | grep -q agc-tmp && fail "a failed conversion left a temporary directory"
cp -r "$TMP/model" "$TMP/truncated"
data="$TMP/truncated/variables/variables.data-00000-of-00001"
head -c 4 "$data" >"$data.short" && mv "$data.short" "$data"
expect 1 "$AGC" convert --input_model_dir="$TMP/truncated" --output_model_dir="$TMP/none"
grep -q "^agc: error: DataLossError: .*truncated" "$TMP/err" || fail "truncated variables: $(cat "$TMP/err")"
[ -e "$TMP/none" ] && fail "a conversion of truncated variables left $TMP/none"
# Quantization: a dataset file that is missing, or is not TFRecord, is an
# error that names it, and the output is not written.
quantize='external_feature_configs { quantization_options { representative_datasets { key: "serving_default" value { tfrecord_file_path: "'
expect 1 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/none" \
  --converter_options_string="$quantize$TMP/missing\" } } } }"
grep -q "^agc: error: NotFoundError: $TMP/missing; No such file or directory" "$TMP/err" ||
  fail "quantization with a missing dataset: $(cat "$TMP/err")"
printf 'not a TFRecord file at all' >"$TMP/garbage"
expect 1 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/none" \
  --converter_options_string="$quantize$TMP/garbage\" } } } }"
grep -q "^agc: error: DataLossError: .*$TMP/garbage" "$TMP/err" || fail "quantization with a bad dataset: $(cat "$TMP/err")"
[ -e "$TMP/none" ] && fail "a failed quantization left $TMP/none"
expect 2 "$AGC" convert --input_model_dir="$TMP/toy"
expect 2 "$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/x" --bogus=1

echo ok
exit $((failures > 0))
