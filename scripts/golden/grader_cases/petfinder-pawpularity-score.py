"""petfinder-pawpularity-score: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def score(g, name):
    """Upstream's steps: both columns, every prediction in [1, 100] (element-wise), ids equal
    after sorting, then RMSE."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if "Id" not in s.columns or "Pawpularity" not in s.columns:
        return None
    try:
        p = s["Pawpularity"].to_numpy(dtype=float)
    except ValueError:
        return None
    if not ((p >= 1) & (p <= 100)).all() or len(s) != len(a):
        return None
    s = s.sort_values("Id")
    a = a.sort_values("Id")
    if (s["Id"].to_numpy() != a["Id"].to_numpy()).any():
        return None
    d = a["Pawpularity"].to_numpy(dtype=float) - s["Pawpularity"].to_numpy(dtype=float)
    return np.sqrt(np.mean(d * d))


# petfinder-pawpularity-score: RMSE of Pawpularity (1-100), rows matched by Id.
def generate(g):
    n = 180
    ids = g.hex_ids(n, 32)
    truth = np.clip(np.round(g.rng.gamma(3.5, 11, n)), 1, 100).astype(int)
    answers = pd.DataFrame({"Id": ids, **{f: g.rng.randint(0, 2, n) for f in ["Focus", "Eyes", "Face", "Near"]}, "Pawpularity": truth})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(16.82, 19.5, 3537), 5)))
    noisy = np.clip(truth + g.rng.normal(0, 12, n), 1, 100)
    subs = {
        "constant_mean": pd.DataFrame({"Id": ids, "Pawpularity": 38.0}),
        "perfect": pd.DataFrame({"Id": ids, "Pawpularity": truth}),
        "noisy_shuffled": pd.DataFrame({"Id": ids, "Pawpularity": noisy}).sample(frac=1, random_state=9),
        # The bounds themselves are allowed.
        "bounds": pd.DataFrame({"Id": ids, "Pawpularity": np.where(truth > 50, 100, 1)}),
        "below_one": pd.DataFrame({"Id": ids, "Pawpularity": np.r_[0.5, noisy[1:]]}),
        "above_hundred": pd.DataFrame({"Id": ids, "Pawpularity": np.r_[noisy[:-1], 100.5]}),
        "nan_value": pd.DataFrame({"Id": ids, "Pawpularity": np.r_[noisy[:5], np.nan, noisy[6:]]}),
        "text_value": pd.DataFrame({"Id": ids, "Pawpularity": ["cute"] + list(noisy[1:])}),
        "missing_column": pd.DataFrame({"Id": ids, "Score": noisy}),
        "missing_id": pd.DataFrame({"Id": ids[1:], "Pawpularity": noisy[1:]}),
        "wrong_id": pd.DataFrame({"Id": ids[:-1] + ["0" * 32], "Pawpularity": noisy}),
        "duplicate_id": pd.DataFrame({"Id": [ids[1]] + ids[1:], "Pawpularity": noisy}),
    }
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    assert g.expected["perfect"] == 0
    for name in ["below_one", "above_hundred", "nan_value", "text_value", "missing_column", "missing_id", "wrong_id", "duplicate_id"]:
        assert g.expected[name] is None, name
