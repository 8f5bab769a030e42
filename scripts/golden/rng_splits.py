#!/usr/bin/python3
"""Golden row splits from scikit-learn 1.2 and pandas 1.5: writes test/golden/rng-splits.json.

Run with Debian's /usr/bin/python3 (numpy 1.24, scikit-learn 1.2, pandas 1.5). Covers
train_test_split with and without stratify, sklearn's _approximate_mode tie-breaking, KFold
and DataFrame.sample; calls that raise are recorded as {"error": ...}. Sizes are never whole
floats (1.0), since JSON would hand those to JS as integers, which mean row counts there.
"""
import json
import os
import random

import numpy as np
import pandas as pd
import sklearn
from sklearn.model_selection import KFold, train_test_split
from sklearn.utils import _approximate_mode

assert np.__version__.startswith("1.24") and sklearn.__version__.startswith("1.2") and pd.__version__.startswith("1.5")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "rng-splits.json")
gen = random.Random(20240601)


def attempt(fn):
    try:
        return fn()
    except ValueError as e:
        return {"error": str(e)}


def tts(n, kwargs, stratify=None):
    def go():
        tr, te = train_test_split(np.arange(n), stratify=stratify, **kwargs)
        return {"train": tr.tolist(), "test": te.tolist()}

    return attempt(go)


def labels_from_counts(counts, names):
    ys = [names[i] for i, c in enumerate(counts) for _ in range(c)]
    gen.shuffle(ys)
    return ys


split_cases = []
sizes = [None, 0.1, 0.2, 0.25, 0.33, 0.5, 1, 3, 7, 50]
for n in [1, 2, 5, 10, 100, 1000]:
    seeds = [0, 1, 42, 123, 2023, 2 ** 32 - 1] if n < 1000 else [0, 42]
    for seed in seeds:
        for ts in sizes:
            kwargs = {"random_state": seed}
            if ts is not None:
                kwargs["test_size"] = ts
            split_cases.append({"n": n, "kwargs": kwargs, "expected": tts(n, kwargs)})
        for kwargs in [{"train_size": 0.6}, {"train_size": 0.5, "test_size": 0.3}, {"train_size": 4, "test_size": 2},
                       {"train_size": 0.7, "test_size": 0.4}, {"test_size": 0.0}, {"test_size": n}]:
            kwargs = {**kwargs, "random_state": seed}
            split_cases.append({"n": n, "kwargs": kwargs, "expected": tts(n, kwargs)})
for n, ts in [(10, 0.3), (100, 0.25), (7, 2)]:
    kwargs = {"test_size": ts, "shuffle": False}
    split_cases.append({"n": n, "kwargs": kwargs, "expected": tts(n, kwargs)})

strat_cases = []
label_sets = [
    ("binary balanced", [50, 50], [0, 1]),
    ("binary unbalanced", [90, 10], [0, 1]),
    ("binary tiny", [3, 2], [1, 0]),
    ("binary 1000", [800, 200], ["neg", "pos"]),
    ("four unbalanced", [50, 30, 15, 5], ["cat", "dog", "bird", "fish"]),
    ("seven unbalanced", [40, 17, 13, 13, 7, 5, 2], [3, 1, 4, 15, 9, 2, 6]),
    ("three tied", [4, 4, 4], ["b", "a", "c"]),
    ("five tied", [5, 5, 5, 5, 5], [10, 20, 30, 40, 50]),
    ("singleton class", [10, 1], ["x", "y"]),
    ("unicode", [6, 6, 8], ["é", "z", "Ω"]),
]
for name, counts, names in label_sets:
    y = labels_from_counts(counts, names)
    for seed in [0, 1, 42, 2023]:
        for ts in [None, 0.1, 0.2, 0.25, 0.33, 3, 9]:
            kwargs = {"random_state": seed}
            if ts is not None:
                kwargs["test_size"] = ts
            strat_cases.append({"name": name, "labels": y, "kwargs": kwargs, "expected": tts(len(y), kwargs, y)})
        kwargs = {"random_state": seed, "train_size": 0.5, "test_size": 0.25}
        strat_cases.append({"name": name, "labels": y, "kwargs": kwargs, "expected": tts(len(y), kwargs, y)})

mode_cases = []
for counts, draws in [([3, 3, 3], 4), ([3, 3, 3], 5), ([5, 5, 5, 5, 5], 12), ([10, 7, 3], 6), ([2, 2], 1), ([1, 1, 1, 1], 2),
                      ([50, 30, 15, 5], 25), ([7, 7, 7, 7, 7, 7, 7], 10), ([100], 33)]:
    for seed in [0, 1, 42]:
        rng = np.random.RandomState(seed)
        first = _approximate_mode(np.array(counts), draws, rng).tolist()
        after = rng.randint(0, 2 ** 31 - 1)
        mode_cases.append({"counts": counts, "draws": draws, "seed": seed, "expected": first, "next": int(after)})

kfold_cases = []
for n in [2, 5, 10, 11, 100, 1000]:
    for k in [2, 3, 5, 10]:
        for shuffle, seed in [(False, None), (True, 0), (True, 42), (True, 2023)]:
            if n == 1000 and seed not in (None, 42):
                continue

            def go():
                kf = KFold(n_splits=k, shuffle=shuffle, random_state=seed)
                return [{"train": tr.tolist(), "test": te.tolist()} for tr, te in kf.split(np.arange(n))]

            kfold_cases.append({"n": n, "k": k, "shuffle": shuffle, "seed": seed, "expected": attempt(go)})

sample_cases = []
for rows in [0, 1, 2, 5, 10, 100, 1000]:
    df = pd.DataFrame({"a": np.arange(rows)})
    seeds = [0, 1, 42, 2023] if rows < 1000 else [42]
    for seed in seeds:
        specs = [{}, {"n": 0}, {"n": 1}, {"n": 3}, {"n": rows}, {"n": rows + 1}, {"frac": 0.1}, {"frac": 0.2},
                 {"frac": 0.25}, {"frac": 0.5}, {"frac": 0.33}, {"frac": 0.7}, {"frac": 1.5, "replace": True},
                 {"n": 4, "replace": True}, {"frac": 1.5}]
        for spec in specs:
            kwargs = {**spec, "random_state": seed}
            expected = attempt(lambda: df.sample(**kwargs)["a"].tolist())
            sample_cases.append({"rows": rows, "kwargs": kwargs, "expected": expected})

with open(OUT, "w") as f:
    json.dump({"train_test_split": split_cases, "stratified": strat_cases, "approximate_mode": mode_cases,
               "kfold": kfold_cases, "sample": sample_cases}, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
