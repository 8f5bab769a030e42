"""multi-modal-gesture-recognition: answers, leaderboard and submissions, scored with a plain-Python edit distance."""
import numpy as np
import pandas as pd


def lev(a, b):
    """Unit-cost edit distance between two lists."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def symbol(v):
    """How python-Levenshtein (rapidfuzz) sees a list item: its Python hash, with -1 kept apart."""
    return "minus-one" if v == -1 else hash(v)


def score(name, g):
    """Upstream's steps: length, columns, both sorted by Id and compared, int() parse, sum of distances / true gestures."""
    s = g.read(f"{name}.csv")
    a = g.read("answers.csv")
    if len(s) != len(a) or "Id" not in s.columns or "Sequence" not in s.columns:
        return None
    s = s.sort_values("Id")
    a = a.sort_values("Id")
    if (s["Id"].values != a["Id"].values).any():
        return None
    truth = [[int(t) for t in str(x).split()] for x in a["Sequence"]]
    try:
        pred = [[int(t) for t in str(x).split()] for x in s["Sequence"]]
    except ValueError:
        return None
    dist = sum(lev([symbol(v) for v in t], [symbol(v) for v in p]) for t, p in zip(truth, pred))
    return dist / sum(len(t) for t in truth)


def fmt(seq):
    return " ".join(str(v) for v in seq)


# multi-modal-gesture-recognition: summed Levenshtein over gesture lists / total true gestures.
def generate(g):
    n = 120
    rng = g.rng
    ids = ["%04d" % i for i in sorted(rng.choice(np.arange(300, 1000), n, replace=False))]
    truth = [list(rng.randint(1, 21, rng.randint(8, 13))) for _ in range(n)]
    g.write(pd.DataFrame({"Id": ids, "Sequence": [fmt(t) for t in truth]}), "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.12, 0.9, 150), 5)))

    def noisy(t):
        out = []
        for v in t:
            u = rng.rand()
            if u < 0.1:
                continue
            out.append(int(rng.randint(1, 21)) if u < 0.25 else int(v))
            if u > 0.93:
                out.append(int(rng.randint(1, 21)))
        return out

    written = []
    for t in truth:
        toks = [str(v) for v in t]
        toks[0] = "+0" + toks[0]
        toks[1] = "%d_%d" % divmod(t[1], 10) if t[1] >= 10 else toks[1]
        toks[2] = "".join(chr(0x0660 + int(c)) for c in toks[2])  # Arabic-Indic digits: int() reads them
        written.append("  ".join(toks))
    hashed = [[v + (1 << 61) - 1 if k == 0 else v for k, v in enumerate(t)] for t in truth]
    negatives = [[-v if k % 3 == 0 else v for k, v in enumerate(t)] for t in truth]
    cases = {
        "perfect": [fmt(t) for t in truth],
        "random_predictions": [fmt(rng.randint(1, 21, rng.randint(1, 15))) for _ in range(n)],
        "partly_right": [fmt(noisy(t)) for t in truth],
        "int_spellings": written,
        "hash_alias": [fmt(t) for t in hashed],
        "negatives": [fmt(t) for t in negatives],
        "minus_one": [fmt([-1, -2] + t[2:]) for t in truth],
        "single_gesture": [int(t[0]) for t in truth],
        "reversed": [fmt(t[::-1]) for t in truth],
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"Id": ids, "Sequence": pred}).sample(frac=1, random_state=5), f"{name}.csv")
        g.record(name, score(name, g))
    seqs = [fmt(t) for t in truth]
    invalid = {
        "missing_id": pd.DataFrame({"Id": ids[1:], "Sequence": seqs[1:]}),
        "extra_id": pd.DataFrame({"Id": ids + ["0001"], "Sequence": seqs + ["1 2"]}),
        "duplicate_id": pd.DataFrame({"Id": [ids[1]] + ids[1:], "Sequence": seqs}),
        "missing_column": pd.DataFrame({"Id": ids, "Gestures": seqs}),
        "empty_sequence": pd.DataFrame({"Id": ids, "Sequence": [None if i == 3 else s for i, s in enumerate(seqs)]}),
        "single_with_gap": pd.DataFrame({"Id": ids, "Sequence": [None if i == 3 else t[0] for i, t in enumerate(truth)]}),
        "float_tokens": pd.DataFrame({"Id": ids, "Sequence": [s.replace(" ", ".0 ", 1) for s in seqs]}),
        "comma_separated": pd.DataFrame({"Id": ids, "Sequence": [s.replace(" ", ",") for s in seqs]}),
        "double_underscore": pd.DataFrame({"Id": ids, "Sequence": ["1__0 " + s for s in seqs]}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
