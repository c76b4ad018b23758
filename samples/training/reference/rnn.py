"""The numbers ../rnn.py prints, recomputed in float32 with PyTorch's
autograd and Keras's Adam (keras_adam.py): the same sine waves, initial
weights, unrolled cell and printing. Run with a python3 that has torch:
    /usr/bin/python3 samples/training/reference/rnn.py
"""
import torch

from keras_adam import KerasAdam

T, BATCH, UNITS = 24, 16, 16
steps = torch.arange(T + 1, dtype=torch.float32).reshape(T + 1, 1, 1)
phases = torch.arange(BATCH, dtype=torch.float32).reshape(1, BATCH, 1) * 0.4
waves = torch.sin(steps * 0.3 + phases)
inputs, targets = waves[:-1], waves[1:]


def initial(shape, phase):
    n = shape[0] * shape[1]
    return (torch.cos(torch.arange(n, dtype=torch.float32) * 1.37 + phase).reshape(shape) * 0.3).requires_grad_()


# In tf.Module's trainable_variables order (attribute names sorted): b, by, wh, wx, wy.
wx, wh, wy = initial([1, UNITS], 0.2), initial([UNITS, UNITS], 0.5), initial([UNITS, 1], 0.9)
b, by = torch.zeros(UNITS, requires_grad=True), torch.zeros(1, requires_grad=True)
params = [b, by, wh, wx, wy]


def model(xs):
    h = torch.zeros(xs.shape[1], UNITS)
    outputs = []
    for t in range(xs.shape[0]):
        h = torch.tanh(xs[t] @ wx + h @ wh + b)
        outputs.append(h @ wy + by)
    return torch.stack(outputs)


opt = KerasAdam(params, 0.01)
for step in range(301):
    loss = torch.mean(torch.square(model(inputs) - targets))
    opt.apply(torch.autograd.grad(loss, params))
    if step % 50 == 0:
        print(f"step {step:3d}: loss {float(loss):.5f}")
print(1)
print("/tmp/agc-sample-rnn/weights")
with torch.no_grad():
    out = model(inputs)
print(f"({T}, {BATCH}, 1)", True)
print(f"last prediction {float(out[-1, 0, 0]):.3f}, target {float(targets[-1, 0, 0]):.3f}")
