#!/usr/bin/env python3
"""Issue 16's fit benchmarks, PyTorch side, as the hand-written loop a
PyTorch user writes, eager and TorchScript (the module scripted), on
--threads threads (2 by default; under load PyTorch's OpenMP threads spin
against each other, and 1 thread is its best setup):
  --model mlp (default): the same epoch as keras_fit.py (60,000 x 784
    float32 samples, Linear(784, 128) + ReLU + Dropout(0.2) + Linear(128,
    10), Adam (eps=1e-7 as Keras), cross-entropy from logits, accuracy
    counted per batch, batch 32, a new shuffle per epoch);
  --model cnn: the same epoch as keras_fit_cnn.py (60,000 28x28 images,
    Conv2d(1, 32, 3) + ReLU + MaxPool 2, Conv2d(32, 64, 3) + ReLU + MaxPool
    2, Flatten, Dropout(0.5), Linear(1600, 10), batch 128).
Runs agc's side first when given the agc binary, so the figures come from
one run on the same machine state; agc's kernels then use the same number
of threads (tf.config.threading.set_intra_op_parallelism_threads in
keras_fit_cnn.py, from AGC_BENCH_THREADS).

    /usr/bin/python3 bench/training/torch_fit.py [--threads N] [--model mlp|cnn] [AGC]
"""
import os
import subprocess
import sys
import time

import numpy as np
import torch

args = sys.argv[1:]
threads = 2
if args[:1] == ["--threads"]:
    threads = int(args[1])
    args = args[2:]
model_kind = "mlp"
if args[:1] == ["--model"]:
    model_kind = args[1]
    args = args[2:]
torch.set_num_threads(threads)
torch.manual_seed(0)
EPOCHS = 3 if model_kind == "mlp" else 2
BATCH = 32 if model_kind == "mlp" else 128
N = 60000


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(784, 128)
        self.drop = torch.nn.Dropout(0.2)
        self.l2 = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.l2(self.drop(torch.relu(self.l1(x))))


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 32, 3)
        self.c2 = torch.nn.Conv2d(32, 64, 3)
        self.drop = torch.nn.Dropout(0.5)
        self.fc = torch.nn.Linear(1600, 10)

    def forward(self, x):
        h = torch.max_pool2d(torch.relu(self.c1(x)), 2)
        h = torch.max_pool2d(torch.relu(self.c2(h)), 2)
        return self.fc(self.drop(torch.flatten(h, 1)))


def epochs(model, x, y, label):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    loss_fn = torch.nn.CrossEntropyLoss()
    for epoch in range(EPOCHS):
        start = time.perf_counter()
        perm = torch.randperm(N)
        total, correct = 0.0, 0
        model.train()
        for s in range(0, N, BATCH):
            idx = perm[s:s + BATCH]
            xb, yb = x[idx], y[idx]
            logits = model(xb)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
            correct += int((logits.argmax(1) == yb).sum())
        print("%s epoch %d: %.3f s (loss %.4f, accuracy %.4f)" % (label, epoch, time.perf_counter() - start,
                                                                 total / N, correct / N))


if args:
    here = os.path.dirname(os.path.abspath(__file__))
    script = "keras_fit.py" if model_kind == "mlp" else "keras_fit_cnn.py"
    env = dict(os.environ, AGC_BENCH_THREADS=str(threads))
    subprocess.run([args[0], "run", os.path.join(here, script)], check=True, env=env)
rng = np.random.RandomState(0)
if model_kind == "mlp":
    x = torch.from_numpy(rng.rand(N, 784).astype(np.float32))
    make = Net
else:
    x = torch.from_numpy(rng.rand(N, 1, 28, 28).astype(np.float32))  # NCHW, PyTorch's layout
    make = ConvNet
y = torch.from_numpy((np.arange(N) % 10).astype(np.int64))
epochs(make(), x, y, "PyTorch eager")
epochs(torch.jit.script(make()), x, y, "TorchScript")
