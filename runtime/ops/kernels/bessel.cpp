// Built with -ffp-contract=off -mno-fma (runtime/meson.build): Eigen's scalar
// expansions keep every multiply and add rounded apart, as TF runs them.
#include "runtime/ops/kernels/bessel.h"

#include <unsupported/Eigen/SpecialFunctions>

namespace ag::kernels {

float bessel_i0(float x) { return Eigen::numext::bessel_i0(x); }
double bessel_i0(double x) { return Eigen::numext::bessel_i0(x); }
float bessel_i1(float x) { return Eigen::numext::bessel_i1(x); }
double bessel_i1(double x) { return Eigen::numext::bessel_i1(x); }
float bessel_i0e(float x) { return Eigen::numext::bessel_i0e(x); }
double bessel_i0e(double x) { return Eigen::numext::bessel_i0e(x); }
float bessel_i1e(float x) { return Eigen::numext::bessel_i1e(x); }
double bessel_i1e(double x) { return Eigen::numext::bessel_i1e(x); }

}  // namespace ag::kernels
