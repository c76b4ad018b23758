# itertools as CPython computes it (the same file runs under /usr/bin/python3;
# list() of agc's lists is the same list).
import itertools

print(list(itertools.product([1, 2], "ab")), list(itertools.product(range(2), repeat=3)))
print(list(itertools.chain([1, 2], (3,), "xy")), list(itertools.chain.from_iterable([[1], [2, 3], []])))
print(list(itertools.permutations([1, 2, 3])), list(itertools.permutations("abc", 2)), list(itertools.permutations([1], 2)))
print(list(itertools.combinations(range(4), 2)), list(itertools.combinations([1, 2], 3)), list(itertools.combinations([], 0)))
print(list(itertools.combinations_with_replacement("ab", 3)), list(itertools.combinations_with_replacement([], 1)))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([3, 1, 4, 1, 5], max)), list(itertools.accumulate([1, 2], initial=100)))
print(list(itertools.accumulate([2, 3, 4], lambda a, b: a * b)), list(itertools.accumulate([])))
print(list(itertools.zip_longest([1, 2, 3], "ab", fillvalue="-")), list(itertools.zip_longest()))
print(list(itertools.repeat("x", 3)), list(itertools.repeat(0, -1)))
print(list(itertools.islice(range(10), 3)), list(itertools.islice(range(10), 2, 8, 3)), list(itertools.islice("abcdef", 1, None)))
for a, b in itertools.product([0, 1], repeat=2):
    print(a, b, end="; ")
print()
for call in [lambda: itertools.islice(range(3), -1), lambda: itertools.islice(range(3), 0, 2, 0),
             lambda: itertools.combinations([1], -1), lambda: itertools.product([1], repeat=-1)]:
    try:
        call()
    except ValueError as e:
        print("ValueError:", e)
