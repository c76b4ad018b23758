// TPU_EMULATOR.md section 8: tiled sizes, per-op roofline times, a call's
// PCIe transfers (B45), the worked example (B48) and the HBM check (B47).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/exec/tpu_cost_model.h"

using namespace ag;
using namespace ag::tpu;

TEST_CASE("float32 tiled sizes match every vector of section 8") {
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{3, 5}) == 2048);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{1, 10}) == 1024);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{8, 10}) == 4096);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{10, 300}) == 24576);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{2, 3, 5}) == 4096);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{80}) == 512);
}

TEST_CASE("32-bit compact tiles: 1-2 rows take 2, 3-4 take 4, then multiples of 8") {
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{2, 128}) == 2 * 128 * 4);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{4, 128}) == 4 * 128 * 4);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{5, 128}) == 8 * 128 * 4);
  CHECK(hbm_tiled_bytes(DType::Int32, Shape{9, 129}) == 16 * 256 * 4);
}

TEST_CASE("bfloat16 rows tile by 16 and int8 rows by 32, with their compact tiles") {
  // bf16: T = 16; d <= 4 -> 4, d <= 8 -> 8, else a multiple of 16.
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{1, 10}) == 4 * 128 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{3, 5}) == 4 * 128 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{8, 10}) == 8 * 128 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{9, 10}) == 16 * 128 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{17, 200}) == 32 * 256 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{8, 1024}) == 16384);
  // int8: T = 32; d <= 8 -> 8, d <= 16 -> 16, else a multiple of 32.
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{1, 10}) == 8 * 128);
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{8, 10}) == 8 * 128);
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{9, 10}) == 16 * 128);
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{17, 10}) == 32 * 128);
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{33, 10}) == 64 * 128);
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{100}) == 512);
}

TEST_CASE("the 16-bit row tile is configurable: S9's 8 rows instead of 16") {
  TpuHardware s9;
  s9.sixteen_bit_row_tile = 8;
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{1, 10}, s9) == 2 * 128 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{17, 10}, s9) == 24 * 128 * 2);
  CHECK(hbm_tiled_bytes(DType::BFloat16, Shape{17, 10}) == 32 * 128 * 2);
  // Other widths keep their tiles.
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{3, 5}, s9) == 2048);
  CHECK(hbm_tiled_bytes(DType::Int8, Shape{9, 10}, s9) == 16 * 128);
}

TEST_CASE("scalars and vectors take whole 512-byte units; empty arrays none") {
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{}) == 512);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{128}) == 512);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{129}) == 1024);
  CHECK(hbm_tiled_bytes(DType::Float32, Shape{0, 5}) == 0);
}

TEST_CASE("dynamic shapes and object dtypes have no TPU layout") {
  CHECK_THROWS_AS(hbm_tiled_bytes(DType::Float32, Shape{-1, 5}), InvalidArgumentError);
  CHECK_THROWS_AS(hbm_tiled_bytes(DType::Float32, Shape::unknown_rank()), InvalidArgumentError);
  CHECK_THROWS_AS(hbm_tiled_bytes(DType::String, Shape{2}), InvalidArgumentError);
}

TEST_CASE("the MXU's padded work rounds M to 8 and K, N to 128") {
  CHECK(effective_flops({1, 8, 1024, 1024}) == 2.0 * 8 * 1024 * 1024);
  CHECK(effective_flops({1, 1, 1, 1}) == 2.0 * 8 * 128 * 128);
  CHECK(effective_flops({3, 9, 129, 200}) == 2.0 * 3 * 16 * 256 * 256);
}

TEST_CASE("rates by precision: bf16 and f32 DEFAULT at P_bf16, HIGHEST a sixth, int8 twice") {
  using kernels::F32MatmulPrecision;
  CHECK(mxu_rate_for(DType::BFloat16, F32MatmulPrecision::Highest) == MxuRate::Bf16);
  CHECK(mxu_rate_for(DType::Float32, F32MatmulPrecision::Default) == MxuRate::F32Default);
  CHECK(mxu_rate_for(DType::Float32, F32MatmulPrecision::Highest) == MxuRate::F32Highest);
  CHECK(mxu_rate_for(DType::Int8, F32MatmulPrecision::Default) == MxuRate::Int8);
  CHECK_THROWS_AS(mxu_rate_for(DType::Float64, F32MatmulPrecision::Default), InvalidArgumentError);
  CHECK(mxu_ops_per_second(MxuRate::Bf16) == 197e12);
  CHECK(mxu_ops_per_second(MxuRate::F32Default) == 197e12);
  CHECK(mxu_ops_per_second(MxuRate::F32Highest) == doctest::Approx(197e12 / 6));
  CHECK(mxu_ops_per_second(MxuRate::Int8) == 394e12);
}

TEST_CASE("B48: bf16[8,1024] x bf16[1024,1024] is memory bound at about 2.6 us") {
  OpCost op;
  op.kind = CostKind::Contraction;
  op.contraction = {1, 8, 1024, 1024};
  op.rate = MxuRate::Bf16;
  op.inputs = {{DType::BFloat16, Shape{8, 1024}}, {DType::BFloat16, Shape{1024, 1024}}};
  op.outputs = {{DType::BFloat16, Shape{8, 1024}}};
  const double compute = effective_flops(op.contraction) / 197e12;
  CHECK(compute * 1e9 == doctest::Approx(85.2).epsilon(0.001));
  const double memory = (16384.0 + 2097152.0 + 16384.0) / 819e9;
  const double t = op_device_seconds(op);
  CHECK(t == memory);
  CHECK(t * 1e6 == doctest::Approx(2.6).epsilon(0.01));
  CHECK(t > compute);
}

