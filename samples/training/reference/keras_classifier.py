"""keras_classifier.py's numbers in PyTorch float32, following Keras 2.15's
fit: validation_split takes the last 20% before any shuffle, batches of 64
in order (the last one partial), loss = the batch mean of sparse softmax
cross-entropy, logged as the batch-size-weighted mean over the epoch,
accuracy as the running mean over samples, validation after each epoch.
Keras keeps the metrics in float32: 599/800 is 0.74874997 there, printed
0.7487 by TF (and agc) where this double arithmetic prints 0.7488."""
import numpy as np
import torch

from keras_adam import KerasAdam

N, PIXELS, CLASSES = 1000, 784, 10
labels = np.arange(N) % CLASSES
pixel = np.arange(PIXELS)
images = (np.sin((labels[:, None] + 1) * pixel[None, :] * 0.01 + np.arange(N)[:, None] * 0.003) * 0.5 + 0.5).astype(np.float32)


def sine(shape, phase):
    n = shape[0] * shape[1]
    values = torch.sin(torch.arange(n, dtype=torch.float32) * 0.731 + phase)
    return (values.reshape(shape) * (1.0 / shape[0]) ** 0.5).clone().requires_grad_(True)


w1, b1 = sine((PIXELS, 64), 0.3), torch.zeros(64, requires_grad=True)
w2, b2 = sine((64, CLASSES), 1.1), torch.zeros(CLASSES, requires_grad=True)
params = [w1, b1, w2, b2]
opt = KerasAdam(params, 1e-3)


def forward(x):
    return torch.relu(x @ w1 + b1) @ w2 + b2


def run(x, y, train):
    total, count, correct = 0.0, 0, 0
    for s in range(0, len(x), 64):
        xb, yb = torch.from_numpy(x[s:s + 64]), torch.from_numpy(y[s:s + 64]).long()
        logits = forward(xb)
        loss = torch.nn.functional.cross_entropy(logits, yb)
        if train:
            grads = torch.autograd.grad(loss, params)
            opt.apply(grads)
        total += float(loss) * len(xb)
        count += len(xb)
        correct += int((logits.argmax(1) == yb).sum())
    return total / count, correct / count


split = int(N * (1.0 - 0.2))
history = {"loss": [], "accuracy": [], "val_loss": [], "val_accuracy": []}
for epoch in range(3):
    loss, acc = run(images[:split], labels[:split], True)
    with torch.no_grad():
        val_loss, val_acc = run(images[split:], labels[split:], False)
    for k, v in zip(history, (loss, acc, val_loss, val_acc)):
        history[k].append(v)
for key, values in history.items():
    print(key, " ".join("%.4f" % v for v in values))
with torch.no_grad():
    loss, acc = run(images, labels, False)
    print("evaluate: loss %.4f accuracy %.4f" % (loss, acc))
    print("predicted", forward(torch.from_numpy(images[:5])).argmax(1).numpy(), "true", labels[:5])
