#!/usr/bin/python3
"""Golden values for Python's round(x, 5): writes test/golden/rounding.json.

Run with /usr/bin/python3. Inputs include exact binary ties (k/64, k/128 ...), values just
around ties, negatives, large and tiny magnitudes.
"""
import json
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "rounding.json")
rng = random.Random(5)
xs = [0.0, -0.0, 0.5, 1.5, 2.675, 0.015625, -0.015625, 0.046875, 0.999995, 9.999995, 99999.999995, 1e-7, -1e-7,
      123456.123455, 1e14 + 0.5, 1e15, 1e16, 1.7976931348623157e308, 5e-324, 0.1 + 0.2, 1 / 3, -2 / 3]
xs += [k / 64 for k in range(-130, 130)]
xs += [k / 2 ** 20 for k in rng.sample(range(-(2 ** 24), 2 ** 24), 300)]
xs += [rng.uniform(-1000, 1000) for _ in range(300)]
xs += [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 14) for _ in range(300)]
cases = [[repr(x), repr(round(x, 5))] for x in xs]
with open(OUT, "w") as f:
    json.dump(cases, f, indent=0)
    f.write("\n")
