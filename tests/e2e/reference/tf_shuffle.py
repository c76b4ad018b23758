"""TensorFlow's Dataset.shuffle order, computed independently of agc.

Written from TF's kernels (core/kernels/data/shuffle_dataset_op.cc,
random_seed_ops.cc, core/lib/random/philox_random.h) and the Philox paper
(Salmon et al. 2011): the expected shuffled orders of
tests/e2e/programs/data_transforms.py come from here. Run with any Python 3:
    python3 tests/e2e/reference/tf_shuffle.py
"""

M32 = 0xFFFFFFFF
DEFAULT_GRAPH_SEED = 87654321


def philox_4x32_10(counter, key):
    c, k = list(counter), list(key)
    for r in range(10):
        if r:
            k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k[0]) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k[1]) & M32, p0 & M32]
    return c


class Words:
    """PhiloxRandom(seed, seed2) read one 32-bit word at a time (SingleSampleAdapter)."""

    def __init__(self, seed, seed2):
        self.key = [seed & M32, (seed >> 32) & M32]
        self.counter = [0, 0, seed2 & M32, (seed2 >> 32) & M32]
        self.block, self.used = [], 4

    def __call__(self):
        if self.used == 4:
            self.block = philox_4x32_10(self.counter, self.key)
            n = (self.counter[0] | self.counter[1] << 32 | self.counter[2] << 64 | self.counter[3] << 96) + 1
            self.counter = [(n >> s) & M32 for s in (0, 32, 64, 96)]
            self.used = 0
        self.used += 1
        return self.block[self.used - 1]


class ShuffledDataset:
    def __init__(self, elements, buffer_size, seed, seed2, reshuffle=True):
        self.elements, self.size, self.reshuffle = list(elements), buffer_size, reshuffle
        self.seeds = (seed, seed2)
        self.generator = Words(seed, seed2)

    def iterate(self):
        s1, s2 = (self.generator(), self.generator()) if self.reshuffle else self.seeds
        rand = Words(s1, s2)
        source = iter(self.elements)
        buf, start, end = {}, 0, 0
        exhausted = False
        while True:
            while not exhausted and end - start < self.size:
                try:
                    buf[end % self.size] = next(source)
                    end += 1
                except StopIteration:
                    exhausted = True
            if end == start:
                return
            index = (start + rand() % (end - start)) % self.size
            first = start % self.size
            out = buf[index]
            buf[index] = buf[first]
            start += 1
            yield out


def get_seed(op_seed, global_seed=None):
    if global_seed is not None:
        return global_seed, op_seed
    return DEFAULT_GRAPH_SEED, op_seed


if __name__ == "__main__":
    # data_transforms.py: range(10).shuffle(4, seed=7), iterated twice
    ds = ShuffledDataset(range(10), 4, *get_seed(7))
    print(list(ds.iterate()))
    print(list(ds.iterate()))
    # range(10).shuffle(10, seed=7, reshuffle_each_iteration=False), twice
    fixed = ShuffledDataset(range(10), 10, *get_seed(7), reshuffle=False)
    print(list(fixed.iterate()))
    print(list(fixed.iterate()))
    # tf.random.set_seed(5); range(6).shuffle(6, seed=1)
    print(list(ShuffledDataset(range(6), 6, *get_seed(1, 5)).iterate()))
