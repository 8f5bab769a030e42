"""statoil-iceberg-classifier-challenge: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def score(g, name):
    """Upstream's steps: both columns, equal id sets, element-wise [0, 1], sort by id, binary log
    loss (whose length check refuses repeated ids)."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if "id" not in s.columns or "is_iceberg" not in s.columns or set(s["id"]) != set(a["id"]):
        return None
    try:
        p = s["is_iceberg"].to_numpy(dtype=float)
    except ValueError:
        return None
    if not ((p >= 0) & (p <= 1)).all() or len(s) != len(a):
        return None
    s = s.sort_values("id")
    a = a.sort_values("id")
    y = a["is_iceberg"].to_numpy()
    q = s["is_iceberg"].to_numpy(dtype=float)
    return g.log_loss_np(np.stack([1 - y, y], axis=1), np.stack([1 - q, q], axis=1))


# statoil-iceberg-classifier-challenge: binary log loss of is_iceberg, ids compared as sets.
def generate(g):
    n = 321
    ids = g.hex_ids(n, 8)
    truth = (g.rng.rand(n) < 0.47).astype(int)
    g.write(pd.DataFrame({"id": ids, "is_iceberg": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.0821, 0.35, 3330), 5)))
    noisy = np.clip(np.where(truth == 1, 0.75, 0.25) + g.rng.normal(0, 0.2, n), 0, 1)
    subs = {
        "half": pd.DataFrame({"id": ids, "is_iceberg": 0.5}),
        "perfect": pd.DataFrame({"id": ids, "is_iceberg": truth}),
        "noisy_shuffled": pd.DataFrame({"id": ids, "is_iceberg": noisy}).sample(frac=1, random_state=8),
        # Hard 0/1 answers with 5% wrong: log(eps) penalties.
        "hard_some_wrong": pd.DataFrame({"id": ids, "is_iceberg": np.where(g.rng.rand(n) < 0.05, 1 - truth, truth)}),
        "extra_column": pd.DataFrame({"is_iceberg": noisy, "id": ids, "inc_angle": 38.5}),
        "missing_column": pd.DataFrame({"id": ids}),
        "missing_id": pd.DataFrame({"id": ids[1:], "is_iceberg": noisy[1:]}),
        "extra_id": pd.DataFrame({"id": ids + ["ffffffff"], "is_iceberg": np.r_[noisy, 0.5]}),
        # Same id set, one id twice: the lengths differ.
        "duplicate_id": pd.DataFrame({"id": ids + [ids[0]], "is_iceberg": np.r_[noisy, 0.5]}),
        "above_one": pd.DataFrame({"id": ids, "is_iceberg": np.r_[1.01, noisy[1:]]}),
        "nan_value": pd.DataFrame({"id": ids, "is_iceberg": np.r_[noisy[:-1], np.nan]}),
        "text_value": pd.DataFrame({"id": ids, "is_iceberg": ["iceberg"] + list(noisy[1:])}),
    }
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    assert g.expected["half"] == 0.69315 and g.expected["perfect"] < 1e-5
    for name in ["missing_column", "missing_id", "extra_id", "duplicate_id", "above_one", "nan_value", "text_value"]:
        assert g.expected[name] is None, name
