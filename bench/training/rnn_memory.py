#!/usr/bin/env python3
"""Memory of one dynamic_rnn BPTT + Adam step (T=100, B=32, 256 units), agc
against PyTorch eager, each in a fresh process: the growth of the process's
peak resident memory (VmHWM) over its first step (agc's includes the trace),
agc's tensor-storage peak over that step, and what each keeps for the
backward pass: agc's While accumulators per iteration, from the traced graph
(BUILD/bench/bench_train_steps --rnn-memory), PyTorch's saved tensors (the
distinct storages autograd's saved-tensor hooks see, parameters and the input
excluded) for the RNN of torch_train_steps.py.

    python3 bench/training/rnn_memory.py [BUILD_DIR]
"""
import subprocess
import sys


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def torch_step():
    import torch
    from torch_train_steps import RNN

    xs = torch.randn(100, 32, 256)
    model = RNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    before = status_kb("VmRSS")
    loss = model(xs)
    loss.backward()
    opt.step()
    first = status_kb("VmHWM") - before

    kept = {p.data_ptr() for p in model.parameters()} | {xs.data_ptr()}
    saved = {}

    def pack(t):
        storage = t.storage()
        if storage.data_ptr() not in kept:
            saved[storage.data_ptr()] = storage.size() * t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model(xs)
    print(f"RNN step: peak resident memory +{first} kB over the first step, saved for backward "
          f"{sum(saved.values()) // 1024} kB in {len(saved)} tensors ({sum(saved.values()) // 100} bytes per time step)")


def main():
    if sys.argv[1:] == ["--torch"]:
        torch_step()
        return
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    agc = subprocess.run([f"{build}/bench/bench_train_steps", "--rnn-memory"], capture_output=True, text=True,
                         check=True).stdout
    torch = subprocess.run([sys.executable, __file__, "--torch"], capture_output=True, text=True, check=True,
                           cwd=sys.path[0]).stdout
    print("agc:     " + agc, end="")
    print("PyTorch: " + torch, end="")


if __name__ == "__main__":
    main()
