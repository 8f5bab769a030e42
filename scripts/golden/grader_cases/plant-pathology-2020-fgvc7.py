"""plant-pathology-2020-fgvc7: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

COLS = ["image_id", "healthy", "multiple_diseases", "rust", "scab"]
CLASSES = COLS[1:]


def score(g, name):
    """Mean per-class ROC AUC following the grader's steps; None where any step fails."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or set(s.columns) != set(COLS):
        return None
    s = s.sort_values("image_id").reset_index(drop=True)
    a = a.sort_values("image_id").reset_index(drop=True)
    if not (s["image_id"] == a["image_id"]).all():
        return None
    try:
        return float(np.mean([roc_auc_score(a[c].to_numpy(), s[c].to_numpy()) for c in CLASSES]))
    except (ValueError, TypeError):
        return None


# plant-pathology-2020-fgvc7: mean column-wise ROC AUC, exact column set, no range check on scores.
def generate(g):
    n = 240
    ids = [f"Test_{i}" for i in range(n)]
    label = g.rng.choice(4, n, p=[0.28, 0.06, 0.34, 0.32])
    truth = np.eye(4, dtype=int)[label]
    answers = pd.DataFrame(truth, columns=CLASSES)
    answers.insert(0, "image_id", ids)
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(1 - g.rng.uniform(0, 0.55, 1317) ** 3, 5), reverse=True))

    def frame(pred, order=None):
        df = pd.DataFrame(pred, columns=CLASSES)
        df.insert(0, "image_id", ids)
        return df if order is None else df.iloc[order]

    noisy = truth * 0.5 + g.rng.rand(n, 4) * 0.8
    noisy = np.round(noisy / noisy.sum(axis=1, keepdims=True), 4)
    valid = {
        "perfect": frame(truth.astype(float)),
        "sample": frame(np.full((n, 4), 0.25)),
        "noisy": frame(noisy),
        # Rows shuffled and columns in another order: both are matched by name.
        "shuffled": frame(noisy, g.rng.permutation(n))[["image_id", "scab", "rust", "healthy", "multiple_diseases"]],
        # AUC only ranks scores and upstream never checks their range: logits are fine.
        "logits": frame(np.round(truth * 2.0 + g.rng.randn(n, 4), 3)),
        "ties": frame(np.round(noisy, 1)),
    }
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)

    base = frame(noisy)
    invalid = {
        "missing_column": base.drop(columns=["scab"]),
        "extra_column": base.assign(PatientID=1),
        "missing_id": base.iloc[1:],
        "extra_id": pd.concat([base, base.iloc[[0]].assign(image_id="Test_9999")]),
        "duplicate_id": pd.concat([base.iloc[:-1], base.iloc[[0]]]),
        "wrong_id": base.assign(image_id=["Train_0"] + ids[1:]),
        "nan": base.assign(rust=[np.nan] + list(noisy[1:, 2])),
        "text": base.assign(healthy=["high"] + list(noisy[1:, 0])),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(g, name) is None, name
        g.record(name, None)
