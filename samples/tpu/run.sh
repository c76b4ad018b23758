#!/usr/bin/env bash
# The seed's converter workflow (Cloud TPU v5e inference converter guide) on
# its toy models, end to end on one machine: each model saved by its Python
# program with tf.saved_model.save and function aliases, converted by `agc
# convert` with the seed's option strings, its conversion report printed, and
# the converted model run through its serving signature on the emulated TPU.
# usage: samples/tpu/run.sh [AGC] [WORK_DIR]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
AGC=${1:-build/agc}
WORK=${2:-$(mktemp -d)}
mkdir -p "$WORK"

step() { printf '\n== %s\n' "$*"; }

step "two TPU functions (tpu_func_1, tpu_func_2)"
rm -rf "$WORK/two" "$WORK/two_tpu"
OUT="$WORK/two" "$AGC" run "$HERE/two_tpu_functions.py"
"$AGC" convert --input_model_dir="$WORK/two" --output_model_dir="$WORK/two_tpu" --converter_options_string='
tpu_functions {
  function_alias: "tpu_func_1"
}
tpu_functions {
  function_alias: "tpu_func_2"
}'
IN="$WORK/two_tpu" "$AGC" run "$HERE/serve_two.py"

step "language model: preprocessing on the CPU, tpu_func on the TPU"
rm -rf "$WORK/lm" "$WORK/lm_tpu" "$WORK/lm_all"
OUT="$WORK/lm" "$AGC" run "$HERE/language_model.py"
"$AGC" convert --input_model_dir="$WORK/lm" --output_model_dir="$WORK/lm_tpu" \
  --converter_options_string='tpu_functions { function_alias: "tpu_func" }'
IN="$WORK/lm_tpu" "$AGC" run "$HERE/serve_language_model.py"

step "language model placed whole on the TPU: its string ops fail at the first run"
"$AGC" convert --input_model_dir="$WORK/lm" --output_model_dir="$WORK/lm_all" \
  --converter_options_string='tpu_functions { signature_name: "serving_default" }'
IN="$WORK/lm_all" "$AGC" run "$HERE/serve_language_model.py"

step "quantized: static range int8 with the seed's representative dataset (tpu_func on the TPU)"
rm -rf "$WORK/q" "$WORK/q_tpu" "$WORK/q_data"
OUT="$WORK/q" DATA="$WORK/q_data" "$AGC" run "$HERE/quantized_model.py"
"$AGC" convert --input_model_dir="$WORK/q" --output_model_dir="$WORK/q_tpu" --converter_options_string=' \
    tpu_functions { \
      function_alias: "tpu_func" \
    } \
    external_feature_configs { \
      quantization_options { \
        signature_keys: "serving_default" \
        representative_datasets: { \
          key: "serving_default" \
          value: { \
            tfrecord_file_path: "'"$WORK/q_data"'" \
          } \
        } \
      } \
    } '
FLOAT="$WORK/q" IN="$WORK/q_tpu" "$AGC" run "$HERE/serve_quantized.py"

step "quantized CNN: convolutions with their bias and ReLU as int8 XlaConvV2s, the dense layer as an XlaDotV2"
rm -rf "$WORK/cnn" "$WORK/cnn_tpu" "$WORK/cnn_data"
OUT="$WORK/cnn" DATA="$WORK/cnn_data" "$AGC" run "$HERE/quantized_cnn.py"
"$AGC" convert --input_model_dir="$WORK/cnn" --output_model_dir="$WORK/cnn_tpu" --converter_options_string=' \
    tpu_functions { function_alias: "tpu_func" } \
    external_feature_configs { quantization_options { \
      representative_datasets: { key: "serving_default" value: { tfrecord_file_path: "'"$WORK/cnn_data"'" } } } }'
FLOAT="$WORK/cnn" IN="$WORK/cnn_tpu" SHAPE=8,8,3 "$AGC" run "$HERE/serve_quantized.py"

step "quantization-aware training: the converter takes the trained ranges, no representative dataset"
rm -rf "$WORK/qat" "$WORK/qat_tpu"
OUT="$WORK/qat" "$AGC" run "$HERE/qat_model.py"
"$AGC" convert --input_model_dir="$WORK/qat" --output_model_dir="$WORK/qat_tpu" --converter_options_string=' \
    tpu_functions { function_alias: "tpu_func" } \
    external_feature_configs { quantization_options { signature_keys: "serving_default" } }'
FLOAT="$WORK/qat" IN="$WORK/qat_tpu" SHAPE=4 "$AGC" run "$HERE/serve_quantized.py"
