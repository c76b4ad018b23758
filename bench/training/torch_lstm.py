# torch.nn.LSTM (or GRU) forward and backward, the step bench_keras_lstm times
# for tf.keras.layers.LSTM: T=100, batch 32, 256 inputs, 256 units, the whole
# output sequence, loss mean(y^2), gradients of the weights and the input.
# PyTorch on 2 threads (the machine's cores), eager, with its oneDNN (MKL-DNN)
# RNN path on (the default) and off (Debian's 1.13 build runs the native
# per-step path several times faster here); best and median of N steps after
# one warm-up. With the build directory, runs bench_keras_lstm first and
# prints agc / the faster PyTorch.
#
#   python3 bench/training/torch_lstm.py [BUILD] [--steps N] [--threads N] [--gru]
# (Debian's python3-torch and libopenblas0-pthread; with the reference BLAS
# alone PyTorch's products are several times slower.)
import re
import subprocess
import sys
import time

import torch

args = sys.argv[1:]
steps = 20
gru = "--gru" in args
if "--steps" in args:
    steps = int(args[args.index("--steps") + 1])
threads = int(args[args.index("--threads") + 1]) if "--threads" in args else 2
build = next((a for a in args if not a.startswith("--") and not a.isdigit()), None)

torch.set_num_threads(threads)
torch.manual_seed(1)
cls = torch.nn.GRU if gru else torch.nn.LSTM
layer = cls(256, 256, batch_first=True)
x = torch.randn(32, 100, 256, requires_grad=True)


def step():
    layer.zero_grad()
    x.grad = None
    y, _ = layer(x)
    loss = (y * y).mean()
    loss.backward()
    return loss


def timed(fn, n):
    fn()
    ms = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1e3)
    ms.sort()
    return ms[0], ms[len(ms) // 2]


agc = None
if build:
    out = subprocess.run([f"{build}/bench/bench_keras_lstm", "--steps", str(steps), "--only", "traced"]
                         + (["--gru"] if gru else []), capture_output=True, text=True, check=True).stdout
    print(out, end="")
    agc = float(re.search(r"traced: best ([0-9.]+) ms", out).group(1))
name = "GRU" if gru else "LSTM"
bests = []
for mkldnn in (True, False):
    torch._C._set_mkldnn_enabled(mkldnn)
    best, median = timed(step, steps)
    bests.append(best)
    print(f"torch {torch.__version__} nn.{name} T=100 B=32 256->256 forward+backward, eager, {threads} threads, "
          f"mkldnn {'on' if mkldnn else 'off'}: best {best:.2f} ms, median {median:.2f} ms")
if agc is not None:
    print(f"agc / PyTorch (best of each): {agc / min(bests):.2f}x")
