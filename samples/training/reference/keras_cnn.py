"""keras_cnn.py's numbers in PyTorch float32, following Keras 2.15: NHWC
images and HWIO kernels (permuted here to PyTorch's NCHW and OIHW), 'valid'
convolutions, 2x2 max pooling that drops the odd row and column, Flatten in
NHWC order; categorical cross-entropy of a softmax Dense computed from its
logits (Keras's _get_logits does so for a Softmax output), the loss logged
as the batch-size-weighted mean over the epoch, categorical accuracy,
validation_split taking the last 12.5% before any shuffle, batches of 32 in
order."""
import numpy as np
import torch
import torch.nn.functional as F

from keras_adam import KerasAdam

N, SIDE, CLASSES = 512, 28, 10
labels = np.arange(N) % CLASSES
rows = np.arange(SIDE)[:, None]
cols = np.arange(SIDE)[None, :]
images = np.stack([
    np.sin((labels[i] + 1) * (rows * 0.11 + cols * 0.07) + i * 0.013) * 0.5 + 0.5 for i in range(N)
]).astype(np.float32)[..., None]


def sine(shape, phase):
    n = int(np.prod(shape))
    fan_in = int(np.prod(shape[:-1]))
    values = torch.sin(torch.arange(n, dtype=torch.float32) * 0.731 + phase)
    return (values.reshape(shape) * (1.0 / fan_in) ** 0.5).clone().requires_grad_(True)


k1, b1 = sine((3, 3, 1, 8), 0.3), torch.zeros(8, requires_grad=True)
k2, b2 = sine((3, 3, 8, 16), 0.7), torch.zeros(16, requires_grad=True)
w3, b3 = sine((5 * 5 * 16, CLASSES), 1.1), torch.zeros(CLASSES, requires_grad=True)
params = [k1, b1, k2, b2, w3, b3]
opt = KerasAdam(params, 2e-3)


def logits_of(x):
    h = x.permute(0, 3, 1, 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, k1.permute(3, 2, 0, 1), b1)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, k2.permute(3, 2, 0, 1), b2)), 2)
    h = h.permute(0, 2, 3, 1).reshape(len(x), -1)
    return h @ w3 + b3


def run(x, y, train):
    total, count, correct = 0.0, 0, 0
    for s in range(0, len(x), 32):
        xb, yb = torch.from_numpy(x[s:s + 32]), torch.from_numpy(y[s:s + 32]).long()
        logits = logits_of(xb)
        loss = F.cross_entropy(logits, yb)
        if train:
            opt.apply(torch.autograd.grad(loss, params))
        total += float(loss) * len(xb)
        count += len(xb)
        correct += int((logits.argmax(1) == yb).sum())
    return total / count, correct / count


split = int(N * (1.0 - 0.125))
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
    print("predicted", logits_of(torch.from_numpy(images[:6])).argmax(1).numpy(), "true", labels[:6])
