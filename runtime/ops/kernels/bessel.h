// The modified Bessel functions of the first kind, I0 and I1, and their
// exponentially scaled forms i0e(x) = exp(-|x|)·I0(x), i1e(x) = exp(-|x|)·I1(x),
// as TF's CPU kernels compute them: Eigen's Cephes Chebyshev expansions, each
// step rounded on its own (bessel.cpp builds without FMA contraction, as TF's
// x86 wheels build Eigen).
#pragma once

namespace ag::kernels {

float bessel_i0(float x);
double bessel_i0(double x);
float bessel_i1(float x);
double bessel_i1(double x);
float bessel_i0e(float x);
double bessel_i0e(double x);
float bessel_i1e(float x);
double bessel_i1e(double x);

}  // namespace ag::kernels
