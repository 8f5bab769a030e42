"""siim-isic-melanoma-classification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

ID, TARGET = "image_name", "target"


def score(g, name):
    """ROC AUC after the grader's checks (columns, row count, numeric, in [0, 1], ids); None where one fails."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if ID not in s.columns or TARGET not in s.columns or len(s) != len(a):
        return None
    try:
        pd.to_numeric(s[TARGET])
    except ValueError:
        return None
    if s[TARGET].min() < 0 or s[TARGET].max() > 1:
        return None
    s, a = s.sort_values(ID), a.sort_values(ID)
    if (s[ID].values != a[ID].values).any():
        return None
    try:
        return roc_auc_score(a[TARGET].to_numpy(), s[TARGET].to_numpy())
    except ValueError:
        return None


# siim-isic-melanoma-classification: ROC AUC, rows matched by image_name, probabilities in [0, 1].
def generate(g):
    n = 400
    ids = ["ISIC_%07d" % i for i in sorted(g.rng.choice(9999999, n, replace=False))]
    # Melanoma is rare (about 2% of the images; 5% here), so few positives decide the AUC.
    truth = (g.rng.rand(n) < 0.05).astype(int)
    g.write(pd.DataFrame({ID: ids, TARGET: truth}), "answers.csv")
    g.leaderboard(sorted(np.round(1 - g.rng.uniform(0.003, 0.3, 1000) ** 1.5, 5), reverse=True))
    noisy = np.round(np.clip(truth * 0.3 + g.rng.rand(n) * 0.7, 0, 1), 4)
    frame = lambda pred: pd.DataFrame({ID: ids, TARGET: pred})  # noqa: E731
    valid = {
        "perfect": frame(truth),
        "sample": frame(np.zeros(n, dtype=int)),
        "noisy": frame(noisy),
        "shuffled": frame(noisy).sample(frac=1, random_state=3),
        "ties": frame(np.round(noisy, 1)),
        "inverted": frame(1 - noisy),
        "as_bool": frame(noisy > 0.5),
        "extra_column": frame(noisy).assign(patient_id="IP_0000001"),
    }
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)
    base = frame(noisy)
    invalid = {
        "missing_column": base[[ID]],
        "missing_id_column": base[[TARGET]],
        "missing_id": base.iloc[1:],
        "extra_id": pd.concat([base, base.iloc[[0]].assign(**{ID: "ISIC_9999999x"})]),
        "duplicate_id": pd.concat([base.iloc[:-1], base.iloc[[0]]]),
        "out_of_range": base.assign(**{TARGET: np.where(np.arange(n) == 5, 1.5, noisy)}),
        "negative": base.assign(**{TARGET: np.where(np.arange(n) == 5, -0.1, noisy)}),
        "nan": base.assign(**{TARGET: np.where(np.arange(n) == 7, np.nan, noisy)}),
        "text": base.assign(**{TARGET: ["yes"] + list(noisy[1:])}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(g, name) is None, name
        g.record(name, None)
