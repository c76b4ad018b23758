"""keras_text_classifier.py's numbers in PyTorch float32, following Keras
2.15: the Embedding's rows gathered, the LSTM's z = x W + h U + b split into
gates i, f, c, o (recurrent activation sigmoid, activation tanh), its bias
starting at zeros with the forget gate's at 1 (unit_forget_bias), and a
masked step (token 0) keeping the previous state and output, so the last
output is the last real token's; binary cross-entropy of a sigmoid Dense
computed from its logit (Keras's _get_logits does so for a Sigmoid output),
the loss logged as the batch-size-weighted mean over the epoch, binary
accuracy at 0.5, batches of 32 in order."""
import numpy as np
import torch
import torch.nn.functional as F

from keras_adam import KerasAdam

N, T, VOCAB, DIM, UNITS = 256, 12, 50, 8, 16
lengths = 4 + (np.arange(N) * 5) % 9
tokens = np.zeros((N, T), dtype=np.int64)
for i in range(N):
    for j in range(lengths[i]):
        tokens[i, j] = 1 + (i * 7 + j * 13 + (i * j) % 11) % (VOCAB - 1)
labels = np.array([tokens[i, :lengths[i]].mean() > 25 for i in range(N)], dtype=np.float32)


def cos(shape, phase, scale):
    n = int(np.prod(shape))
    values = torch.cos(torch.arange(n, dtype=torch.float32) * 1.37 + phase)
    return (values.reshape(shape) * scale).clone().requires_grad_(True)


emb = cos((VOCAB, DIM), 0.1, 0.5)
W, U = cos((DIM, 4 * UNITS), 0.2, 0.3), cos((UNITS, 4 * UNITS), 0.5, 0.2)
b = torch.cat([torch.zeros(UNITS), torch.ones(UNITS), torch.zeros(2 * UNITS)]).requires_grad_(True)
wd, bd = cos((UNITS, 1), 0.9, 0.4), torch.zeros(1, requires_grad=True)
params = [emb, W, U, b, wd, bd]
opt = KerasAdam(params, 0.01)


def logit_of(ids):
    x = emb[ids]
    mask = (ids != 0).unsqueeze(-1)
    h = torch.zeros(len(ids), UNITS)
    c = torch.zeros(len(ids), UNITS)
    for t in range(T):
        z = x[:, t] @ W + h @ U + b
        i, f, g, o = z.split(UNITS, dim=1)
        c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h_new = torch.sigmoid(o) * torch.tanh(c_new)
        h = torch.where(mask[:, t], h_new, h)
        c = torch.where(mask[:, t], c_new, c)
    return (h @ wd + bd)[:, 0]


def run(train):
    total, count, correct = 0.0, 0, 0
    for s in range(0, N, 32):
        ids, y = torch.from_numpy(tokens[s:s + 32]), torch.from_numpy(labels[s:s + 32])
        logit = logit_of(ids)
        loss = F.binary_cross_entropy_with_logits(logit, y)
        if train:
            opt.apply(torch.autograd.grad(loss, params))
        total += float(loss) * len(ids)
        count += len(ids)
        correct += int(((torch.sigmoid(logit) > 0.5).float() == y).sum())
    return total / count, correct / count


history = {"loss": [], "accuracy": []}
for epoch in range(4):
    loss, acc = run(True)
    history["loss"].append(loss)
    history["accuracy"].append(acc)
for key, values in history.items():
    print(key, " ".join("%.4f" % v for v in values))
with torch.no_grad():
    loss, acc = run(False)
    print("evaluate: loss %.4f accuracy %.4f" % (loss, acc))
    scores = torch.sigmoid(logit_of(torch.from_numpy(tokens[:6]))).numpy()
    print("scores", np.round(scores, 3), "labels", labels[:6])
