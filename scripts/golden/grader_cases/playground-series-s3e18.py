"""playground-series-s3e18: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


def _macro_auc(a, s):
    # One binary ROC AUC per target column, then their plain mean.
    return float(np.mean([roc_auc_score(a[c].to_numpy(), s[c].to_numpy()) for c in ("EC1", "EC2")]))


# playground-series-s3e18: mean ROC AUC over EC1 and EC2, rows matched by integer id; no range check.
def generate(g):
    n = 400
    ids = g.rng.choice(np.arange(14838), n, replace=False)
    ec = {f"EC{k}": (g.rng.rand(n) < p).astype(int) for k, p in zip(range(1, 7), [0.67, 0.8, 0.3, 0.25, 0.15, 0.05])}
    answers = pd.DataFrame({"id": ids, "BertzCT": np.round(g.rng.rand(n) * 900, 4), "Chi1": np.round(g.rng.rand(n) * 20, 6), **ec})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.55, 0.6598, 300), 5), reverse=True))
    t1, t2 = ec["EC1"], ec["EC2"]
    noisy1 = np.round(np.clip(t1 * 0.2 + g.rng.rand(n) * 0.8, 0, 1), 4)
    noisy2 = np.round(np.clip(t2 * 0.1 + g.rng.rand(n) * 0.9, 0, 1), 4)
    cases = {
        "perfect": (t1.astype(float), t2.astype(float)),
        "sample_like": (np.full(n, 0.5), np.full(n, 0.5)),
        "noisy": (noisy1, noisy2),
        "ties": (np.round(noisy1, 1), np.round(noisy2, 1)),
        # No range check upstream: any finite scores rank.
        "out_of_range": (noisy1 * 7 - 3, noisy2 * 100),
    }
    for name, (p1, p2) in cases.items():
        g.write(pd.DataFrame({"id": ids, "EC1": p1, "EC2": p2}).sample(frac=1, random_state=7), f"{name}.csv")
        a = g.read("answers.csv").sort_values("id")
        s = g.read(f"{name}.csv").sort_values("id")
        assert list(a.id) == list(s.id)
        g.record(name, _macro_auc(a, s))
    # Extra EC columns are ignored.
    g.write(pd.DataFrame({"id": ids, "EC1": noisy1, "EC2": noisy2, "EC3": 0.5}), "extra_columns.csv")
    g.record("extra_columns", g.expected["noisy"])

    def bad(name, df):
        g.write(df, f"{name}.csv")
        g.record(name, None)

    bad("missing_ec2", pd.DataFrame({"id": ids, "EC1": noisy1}))
    bad("missing_id_column", pd.DataFrame({"EC1": noisy1, "EC2": noisy2}))
    bad("missing_row", pd.DataFrame({"id": ids, "EC1": noisy1, "EC2": noisy2}).iloc[1:])
    other = ids.copy()
    other[3] = 99999
    bad("unknown_id", pd.DataFrame({"id": other, "EC1": noisy1, "EC2": noisy2}))
    dup = ids.copy()
    dup[3] = dup[4]
    bad("duplicate_id", pd.DataFrame({"id": dup, "EC1": noisy1, "EC2": noisy2}))
    blank = noisy2.copy()
    blank[8] = np.nan
    bad("nan_score", pd.DataFrame({"id": ids, "EC1": noisy1, "EC2": blank}))
    text = noisy1.astype(object)
    text[2] = "likely"
    bad("text_score", pd.DataFrame({"id": ids, "EC1": text, "EC2": noisy2}))
