"""rsna-miccai-brain-tumor-radiogenomic-classification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

ID, TARGET = "BraTS21ID", "MGMT_value"


def score(g, name):
    """ROC AUC after the grader's checks (columns, row count, numeric, in [0, 1], ids equal after
    sorting); None where one fails or scikit-learn refuses the input (NaN)."""
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


# rsna-miccai-brain-tumor-radiogenomic-classification: ROC AUC of MGMT_value per patient.
def generate(g):
    n = 59
    ids = sorted(g.rng.choice(1010, n, replace=False))
    truth = (g.rng.rand(n) < 0.52).astype(int)
    # The prepared answers keep Kaggle's zero-padded folder names; pandas reads them back as ints.
    g.write_text(
        f"{ID},{TARGET}\n" + "".join("%05d,%d\n" % (i, t) for i, t in zip(ids, truth)), "answers.csv"
    )
    # The task is notoriously hard: the winning private score was about 0.62.
    g.leaderboard(sorted(np.round(g.rng.uniform(0.45, 0.62, 1555), 5), reverse=True))
    noisy = np.round(np.clip(truth * 0.15 + g.rng.rand(n) * 0.85, 0, 1), 3)
    frame = lambda pred, i=ids: pd.DataFrame({ID: i, TARGET: pred})  # noqa: E731
    valid = {
        "perfect": frame(truth),
        "sample": frame(np.full(n, 0.5)),
        "noisy": frame(noisy),
        "shuffled": frame(noisy).sample(frac=1, random_state=2),
        "ties": frame(np.round(noisy, 1)),
        "inverted": frame(1 - noisy),
        "as_bool": frame(noisy > 0.5),
        "padded_ids": pd.DataFrame({ID: ["%05d" % i for i in ids], TARGET: noisy}),
        "float_ids": frame(noisy, [float(i) for i in ids]),
        "extra_column": frame(noisy).assign(note="x"),
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
        "extra_id": pd.concat([base, pd.DataFrame({ID: [99999], TARGET: [0.5]})]),
        "duplicate_id": pd.concat([base.iloc[:-1], base.iloc[[0]]]),
        "out_of_range": base.assign(**{TARGET: np.where(np.arange(n) == 5, 1.5, noisy)}),
        "negative": base.assign(**{TARGET: np.where(np.arange(n) == 5, -0.1, noisy)}),
        "nan": base.assign(**{TARGET: np.where(np.arange(n) == 7, np.nan, noisy)}),
        "text": base.assign(**{TARGET: ["yes"] + list(noisy[1:])}),
        "text_ids": base.assign(**{ID: ["BraTS21_%05d" % i for i in ids]}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(g, name) is None, name
        g.record(name, None)
    assert g.expected["perfect"] == 1.0 and g.expected["sample"] == 0.5
    assert g.expected["noisy"] == g.expected["shuffled"] == g.expected["padded_ids"] == g.expected["float_ids"]
    assert round(g.expected["noisy"] + g.expected["inverted"], 5) == 1.0
