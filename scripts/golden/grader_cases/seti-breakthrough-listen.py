"""seti-breakthrough-listen: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


# seti-breakthrough-listen: ROC AUC of `target`, rows matched by `id`; predictions must lie in [0, 1].
def generate(g):
    n = 300
    ids = g.hex_ids(n, 15)
    truth = (g.rng.rand(n) < 0.1).astype(int)
    g.write(pd.DataFrame({"id": ids, "target": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.5, 0.8, 768), 5), reverse=True))

    def auc(name):
        a = g.read("answers.csv").sort_values("id")
        s = g.read(f"{name}.csv").sort_values("id")
        return roc_auc_score(a.target.to_numpy(), s.target.to_numpy())

    noisy = np.clip(truth * 0.4 + g.rng.rand(n) * 0.7, 0, 1)
    cases = {
        "perfect": truth.astype(float),
        "sample_like": np.full(n, 0.5),
        "noisy": noisy,
        "ties": np.round(noisy, 1),
        "inverted": 1 - noisy,
        "hard_labels": (noisy > 0.5).astype(int),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "target": pred}).sample(frac=1, random_state=3), f"{name}.csv")
        g.record(name, auc(name))
    # Booleans read as a bool column, which pandas converts to 0/1 for the range check and the AUC.
    g.write(pd.DataFrame({"id": ids, "target": noisy > 0.5}), "booleans.csv")
    g.record("booleans", auc("booleans"))

    base = pd.DataFrame({"id": ids, "target": noisy})
    g.write(base.drop(columns="target"), "missing_column.csv")
    g.write(base.rename(columns={"id": "ID"}), "wrong_id_name.csv")
    g.write(base.iloc[:-1], "missing_id.csv")
    g.write(pd.concat([base, pd.DataFrame({"id": ["0" * 15], "target": [0.5]})]), "extra_id.csv")
    dup = base.copy()
    dup.loc[5, "id"] = dup.loc[6, "id"]
    g.write(dup, "duplicate_id.csv")
    nan = base.copy()
    nan.loc[7, "target"] = np.nan
    g.write(nan, "nan_prediction.csv")
    out = base.copy()
    out.loc[8, "target"] = 1.2
    g.write(out, "out_of_range.csv")
    neg = base.copy()
    neg.loc[9, "target"] = -0.01
    g.write(neg, "negative.csv")
    text = base.copy().astype({"target": object})
    text.loc[10, "target"] = "high"
    g.write(text, "text_prediction.csv")
    for name in ["missing_column", "wrong_id_name", "missing_id", "extra_id", "duplicate_id", "nan_prediction", "out_of_range", "negative", "text_prediction"]:
        g.record(name, None)
