#!/usr/bin/env python3
"""Issue 13's training steps in PyTorch, eager and TorchScript (2 threads),
next to agc's in the same run (BUILD/bench/bench_train_steps, run first and
parsed): the MLP 784-512-512-10 step on a batch of 128 and the dynamic_rnn
BPTT step (T=100, B=32, 256 units), each forward, backward and an Adam update
(torch.optim.Adam, eps=1e-7 as Keras). Best and median milliseconds per step.
Then the hand-written Eigen steps (BUILD/bench/bench_handwritten_steps, when
built) and agc / hand-written per step.

    python3 bench/training/torch_train_steps.py [BUILD_DIR]
"""
import os
import re
import statistics
import subprocess
import sys
import time

import torch

torch.set_num_threads(2)
torch.manual_seed(7)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(784, 512)
        self.l2 = torch.nn.Linear(512, 512)
        self.l3 = torch.nn.Linear(512, 10)

    def forward(self, x, labels):
        h = torch.relu(self.l1(x))
        h = torch.relu(self.l2(h))
        return torch.nn.functional.cross_entropy(self.l3(h), labels)


class RNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.wx = torch.nn.Parameter(torch.randn(256, 256) * 0.05)
        self.wh = torch.nn.Parameter(torch.randn(256, 256) * 0.05)
        self.b = torch.nn.Parameter(torch.zeros(256))

    def forward(self, xs):
        h = torch.zeros(32, 256)
        loss = torch.zeros(())
        for t in range(xs.shape[0]):
            h = torch.tanh(xs[t] @ self.wx + h @ self.wh + self.b)
            loss = loss + (h * h).mean()
        return loss


def time_steps(model, inputs, steps):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = model(*inputs)
        loss.backward()
        opt.step()

    step()
    ms = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        ms.append((time.perf_counter() - t0) * 1e3)
    return min(ms), statistics.median(ms)


def best_ms(program):
    """Runs a step benchmark; prints its output and returns its best times
    (MLP, RNN) in milliseconds."""
    out = subprocess.run([program], capture_output=True, text=True, check=True).stdout
    print(out, end="")
    return [float(m) for m in re.findall(r"best ([\d.]+) ms", out)]


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    agc_best = best_ms(f"{build}/bench/bench_train_steps")
    handwritten = f"{build}/bench/bench_handwritten_steps"
    if os.path.exists(handwritten):
        handwritten_best = best_ms(handwritten)
    else:
        handwritten_best = None
        print(f"hand-written Eigen steps: skipped ({handwritten} is not built: "
              f"ninja -C {build} bench/bench_handwritten_steps)")
    x = torch.randn(128, 784)
    labels = torch.randint(0, 10, (128,))
    xs = torch.randn(100, 32, 256)
    rows = [("MLP step", MLP, (x, labels), 30, 0), ("RNN BPTT step", RNN, (xs,), 10, 1)]
    for name, cls, inputs, steps, i in rows:
        eager = time_steps(cls(), inputs, steps)
        scripted = time_steps(torch.jit.script(cls()), inputs, steps)
        agc_ms = agc_best[i]
        line = (f"{name}: PyTorch eager best {eager[0]:.2f} ms (median {eager[1]:.2f}), "
                f"TorchScript best {scripted[0]:.2f} ms (median {scripted[1]:.2f}); "
                f"agc best {agc_ms:.2f} ms: eager/agc {eager[0] / agc_ms:.2f}x, "
                f"TorchScript/agc {scripted[0] / agc_ms:.2f}x")
        if handwritten_best:
            line += f"; hand-written best {handwritten_best[i]:.2f} ms: agc/hand-written {agc_ms / handwritten_best[i]:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
