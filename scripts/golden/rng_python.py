#!/usr/bin/python3
"""Golden values for Python 3.11's random.Random: writes test/golden/rng-python.json.

Run with /usr/bin/python3. Each case seeds one Random and runs a fixed script of calls on it,
so the tests also check how many words every call consumes. sample() sizes straddle the
point where CPython switches from its pool strategy to its set strategy.
"""
import json
import math
import os
import random
import sys

assert sys.version_info[:2] == (3, 11), sys.version
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "rng-python.json")

SEEDS = [0, 1, 2, 7, 42, 123, 1234, 2023, -1, -42, 2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 + 1,
         2 ** 64 + 5, 12345678901234567890123, -(2 ** 70), "", "hello", "mle-bench", "ünïcødé ✓"]


def setsize(k):
    s = 21
    if k > 5:
        s += 4 ** math.ceil(math.log(k * 3, 4))
    return s


def script(r):
    ops = []

    def rec(op, args, result):
        ops.append([op, args, result])

    for _ in range(3):
        rec("random", [], repr(r.random()))
    for k in [0, 1, 2, 7, 31, 32, 33, 52, 53]:
        rec("getrandbits", [k], r.getrandbits(k))
    for k in [64, 65, 100, 200]:
        rec("getrandbitsBig", [k], str(r.getrandbits(k)))
    for n in [1, 2, 3, 5, 10, 100, 1000, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 40 + 3, 2 ** 53 - 1]:
        rec("randbelow", [n], r._randbelow(n))
    for args in [[10], [1, 7], [-5, 5], [0, 100, 3], [10, 0, -2], [-3, 40, 7], [0, 2 ** 40]]:
        rec("randrange", args, r.randrange(*args))
    for a, b in [[0, 0], [1, 6], [-10, 10], [0, 2 ** 33]]:
        rec("randint", [a, b], r.randint(a, b))
    for n in [1, 2, 5, 26]:
        rec("choice", [n], r.choice(list(range(n))))
    for n in [0, 1, 2, 5, 10, 100, 1000]:
        x = list(range(n))
        r.shuffle(x)
        rec("shuffle", [n], x)
    pairs = [[1, 0], [1, 1], [5, 5], [10, 3], [10, 10], [26, 5], [26, 6], [85, 6], [86, 6], [100, 10],
             [1000, 10], [1000, 100], [1000, 1000], [10 ** 6, 20]]
    for k in [6, 22, 100]:
        pairs += [[setsize(k), k], [setsize(k) + 1, k]]
    for n, k in pairs:
        rec("sample", [n, k], r.sample(range(n), k))
    for a, b in [[0, 1], [-2.5, 7.25], [10, -10]]:
        rec("uniform", [a, b], repr(r.uniform(a, b)))
    rec("random", [], repr(r.random()))
    return ops


cases = []
for seed in SEEDS:
    kind = "str" if isinstance(seed, str) else "int"
    cases.append({"seed": {"kind": kind, "value": seed if kind == "str" else str(seed)},
                  "ops": script(random.Random(seed))})
with open(OUT, "w") as f:
    json.dump(cases, f, ensure_ascii=False)
    f.write("\n")
