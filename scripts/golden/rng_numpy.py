#!/usr/bin/python3
"""Golden draws of numpy's legacy RandomState: writes test/golden/rng-numpy.json.

Run with /usr/bin/python3 (Debian's numpy 1.24). Each case is a seed and a program of calls
made on ONE RandomState, so the file also pins how calls interleave on a stream (the cached
Box-Muller value, rejection loops consuming extra words). A call is
[method, positional args in the TypeScript signature's order (None for omitted), output],
with arrays raveled in C order. Method names are numpy's; the test maps them to camelCase.
"""
import json
import math
import os
import random

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "rng-numpy.json")


def plain(v):
    if isinstance(v, np.ndarray):
        return [plain(x) for x in v.ravel().tolist()]
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, np.str_):
        return str(v)
    return v


def shape(size):
    return tuple(size) if isinstance(size, list) else size


def run(rs, method, args):
    if method == "random_sample":
        return rs.random_sample(shape(args[0]) if args else None)
    if method == "rand":
        return rs.rand(*args)
    if method == "randn":
        return rs.randn(*args)
    if method == "randint":
        low, high, size, dtype = (args + [None] * 4)[:4]
        return rs.randint(low, high, shape(size), dtype=dtype or "int64")
    if method == "permutation":
        # Rows of a 2-D input move as units, so keep the nesting instead of raveling.
        return rs.permutation(args[0]).tolist()
    if method == "shuffle":
        x = list(args[0])
        rs.shuffle(x)
        return x
    if method == "choice":
        a, size, replace, p = (args + [None] * 4)[:4]
        return rs.choice(a, shape(size), True if replace is None else replace, p)
    if method == "uniform":
        low, high, size = (args + [None] * 3)[:3]
        return rs.uniform(0.0 if low is None else low, 1.0 if high is None else high, shape(size))
    if method == "standard_normal":
        return rs.standard_normal(shape(args[0]) if args else None)
    if method == "normal":
        loc, scale, size = (args + [None] * 3)[:3]
        return rs.normal(0.0 if loc is None else loc, 1.0 if scale is None else scale, shape(size))
    if method == "seed":
        rs.seed(args[0])
        return None
    raise ValueError(method)


def case(name, seed, calls):
    rs = np.random.RandomState(seed)
    out = []
    for c in calls:
        method, args = c[0], list(c[1:])
        out.append([method, args, plain(run(rs, method, args))])
    return {"name": name, "seed": seed, "calls": out}


cases = []

SEEDS = [0, 1, 42, 1234, 12345, 2**31, 2**32 - 1, [0], [42], [1, 2, 3], [2**32 - 1, 0, 5], list(range(700))]
for s in SEEDS:
    cases.append(case(f"seeding {s if isinstance(s, int) else 'array of ' + str(len(s))}", s, [
        ["random_sample", 8],
        ["random_sample"],
        ["randint", 0, 2**32, 4],
    ]))

cases.append(case("random_sample across several twists", 0, [["random_sample", 1500]]))
cases.append(case("random_sample shapes and rand", 7, [
    ["random_sample", [2, 3]], ["random_sample", 0], ["rand"], ["rand", 3], ["rand", 2, 2], ["random_sample", []],
]))

RANGES = [(0, 1), (0, 2), (0, 3), (0, 7), (0, 10), (0, 100), (0, 2**31), (0, 2**31 + 1), (0, 2**32 - 1),
          (0, 2**32), (0, 2**32 + 1), (0, 2**33), (0, 2**40), (0, 3 * 2**40 + 7), (-5, 5), (-10, -3),
          (-2**31, 2**31), (-2**31, 2**31 - 1), (-(2**52), 2**52), (0, 2**53 - 1), (17, 18), (1000, 100000)]
for seed in (0, 42, 2**32 - 1):
    cases.append(case(f"randint ranges, seed {seed}", seed, [["randint", lo, hi, 40] for lo, hi in RANGES]))
cases.append(case("randint scalars, high omitted, shapes, empty", 3, [
    ["randint", 10], ["randint", 5, None, 6], ["randint", 0, 1], ["randint", -3, 4], ["randint", 2**35],
    ["randint", 0, 10, [2, 5]], ["randint", 0, 10, 0], ["randint", 7, 7, 0], ["randint", 0, 1000, []],
]))
cases.append(case("randint int32", 11, [
    ["randint", 0, 10, 30, "int32"], ["randint", -2**31, 2**31 - 1, 30, "int32"], ["randint", -2**31, 2**31, 5, "int32"],
    ["randint", 5, None, 5, "int32"],
]))

for n in (0, 1, 2, 3, 10, 100, 1000):
    cases.append(case(f"permutation {n}", 1234, [["permutation", n], ["permutation", n]]))
cases.append(case("permutation of arrays and shuffle", 99, [
    ["permutation", ["a", "b", "c", "d", "e"]], ["permutation", [[1, 2], [3, 4], [5, 6]]],
    ["shuffle", list(range(20))], ["shuffle", []], ["shuffle", [1]], ["shuffle", [3.5, -1.25, 0.0, 8.0]],
    ["permutation", -3], ["permutation", 5000],
]))

