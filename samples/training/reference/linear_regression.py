"""The numbers ../linear_regression.py prints, recomputed in float32 with
PyTorch's autograd (TensorFlow cannot be installed here): the same data, loss,
gradient step and printing. Run with a python3 that has torch:
    /usr/bin/python3 samples/training/reference/linear_regression.py
"""
import torch

x = torch.arange(201, dtype=torch.float32) / 50.0 - 2.0
y = x * 3.0 + 2.0 + 0.5 * torch.sin(7.0 * x)
w = torch.tensor(5.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)


def loss():
    return torch.mean(torch.square(y - (w * x + b)))


def train(epochs):
    for epoch in epochs:
        current = loss()
        dw, db = torch.autograd.grad(current, [w, b])
        with torch.no_grad():
            w.sub_(0.1 * dw)
            b.sub_(0.1 * db)
        if epoch % 5 == 0:
            print(f"Epoch {epoch:2d}: W={float(w):1.2f} b={float(b):1.2f}, loss={float(current):2.5f}")


print(f"Starting: W={float(w):1.2f} b={float(b):1.2f}, loss={float(loss()):2.5f}")
train(range(10))
print("/tmp/agc-sample-linear-regression/ckpt-1")
print(True, True)
train(range(10, 30))
print(f"Trained: W={float(w):1.4f} b={float(b):1.4f}")
print(2)
