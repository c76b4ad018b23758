"""Keras's Adam (tf.keras.optimizers.Adam, TF 2.11+) in PyTorch float32, in
the order Keras computes it, for the training samples' reference scripts."""
import math

import torch


class KerasAdam:
    def __init__(self, params, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
        self.params = list(params)
        self.lr, self.beta_1, self.beta_2, self.epsilon = lr, beta_1, beta_2, epsilon
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]
        self.iterations = 0

    @torch.no_grad()
    def apply(self, grads):
        step = torch.tensor(float(self.iterations + 1))
        lr = torch.tensor(self.lr, dtype=torch.float32)
        beta_1_power = torch.pow(torch.tensor(self.beta_1), step)
        beta_2_power = torch.pow(torch.tensor(self.beta_2), step)
        alpha = lr * torch.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m.add_((g - m) * (1 - self.beta_1))
            v.add_((torch.square(g) - v) * (1 - self.beta_2))
            p.sub_((m * alpha) / (torch.sqrt(v) + self.epsilon))
        self.iterations += 1
