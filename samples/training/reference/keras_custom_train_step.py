"""keras_custom_train_step.py's numbers in PyTorch float32: one Dense unit
on 32 features, the mean squared error, Keras's Adam, batches of 32 in
order (the last one of 8), the loss logged as the batch-size-weighted mean
over the epoch and the mean absolute error as the running mean over
samples; evaluate runs the same without updates."""
import numpy as np
import torch

from keras_adam import KerasAdam

rows = np.arange(1000)[:, None]
features = np.arange(32)[None, :]
x = (np.sin(rows * 0.37 + features * 0.11) * 0.5 + 0.5).astype(np.float32)
y = (x[:, :8].sum(axis=1, keepdims=True) * 0.25 - x[:, 8:12].mean(axis=1, keepdims=True)).astype(np.float32)

w = (torch.cos(torch.arange(32, dtype=torch.float32) * 0.9).reshape(32, 1) * 0.2).requires_grad_(True)
b = torch.zeros(1, requires_grad=True)
opt = KerasAdam([w, b], 0.002)


def run(train):
    total, abs_total, count = 0.0, 0.0, 0
    for s in range(0, len(x), 32):
        xb, yb = torch.from_numpy(x[s:s + 32]), torch.from_numpy(y[s:s + 32])
        pred = xb @ w + b
        loss = torch.mean((pred - yb) ** 2)
        if train:
            opt.apply(torch.autograd.grad(loss, [w, b]))
        total += float(loss) * len(xb)
        abs_total += float(torch.sum(torch.abs(pred - yb)))
        count += len(xb)
    return total / count, abs_total / count


history = {"loss": [], "mae": []}
for epoch in range(3):
    loss, mae = run(True)
    history["loss"].append(loss)
    history["mae"].append(mae)
for key, values in history.items():
    print(key, " ".join("%.4f" % v for v in values))
with torch.no_grad():
    print("evaluate", ["%.4f" % v for v in run(False)])
