#!/usr/bin/env bash
# The serving load test: the seed's toy model (x * 1.0 on the TPU) saved,
# converted twice (the seed's batch_options, and without batching), each
# served by `agc serve` on the loopback and loaded by bench_serve_load with
# 8 and 64 concurrent clients. Every response is checked against its own
# request (lost and mixed-up responses are counted and fail the run).
# usage: bench/serve_load.sh [BUILD_DIR]   (after `ninja -C BUILD bench/bench_serve_load`)
set -euo pipefail
BUILD=${1:-build}
AGC="$BUILD/agc"
CLIENT="$BUILD/bench/bench_serve_load"
TMP=$(mktemp -d)
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$TMP"' EXIT

cat >"$TMP/toy.py" <<'PY'
import os
import tensorflow as tf


class ToyModel(tf.Module):
  @tf.function(input_signature=[tf.TensorSpec(shape=[None, 10], dtype=tf.float32)])
  def tpu_func(self, x):
    return x * 1.0


model = ToyModel()
tf.saved_model.save(model, os.getenv("OUT"), options=tf.saved_model.SaveOptions(
    function_aliases={'tpu_func': model.tpu_func}))
PY
OUT="$TMP/toy" "$AGC" run "$TMP/toy.py"
"$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/batched" --converter_options_string='
  tpu_functions { function_alias: "tpu_func" }
  batch_options { num_batch_threads: 2 max_batch_size: 8 batch_timeout_micros: 5000
                  allowed_batch_sizes: 2 allowed_batch_sizes: 4 allowed_batch_sizes: 8 max_enqueued_batches: 10 }' >/dev/null
"$AGC" convert --input_model_dir="$TMP/toy" --output_model_dir="$TMP/unbatched" \
  --converter_options_string='tpu_functions { function_alias: "tpu_func" }' >/dev/null

port=$((20000 + RANDOM % 20000))
for model in unbatched batched; do
  "$AGC" serve "$TMP/$model" --port "$port" --model_name toy 2>"$TMP/server.log" &
  SERVER=$!
  for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  for clients in 8 64; do
    printf '%-9s ' "$model"
    "$CLIENT" --port "$port" --model toy --clients "$clients" --requests $((1600 / clients)) --seconds 60
  done
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""
  port=$((port + 1))
done
