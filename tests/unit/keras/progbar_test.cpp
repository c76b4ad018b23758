// Keras's Progbar byte for byte under a fake clock: the redraw-in-place bytes
// ("\b" * previous width + "\r"), the 0.05 s throttle, ETA and per-step time
// (timed from the first printed step), stateful vs averaged values, and the
// verbose=2 line. Expected bytes follow Keras 2.15's generic_utils.Progbar
// worked through by hand for the same clock.
#include <doctest/doctest.h>

#include <string>

#include "runtime/keras/progbar.h"

using ag::keras::Progbar;

namespace {

struct Fixture {
  double now = 0;
  std::string out;
  Progbar bar(std::optional<int64_t> target, int verbose) {
    return Progbar(target, verbose, [this] { return now; }, [this](const std::string& s) { out += s; });
  }
};

std::string bs(size_t n) { return std::string(n, '\b'); }

}  // namespace

TEST_CASE("Progbar verbose=1 redraws in place, throttles and finalizes as Keras does") {
  Fixture f;
  Progbar bar = f.bar(3, 1);
  bar.set_stateful({"loss", "accuracy"});
  f.now = 0.30;
  bar.update(1, {{"loss", 0.7123}, {"accuracy", 0.5}}, false);
  f.now = 0.31;  // within 0.05 s of the last printed state: skipped
  bar.update(2, {{"loss", 0.7}, {"accuracy", 0.5}}, false);
  f.now = 0.40;
  bar.update(3, {{"loss", 0.6931}, {"accuracy", 0.5}}, false);
  f.now = 0.41;
  bar.update(3, {{"loss", 0.6931}, {"accuracy", 0.5}, {"val_loss", 0.6925}, {"val_accuracy", 0.5}}, true);
  // "1/3 [" + 30 + "]" is 36 wide; " - ETA: 0s - loss: 0.7123 - accuracy: 0.5000" is 44: 80 in all.
  // Per step at the end: (0.41 - 0.30) / (3 - 1) = 55 ms.
  std::string want = "\r1/3 [=========>....................] - ETA: 0s - loss: 0.7123 - accuracy: 0.5000" + bs(80) +
                     "\r3/3 [==============================] - ETA: 0s - loss: 0.6931 - accuracy: 0.5000" + bs(80) +
                     "\r3/3 [==============================] - 0s 55ms/step - loss: 0.6931 - accuracy: 0.5000"
                     " - val_loss: 0.6925 - val_accuracy: 0.5000\n";
  CHECK(f.out == want);
}

TEST_CASE("Progbar averages values Keras does not track as metrics, weighted by steps") {
  Fixture f;
  Progbar bar = f.bar(4, 1);
  f.now = 1.0;
  bar.update(2, {{"x", 1.0}}, false);  // weight 2
  f.now = 2.0;
  bar.update(4, {{"x", 4.0}}, true);   // weight 2: (2 + 8) / 4 = 2.5
  // int(30 * 2 / 4) = 15: 14 "=" and ">"; width 36 + 22 = 58. Elapsed 2 s; per step from the first printed state: 2.0 / 4 (the first state was step 2, not 1).
  CHECK(f.out == "\r2/4 [" + std::string(14, '=') + ">" + std::string(15, '.') + "] - ETA: 1s - x: 1.0000" + bs(58) +
                     "\r4/4 [==============================] - 2s 500ms/step - x: 2.5000\n");
}

TEST_CASE("Progbar verbose=2 prints one line at the end, with per-epoch and per-step times") {
  Fixture f;
  Progbar bar = f.bar(32, 2);
  bar.set_stateful({"loss"});
  for (int i = 1; i <= 32; ++i) {
    f.now = 0.003 * i;
    bar.update(i, {{"loss", -0.5}}, false);
  }
  f.now = 0.096;
  bar.update(32, {{"loss", -0.5}}, true);
  // verbose=2 formats with `v > 1e-3`, so a negative value is in e-notation.
  CHECK(f.out == "32/32 - 0s - loss: -5.0000e-01 - 96ms/epoch - 3ms/step\n");
}

TEST_CASE("Progbar's number formats") {
  CHECK(Progbar::format_time(0, "step") == " 0s/step");
  CHECK(Progbar::format_time(0.0005, "step") == " 500us/step");
  CHECK(Progbar::format_time(0.0125, "step") == " 12ms/step");
  CHECK(Progbar::format_time(2.5, "step") == " 2s/step");
  CHECK(Progbar::format_eta(59.9) == "59s");
  CHECK(Progbar::format_eta(60.5) == "1:00");
  CHECK(Progbar::format_eta(7325.2) == "2:02:05");
  CHECK(Progbar::format_value(0.6931471824645996, false) == " 0.6931");
  CHECK(Progbar::format_value(0.001, false) == " 1.0000e-03");
  CHECK(Progbar::format_value(0.0, false) == " 0.0000e+00");
  CHECK(Progbar::format_value(-0.5, false) == " -0.5000");
  CHECK(Progbar::format_value(-0.5, true) == " -5.0000e-01");
}

TEST_CASE("Progbar with an unknown target counts steps") {
  Fixture f;
  Progbar bar = f.bar(std::nullopt, 1);
  f.now = 0.5;
  bar.update(1, {}, false);
  CHECK(f.out == "\r      1/Unknown - 0s 500ms/step");
}
