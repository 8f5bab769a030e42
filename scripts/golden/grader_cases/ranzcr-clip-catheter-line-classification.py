"""ranzcr-clip-catheter-line-classification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

ID = "StudyInstanceUID"
# The eleven labels of train.csv, in its order; only the first nine are in the sample submission.
LABELS = [
    "ETT - Abnormal", "ETT - Borderline", "ETT - Normal",
    "NGT - Abnormal", "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal",
    "CVC - Abnormal", "CVC - Borderline", "CVC - Normal", "Swan Ganz Catheter Present",
]
SCORED = LABELS[:9]
RATES = [0.03, 0.04, 0.24, 0.03, 0.03, 0.09, 0.16, 0.1, 0.28, 0.7, 0.03]


def score(g, name):
    """Mean over the nine scored labels of the ROC AUC after the per-label checks; None where one fails."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if any(c not in s.columns for c in SCORED) or len(s) != len(a) or ID not in s.columns:
        return None
    aucs = []
    for c in SCORED:
        try:
            pd.to_numeric(s[c])
        except ValueError:
            return None
        if s[c].min() < 0 or s[c].max() > 1:
            return None
        ss, aa = s.sort_values(ID), a.sort_values(ID)
        if (ss[ID].values != aa[ID].values).any():
            return None
        try:
            aucs.append(roc_auc_score(aa[c].to_numpy(), ss[c].to_numpy()))
        except ValueError:
            return None
    return float(np.average(aucs))


# ranzcr-clip-catheter-line-classification: mean ROC AUC over 9 of the 11 label columns.
def generate(g):
    n = 100
    ids = ["1.2.826.0.1.3680043.8.498.%d" % v for v in g.rng.choice(10**9, n, replace=False)]
    truth = (g.rng.rand(n, len(LABELS)) < np.array(RATES)).astype(int)
    for j in range(len(LABELS)):  # every label needs both classes for its AUC to exist
        truth[2 * j, j], truth[2 * j + 1, j] = 1, 0
    answers = pd.DataFrame(truth, columns=LABELS)
    answers.insert(0, ID, ids)
    answers["PatientID"] = ["ec%07d" % v for v in g.rng.choice(10**7, n)]
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(0.975 - g.rng.uniform(0, 0.3, 300) ** 2, 5), reverse=True))

    noisy_all = np.round(np.clip(truth * 0.4 + g.rng.rand(n, len(LABELS)) * 0.6, 0, 1), 3)
    noisy = noisy_all[:, :9]

    def frame(pred, cols=SCORED):
        df = pd.DataFrame(pred, columns=cols)
        df.insert(0, ID, ids)
        return df

    valid = {
        "perfect": frame(truth[:, :9]),
        "sample": frame(np.zeros((n, 9), dtype=int)),
        "noisy": frame(noisy),
        "shuffled": frame(noisy).sample(frac=1, random_state=5),
        # The two unscored labels (and PatientID) may be submitted too; they are ignored.
        "all_labels": frame(noisy_all, LABELS).assign(PatientID="x"),
        "ties": frame(np.round(noisy, 1)),
    }
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)
    base = frame(noisy)
    col = lambda j, v: base.assign(**{SCORED[j]: v})  # noqa: E731
    invalid = {
        "missing_column": base.drop(columns=["CVC - Borderline"]),
        "missing_id_column": base.drop(columns=[ID]),
        "missing_id": base.iloc[1:],
        "extra_id": pd.concat([base, base.iloc[[0]].assign(**{ID: "1.2.826.0.1.3680043.8.498.1"})]),
        "duplicate_id": pd.concat([base.iloc[:-1], base.iloc[[0]]]),
        "out_of_range": col(4, np.where(np.arange(n) == 9, 1.01, noisy[:, 4])),
        "nan": col(8, np.where(np.arange(n) == 3, np.nan, noisy[:, 8])),
        "text": col(0, ["low"] + list(noisy[1:, 0])),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(g, name) is None, name
        g.record(name, None)
