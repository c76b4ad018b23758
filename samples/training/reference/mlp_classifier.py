"""The numbers ../mlp_classifier.py prints, recomputed in float32 with
PyTorch's autograd and Keras's Adam (keras_adam.py): the same spirals,
initial weights, minibatches and printing. Run with a python3 that has torch:
    /usr/bin/python3 samples/training/reference/mlp_classifier.py
"""
import copy

import torch

from keras_adam import KerasAdam

N, C, BATCH = 300, 3, 60
t = torch.arange(N, dtype=torch.float32)
labels = torch.arange(N) % C
radius = torch.floor(t / C) / 100.0 + 0.1
angle = labels.float() * 2.0944 + radius * 4.0
features = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)


def initial(shape, phase):
    values = torch.sin(torch.arange(shape[0] * shape[1], dtype=torch.float32) * 0.731 + phase)
    return (values.reshape(shape) * (1.0 / shape[0]) ** 0.5).requires_grad_()


def make_model():
    return [initial([2, 32], 0.1), torch.zeros(32, requires_grad=True),
            initial([32, 32], 0.7), torch.zeros(32, requires_grad=True),
            initial([32, C], 1.3), torch.zeros(C, requires_grad=True)]


def forward(p, x):
    h = torch.relu(x @ p[0] + p[1])
    h = torch.relu(h @ p[2] + p[3])
    return h @ p[4] + p[5]


def train(p, opt, first, last):
    for e in range(first, last):
        losses = []
        for i in range(0, N, BATCH):
            loss = torch.nn.functional.cross_entropy(forward(p, features[i:i + BATCH]), labels[i:i + BATCH])
            opt.apply(torch.autograd.grad(loss, p))
            losses.append(float(loss))
        if e % 25 == 24:
            with torch.no_grad():
                acc = float((forward(p, features).argmax(1) == labels).float().mean())
            print(f"epoch {e + 1:3d}: loss {sum(losses) / len(losses):.4f}, accuracy {acc:.3f}")


p = make_model()
opt = KerasAdam(p, 0.01)
print(6, [[32], [2, 32]])
for first in range(0, 150, 50):
    train(p, opt, first, first + 50)
    print("saved", f"/tmp/agc-sample-mlp/ckpt-{first // 50 + 1}")
print(['/tmp/agc-sample-mlp/ckpt-2', '/tmp/agc-sample-mlp/ckpt-3'])
print("steps", opt.iterations, "traces", 1)
print("restored epoch", 150, "iterations", opt.iterations)
print("same logits:", True)
p2 = [q.detach().clone().requires_grad_() for q in p]
opt2 = copy.deepcopy(opt)
opt2.params = p2
train(p, opt, 150, 175)
train(p2, opt2, 150, 175)
print("same after training on:", all(bool(torch.equal(a, b)) for a, b in zip(p, p2)))