TEST_CASE("f32[1024]^3 is HBM bound at DEFAULT and MXU bound at HIGHEST") {
  OpCost op;
  op.kind = CostKind::Contraction;
  op.contraction = {1, 1024, 1024, 1024};
  op.inputs = {{DType::Float32, Shape{1024, 1024}}, {DType::Float32, Shape{1024, 1024}}};
  op.outputs = {{DType::Float32, Shape{1024, 1024}}};
  const double memory = 3.0 * 4 * 1024 * 1024 / 819e9;        // 15.4 us
  const double mxu = 2.0 * 1024 * 1024 * 1024 / 197e12;        // 10.9 us
  op.rate = MxuRate::F32Default;
  CHECK(op_device_seconds(op) == doctest::Approx(memory));
  op.rate = MxuRate::F32Highest;
  CHECK(op_device_seconds(op) == doctest::Approx(6 * mxu));    // 65.4 us
  op.rate = MxuRate::Int8;
  op.inputs = {{DType::Int8, Shape{1024, 1024}}, {DType::Int8, Shape{1024, 1024}}};
  op.outputs = {{DType::Int32, Shape{1024, 1024}}};
  CHECK(op_device_seconds(op) == doctest::Approx(std::max(mxu / 2, 6.0 * 1024 * 1024 / 819e9)));
}

TEST_CASE("elementwise ops take the larger of VPU and HBM time; data movement HBM; free ops nothing") {
  OpCost add;
  add.kind = CostKind::Elementwise;
  add.inputs = {{DType::Float32, Shape{1024, 1024}}, {DType::Float32, Shape{1024}}};
  add.outputs = {{DType::Float32, Shape{1024, 1024}}};
  const double bytes = 4194304.0 + 4096.0 + 4194304.0;
  const double vpu = 1048576.0 / 3.072e12;
  CHECK(op_device_seconds(add) == doctest::Approx(std::max(vpu, bytes / 819e9)));
  OpCost transpose = add;
  transpose.kind = CostKind::DataMovement;
  CHECK(op_device_seconds(transpose) == doctest::Approx(bytes / 819e9));
  OpCost reshape = add;
  reshape.kind = CostKind::Free;
  CHECK(op_device_seconds(reshape) == 0);
  OpCost host = add;
  host.kind = CostKind::Host;
  CHECK_THROWS_AS(op_device_seconds(host), InternalError);
  // Small arrays are VPU-free but pay their padded bytes: f32[3,5] + f32[3,5].
  OpCost small;
  small.kind = CostKind::Elementwise;
  small.inputs = {{DType::Float32, Shape{3, 5}}, {DType::Float32, Shape{3, 5}}};
  small.outputs = {{DType::Float32, Shape{3, 5}}};
  CHECK(op_device_seconds(small) == doctest::Approx(3 * 2048.0 / 819e9));
}

TEST_CASE("a program sums its ops, split over num_cores_per_replica") {
  const std::vector<double> ops = {1e-6, 2e-6, 3e-6};
  CHECK(program_device_seconds(ops) == doctest::Approx(6e-6));
  CHECK(program_device_seconds(ops, 4) == doctest::Approx(1.5e-6));
  CHECK_THROWS_AS(program_device_seconds(ops, 0), InvalidArgumentError);
}

TEST_CASE("B45: IO shape optimization sends f32[8,10] as 512 bytes, 34.1 ns instead of 273.1 ns") {
  const std::vector<ArraySpec> in = {{DType::Float32, Shape{8, 10}}};
  const std::vector<ArraySpec> out = {{DType::Float32, Shape{8}}};
  const CallCost off = call_cost(in, out, 1e-6, false);
  CHECK(off.h2d_bytes == 4096);
  CHECK(off.h2d_seconds * 1e9 == doctest::Approx(273.1).epsilon(0.0005));
  const CallCost on = call_cost(in, out, 1e-6, true);
  CHECK(on.h2d_bytes == 512);
  CHECK(on.h2d_seconds * 1e9 == doctest::Approx(34.1).epsilon(0.002));
  // Rank-1 outputs cross the same either way.
  CHECK(on.d2h_bytes == 512);
  CHECK(off.d2h_bytes == 512);
  CHECK(on.total_seconds() == doctest::Approx(512 / 1.5e10 + 1e-6 + 512 / 1.5e10));
  const CallCost with_overhead = call_cost(in, out, 1e-6, true, 5);
  CHECK(with_overhead.total_seconds() == doctest::Approx(on.total_seconds() + 5e-6));
}

TEST_CASE("B47: resident arrays beyond 16 GiB are ResourceExhaustedError with the spec's text") {
  const std::vector<ArraySpec> fits = {{DType::Float32, Shape{1024, 1024}}, {DType::BFloat16, Shape{3, 5}}};
  CHECK(check_hbm_capacity(fits) == 4194304 + 1024);
  // 4 GiB elements of f32 = exactly 16 GiB: fits; one more row does not.
  const std::vector<ArraySpec> exact = {{DType::Float32, Shape{65536, 65536}}};
  CHECK(check_hbm_capacity(exact) == 17179869184);
  const std::vector<ArraySpec> over = {{DType::Float32, Shape{65536, 65536}}, {DType::Float32, Shape{}}};
  try {
    check_hbm_capacity(over);
    FAIL("no error");
  } catch (const ResourceExhaustedError& e) {
    CHECK(std::string(e.what()) == "TPU HBM capacity exceeded: 17179869696 bytes needed, 17179869184 bytes available");
  }
}
