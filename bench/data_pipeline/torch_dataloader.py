"""PyTorch's DataLoader over issue 14's benchmark records (data_pipeline_bench.cpp):
1M records of 4 float32 features and an int64 label, shuffled, mapped
(x * 2 + 1) per record in __getitem__, batched by 256. Prints elements per
second (best of the repeats). Run with a python3 that has torch:
    /usr/bin/python3 bench/data_pipeline/torch_dataloader.py [--records N] [--repeats R]
"""
import argparse
import time

import torch
from torch.utils.data import DataLoader, Dataset


class Records(Dataset):
    def __init__(self, features, labels):
        self.features, self.labels = features, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.features[i] * 2.0 + 1.0, self.labels[i]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    features = torch.rand(a.records, 4)
    labels = torch.arange(a.records, dtype=torch.int64)
    loader = DataLoader(Records(features, labels), batch_size=256, shuffle=True, num_workers=0)
    best = float("inf")
    for _ in range(a.repeats):
        start = time.perf_counter()
        seen, checksum = 0, 0
        for x, y in loader:
            seen += x.shape[0]
            checksum += int(y.sum())
        best = min(best, time.perf_counter() - start)
        assert seen == a.records and checksum == a.records * (a.records - 1) // 2
    print(f"torch DataLoader (per-record __getitem__, batch 256): {a.records / best:,.0f} elements/s "
          f"({best * 1e3:.0f} ms for {a.records:,} records, torch {torch.__version__})")


if __name__ == "__main__":
    main()
