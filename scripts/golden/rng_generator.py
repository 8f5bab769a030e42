#!/usr/bin/python3
"""Golden values for numpy's default_rng (SeedSequence + PCG64 + Generator): writes
test/golden/rng-generator.json.

Run with /usr/bin/python3 (Debian's numpy 1.24). 64-bit integers are written as decimal
strings so JSON's doubles cannot round them; floats as float.hex() strings so comparisons are
bit-exact. Each case also records the bit generator state afterwards, which catches a port that
gets the values right but consumes a different number of draws.
"""
import hashlib
import json
import os

import numpy as np
from numpy.random import PCG64, SeedSequence

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "rng-generator.json")

SEEDS = [0, 1, 42, 12345, 2**32 - 1, 2**32, 2**64 + 7, 2**128 - 1, [], [0], [1, 2, 3], [2**40, 5, 6, 7, 8, 9]]


def enc_seed(s):
    return [str(v) for v in s] if isinstance(s, list) else str(s)


def state_of(bg):
    st = bg.state
    return {
        "state": str(st["state"]["state"]),
        "inc": str(st["state"]["inc"]),
        "has_uint32": bool(st["has_uint32"]),
        "uinteger": int(st["uinteger"]),
    }


def ints(xs):
    return [str(int(v)) for v in np.asarray(xs).ravel()]


def floats(xs):
    return [float(v).hex() for v in np.asarray(xs, dtype=np.float64).ravel()]


out = {"numpy": np.__version__}

out["seed_sequence"] = [
    {
        "entropy": enc_seed(s),
        "pool": [int(v) for v in SeedSequence(s).pool],
        "u32": [int(v) for v in SeedSequence(s).generate_state(9, np.uint32)],
        "u64": ints(SeedSequence(s).generate_state(5, np.uint64)),
    }
    for s in SEEDS
]
out["spawn"] = [
    {"entropy": "7", "spawn_key": [3], "u32": [int(v) for v in SeedSequence(7, spawn_key=(3,)).generate_state(4)]},
    {"entropy": "7", "spawn_key": [1, 2], "u32": [int(v) for v in SeedSequence(7, spawn_key=(1, 2)).generate_state(4)]},
]

pcg = []
for s in SEEDS:
    bg = PCG64(s)
    init = state_of(bg)
    n64 = ints(bg.random_raw(20))
    pcg.append({"seed": enc_seed(s), "init": init, "next64": n64})
out["pcg64"] = pcg

# next32 / nextDouble through the ctypes interface: 11 draws so the last half stays buffered.
bg = PCG64(42)
ct = bg.ctypes
out["next32"] = {"seed": "42", "values": [str(ct.next_uint32(ct.state)) for _ in range(11)], "state": state_of(bg)}
bg = PCG64(42)
ct = bg.ctypes
out["next_double"] = {"seed": "42", "values": [float(ct.next_double(ct.state)).hex() for _ in range(10)]}

rand = []
for s in [0, 7, 2024]:
    g = np.random.default_rng(s)
    one = g.random()
    many = g.random(25)
    shaped = g.random((2, 3))
    rand.append({"seed": s, "one": float(one).hex(), "many": floats(many), "shaped": floats(shaped), "state": state_of(g.bit_generator)})
out["random"] = rand

integer_cases = []
RANGES = [
    (1, None, False), (2, None, False), (3, None, False), (10, None, False), (100, None, False),
    (0, 1, True), (0, 0, True), (5, 6, False), (-10, 10, False), (-10, 10, True), (-(2**31), 2**31, False),
    (0, 2**32 - 1, False), (0, 2**32, False), (0, 2**32, True), (0, 2**32 + 1, False), (1, 2**32 + 2, False),
    (0, 2**40, False), (-(2**40), 2**40, False), (0, 2**53, False), (0, 3 * 2**52 + 1, False),
    (0, 2**62 + 12345, False), (-(2**63), 2**63 - 1, False), (-(2**63), 2**63 - 1, True),
    (0, 2**63 - 1, True), (-(2**62), 2**62 + 3, False), (0, 6, False), (0, 1000, True),
    (0, 2**31 + 1, False), (0, 3 * 2**30, False), (-(2**53 - 1), 2**53 - 1, False),
]
for s in [0, 99]:
    for low, high, endpoint in RANGES:
        g = np.random.default_rng(s)
        one = g.integers(low, high, endpoint=endpoint)
        many = g.integers(low, high, size=37, endpoint=endpoint)
        integer_cases.append({
            "seed": s, "low": str(low), "high": None if high is None else str(high), "endpoint": endpoint,
            "one": str(int(one)), "many": ints(many), "state": state_of(g.bit_generator),
        })
out["integers"] = integer_cases

