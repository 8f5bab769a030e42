"""us-patent-phrase-to-phrase-matching: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def pearson_np(x, y):
    """Pearson's r written out: centred dot product over the product of norms."""
    x = np.asarray(x, dtype=float) - np.mean(x)
    y = np.asarray(y, dtype=float) - np.mean(y)
    return float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y)))


def score(name, g):
    """Rows matched by sorting both sides on id, then requiring equal ids element-wise."""
    a = g.read("answers.csv").sort_values("id")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or not {"id", "score"} <= set(s.columns):
        return None
    s = s.sort_values("id")
    if (s.id.values != a.id.values).any():
        return None
    if s.score.dtype == object:
        return None
    return pearson_np(a.score.to_numpy(), s.score.to_numpy())


# us-patent-phrase-to-phrase-matching: Pearson r of similarity scores (0, 0.25, ..., 1), ids sorted and compared.
def generate(g):
    n = 200
    ids = g.hex_ids(n, 16)
    truth = g.rng.choice([0, 0.25, 0.5, 0.75, 1.0], n, p=[0.2, 0.32, 0.33, 0.12, 0.03])
    g.write(pd.DataFrame({"id": ids, "score": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.6, 0.8772, 1880), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "noisy": np.clip(truth + g.rng.normal(0, 0.25, n), 0, 1),
        "very_noisy": g.rng.uniform(0, 1, n) + 0.2 * truth,
        "anti": 1 - truth + g.rng.normal(0, 0.1, n),
        "out_of_range": truth * 100 - 7 + g.rng.normal(0, 30, n),
        "integer_buckets": np.round(truth * 4).astype(int),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "score": pred}).sample(frac=1, random_state=4), f"{name}.csv")
        g.record(name, score(name, g))
    noisy = cases["noisy"]
    invalid = {
        "missing_id": pd.DataFrame({"id": ids[1:], "score": noisy[1:]}),
        "extra_id": pd.DataFrame({"id": ids + ["0" * 16], "score": list(noisy) + [0.5]}),
        "duplicate_id": pd.DataFrame({"id": [ids[1]] + ids[1:], "score": noisy}),
        "wrong_id": pd.DataFrame({"id": ["f" * 16] + ids[1:], "score": noisy}),
        "missing_column": pd.DataFrame({"id": ids, "prediction": noisy}),
        "text_score": pd.DataFrame({"id": ids, "score": ["%.2f" % v for v in noisy[:-1]] + ["high"]}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
    # A gap or a constant column makes r NaN, which scipy >= 1.14 returns (1.13 and older raised on
    # NaN input): a valid submission with a NaN score.
    gap = noisy.copy()
    gap[7] = np.nan
    for name, pred in {"gap": gap, "constant": np.full(n, 0.5)}.items():
        g.write(pd.DataFrame({"id": ids, "score": pred}).sample(frac=1, random_state=4), f"{name}.csv")
        with np.errstate(invalid="ignore", divide="ignore"):
            r = score(name, g)
        assert np.isnan(r), name
        g.record(name, r)