rng = random.Random(2024)
p10 = [rng.random() for _ in range(10)]
p10 = [x / sum(p10) for x in p10]
p1000 = [rng.random() ** 3 for _ in range(1000)]
p1000 = [x / sum(p1000) for x in p1000]
for seed in (0, 42):
    cases.append(case(f"choice, seed {seed}", seed, [
        ["choice", 10], ["choice", 10, 5], ["choice", 10, [2, 3]], ["choice", ["a", "b", "c"], 7], ["choice", ["x", "y"]],
        ["choice", 5, 3, False], ["choice", 100, 100, False], ["choice", 2**33, 5], ["choice", 10, 0, False],
        ["choice", 10, 5, True, p10], ["choice", 4, 20, True, [0.5, 0.0, 0.5, 0.0]], ["choice", 10, None, True, p10],
        ["choice", 10, 8, True, [0.1] * 10], ["choice", 10, 5, False, p10],
        ["choice", 5, 5, False, [0.96, 0.01, 0.01, 0.01, 0.01]], ["choice", 4, 2, False, [0.0, 0.5, 0.0, 0.5]],
        ["choice", ["p", "q", "r", "s"], [2, 2], False, [0.1, 0.2, 0.3, 0.4]],
        ["choice", 1000, 300, False, p1000], ["choice", 1000, 50, True, p1000], ["choice", 7, None, False],
    ]))

cases.append(case("standard_normal many", 0, [["standard_normal", 3001]]))
cases.append(case("normal family and the cached deviate", 5, [
    ["standard_normal"], ["random_sample"], ["standard_normal"], ["standard_normal"], ["randint", 0, 100, 3],
    ["randn"], ["randn", 2, 3], ["normal", 3.0, 2.0, 7], ["normal"], ["normal", -1.5, 0.25], ["normal", 0.0, 0.0, 2],
    ["seed", 5], ["standard_normal", 2], ["seed", [5, 6]], ["standard_normal", 3],
]))
cases.append(case("uniform", 8, [
    ["uniform", -3.0, 7.0, 50], ["uniform"], ["uniform", 2.0, -2.0, 5], ["uniform", 0.0, 1e300, 3], ["uniform", 1.0, 1.0],
]))

# Random programs: every method interleaved on one stream, with seeds drawn once here.
prog_rng = random.Random(7)
for k in range(12):
    seed = prog_rng.choice([prog_rng.randrange(2**32), [prog_rng.randrange(2**32) for _ in range(prog_rng.randint(1, 5))]])
    calls = []
    for _ in range(25):
        m = prog_rng.choice(["random_sample", "randint", "permutation", "shuffle", "choice", "choice_p", "choice_np",
                             "standard_normal", "normal", "uniform"])
        if m == "random_sample":
            calls.append(["random_sample", prog_rng.randint(1, 5)])
        elif m == "randint":
            hi = prog_rng.choice([2, 3, 10, 255, 256, 1000, 2**31 - 1, 2**32, 2**45])
            calls.append(["randint", -prog_rng.randint(0, 5), hi, prog_rng.randint(1, 6)])
        elif m == "permutation":
            calls.append(["permutation", prog_rng.randint(0, 40)])
        elif m == "shuffle":
            calls.append(["shuffle", list(range(prog_rng.randint(0, 30)))])
        elif m == "choice":
            n = prog_rng.randint(1, 50)
            calls.append(["choice", n, prog_rng.randint(0, n), prog_rng.random() < 0.5])
        elif m in ("choice_p", "choice_np"):
            n = prog_rng.randint(1, 30)
            w = [prog_rng.random() * (prog_rng.random() < 0.8) for _ in range(n)]
            if sum(w) == 0:
                w[0] = 1.0
            p = [x / sum(w) for x in w]
            nz = sum(1 for x in p if x > 0)
            replace = m == "choice_p"
            calls.append(["choice", n, prog_rng.randint(0, 10 if replace else nz), replace, p])
        elif m == "standard_normal":
            calls.append(["standard_normal", prog_rng.randint(1, 3)])
        elif m == "normal":
            calls.append(["normal", prog_rng.uniform(-5, 5), prog_rng.uniform(0, 3), prog_rng.randint(1, 3)])
        else:
            calls.append(["uniform", -1.0, prog_rng.uniform(0, 10), prog_rng.randint(1, 4)])
    cases.append(case(f"random program {k}", seed, calls))

# glibc's log on its own (legacy_gauss calls it): uniform inputs, the close-to-1 branch, and
# sums of squares as the polar method forms them. math.log is the same libm routine numpy uses.
log_rng = random.Random(11)
log_xs = [log_rng.random() for _ in range(1500)] + [0.9375 + log_rng.random() * 0.13 for _ in range(1500)]
log_xs += [log_rng.random() * 2.0 ** log_rng.randint(-300, 300) for _ in range(500)] + [1.0, 0.5, 2.0, 1e-300]
logs = [[x, math.log(x)] for x in log_xs if x > 0]

with open(OUT, "w") as f:
    json.dump({"numpy": np.__version__, "cases": cases, "logs": logs}, f, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {OUT}")