# Interleaving: a 32-bit integers draw leaves a buffered half that the next 32-bit draw uses.
g = np.random.default_rng(5)
seq = []
seq.append(["int", "10", str(int(g.integers(10)))])
seq.append(["random", g.random().hex()])
seq.append(["int", "10", str(int(g.integers(10)))])
seq.append(["int", "1099511627776", str(int(g.integers(2**40)))])
seq.append(["int", "7", str(int(g.integers(7)))])
seq.append(["int", "7", str(int(g.integers(7)))])
out["interleaved"] = {"seed": 5, "steps": seq, "state": state_of(g.bit_generator)}

perms = []
NS = list(range(0, 21)) + [31, 32, 33, 50, 99, 100, 255, 256, 257, 500, 777, 1000]
for s in [0, 1, 123]:
    g = np.random.default_rng(s)
    for n in NS:
        perms.append({"seed": s, "n": n, "perm": [int(v) for v in g.permutation(n)]})
    perms.append({"seed": s, "state": state_of(g.bit_generator)})
out["permutation"] = perms

g = np.random.default_rng(2023)
big = g.permutation(1_000_000)
out["permutation_1e6"] = {
    "seed": 2023,
    "head": [int(v) for v in big[:20]],
    "tail": [int(v) for v in big[-20:]],
    "sha256_int64le": hashlib.sha256(big.astype("<i8").tobytes()).hexdigest(),
    "state": state_of(g.bit_generator),
}

shuffles = []
for s in [3, 4]:
    g = np.random.default_rng(s)
    xs = list("abcdefghijklmnopqrstuvwxyz")
    g.shuffle(xs)
    arr = np.arange(100, 150)
    g.shuffle(arr)
    perm_arr = g.permutation(["x", "y", "z", "w", "v"])
    shuffles.append({"seed": s, "letters": xs, "arr": [int(v) for v in arr], "perm_list": [str(v) for v in perm_arr], "state": state_of(g.bit_generator)})
out["shuffle"] = shuffles

choices = []
CHOICES = [
    dict(a=10), dict(a=10, size=15), dict(a=5, size=(2, 3)), dict(a=list("abcdefg"), size=12),
    dict(a=list("abcdefg")),
    dict(a=100, size=10, replace=False), dict(a=100, size=100, replace=False), dict(a=10, size=0, replace=False),
    dict(a=100, size=10, replace=False, shuffle=False), dict(a=1, size=1, replace=False),
    dict(a=20000, size=300, replace=False), dict(a=20000, size=400, replace=False),
    dict(a=20000, size=401, replace=False), dict(a=20000, size=500, replace=False, shuffle=False),
    dict(a=20000, size=1000, replace=False, shuffle=False), dict(a=20000, size=1001, replace=False, shuffle=False),
    dict(a=20000, size=20000, replace=False), dict(a=10001, size=10001, replace=False),
    dict(a=10000, size=10000, replace=False), dict(a=50000, size=49000, replace=False),
    dict(a=5, size=20, p=[0.1, 0.2, 0.3, 0.4, 0.0]), dict(a=5, p=[0.5, 0.5, 0.0, 0.0, 0.0]),
    dict(a=list("vwxyz"), size=4, replace=False, p=[0.1, 0.2, 0.3, 0.35, 0.05]),
    dict(a=6, size=3, replace=False, p=[0.9, 0.02, 0.02, 0.02, 0.02, 0.02]),
    dict(a=3, size=3, replace=False, p=[0.98, 0.01, 0.01]),
    dict(a=10, size=10, p=[0.1] * 10),
]
for s in [0, 11]:
    for kw in CHOICES:
        g = np.random.default_rng(s)
        r = g.choice(**kw)
        res = [str(v) for v in np.asarray(r).ravel()]
        case = {"seed": s, "a": kw["a"], "size": kw.get("size"), "replace": kw.get("replace", True),
                "p": kw.get("p"), "shuffle": kw.get("shuffle", True), "scalar": np.ndim(r) == 0,
                "state": state_of(g.bit_generator)}
        if len(res) > 200:
            case["sha256"] = hashlib.sha256(",".join(res).encode()).hexdigest()
            case["head"] = res[:10]
        else:
            case["result"] = res
        choices.append(case)
out["choice"] = choices

normals = []
for s in [0, 8]:
    g = np.random.default_rng(s)
    one = g.standard_normal()
    many = g.standard_normal(200_000)  # ~50 draws hit the tail branch (log1p) at this size
    hexes = [float(v).hex() for v in many]
    normals.append({"seed": s, "one": float(one).hex(), "head": hexes[:20], "n": len(hexes),
                    "sha256": hashlib.sha256(",".join(hexes).encode()).hexdigest(),
                    "beyond_r": int(np.sum(np.abs(many) > 3.6541528853610088)), "state": state_of(g.bit_generator)})
out["standard_normal"] = normals

with open(OUT, "w") as f:
    json.dump(out, f)
    f.write("\n")
