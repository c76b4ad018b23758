"""The numbers ../revnet.py prints, recomputed in float32 with PyTorch: the
block's forward pass and ordinary autograd gradients (the sample checks its
reversible gradients against exactly these), Keras's SGD with momentum
(m = 0.9 m - lr g; w += m), and the printing. Run with a python3 that has torch:
    /usr/bin/python3 samples/training/reference/revnet.py
"""
import torch

N, H, W, C, CLASSES = 8, 6, 6, 4, 2


def initial(shape, phase, scale):
    n = 1
    for d in shape:
        n *= d
    return torch.sin(torch.arange(n, dtype=torch.float32) * 0.917 + phase).reshape(shape) * scale


def conv_fn(x, kernel):  # x NHWC, kernel HWIO, as tf.nn.conv2d
    y = torch.nn.functional.conv2d(torch.relu(x).permute(0, 3, 1, 2), kernel.permute(3, 2, 0, 1), padding=1)
    return y.permute(0, 2, 3, 1)


def block(x, kf, kg):
    x1, x2 = torch.split(x, C // 2, dim=3)
    y1 = conv_fn(x2, kf) + x1
    y2 = conv_fn(y1, kg) + x2
    return torch.cat([y1, y2], dim=3)


kf = initial([3, 3, C // 2, C // 2], 0.3, 0.3).requires_grad_()
kg = initial([3, 3, C // 2, C // 2], 1.1, 0.3).requires_grad_()
head = initial([C, CLASSES], 0.5, 0.5).requires_grad_()
params = [kf, kg, head]
momenta = [torch.zeros_like(p) for p in params]
labels = torch.arange(N) % CLASSES
images = initial([N, H, W, C], 0.0, 1.0) + (labels.float() - 0.5).reshape(N, 1, 1, 1)


def loss_of(y):
    return torch.nn.functional.cross_entropy(y.mean(dim=(1, 2)) @ head, labels)


for step in range(10):
    loss = loss_of(block(images, kf, kg))
    grads = torch.autograd.grad(loss, params)
    with torch.no_grad():
        for p, m, g in zip(params, momenta, grads):
            m.mul_(0.9).sub_(0.1 * g)
            p.add_(m)
    if step % 3 == 0:
        print(f"step {step}: loss {float(loss):.4f}, input rebuilt True, gradients equal True")
with torch.no_grad():
    print(f"after 10 steps: loss {float(loss_of(block(images, kf, kg))):.4f}, iterations 10")
