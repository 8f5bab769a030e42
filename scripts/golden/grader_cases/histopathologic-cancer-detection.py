"""histopathologic-cancer-detection: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


def _auroc_or_none(a, s):
    """Upstream's steps: columns, row count, numeric, min/max in [0, 1], ids equal after sorting, then AUC."""
    if "id" not in s.columns or "label" not in s.columns or len(s) != len(a):
        return None
    try:
        pd.to_numeric(s["label"])
    except ValueError:
        return None
    if s["label"].min() < 0 or s["label"].max() > 1:
        return None
    s = s.sort_values("id")
    a = a.sort_values("id")
    if (s["id"].values != a["id"].values).any():
        return None
    y = s["label"].to_numpy(dtype=float)
    if np.isnan(y).any():
        return None  # scikit-learn refuses NaN scores
    return roc_auc_score(a["label"].to_numpy(), y)


# histopathologic-cancer-detection: ROC AUC of the tumour probability, rows matched by 40-hex `id`.
def generate(g):
    n = 100
    ids = g.hex_ids(n, 40)
    truth = (g.rng.rand(n) < 0.4).astype(int)
    g.write(pd.DataFrame({"id": ids, "label": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(1 - g.rng.uniform(0, 0.5, 300) ** 2, 5), reverse=True))
    noisy = np.clip(truth * 0.5 + g.rng.rand(n) * 0.6, 0, 1)
    subs = {
        "perfect": pd.DataFrame({"id": ids, "label": truth.astype(float)}),
        # The sample submission predicts 0 everywhere (integers in the file).
        "sample_zeros": pd.DataFrame({"id": ids, "label": np.zeros(n, dtype=int)}),
        "noisy_shuffled": pd.DataFrame({"id": ids, "label": noisy}).sample(frac=1, random_state=5),
        "ties": pd.DataFrame({"id": ids, "label": np.round(noisy, 1)}),
        "inverted": pd.DataFrame({"id": ids, "label": 1 - noisy}),
        "hard_labels_extra_column": pd.DataFrame({"label": (noisy > 0.5).astype(int), "id": ids, "note": "x"}),
        "boundaries": pd.DataFrame({"id": ids, "label": np.where(noisy > 0.5, 1.0, 0.0)}),
    }
    bad = noisy.copy()
    bad[7] = 1.0001
    subs["above_one"] = pd.DataFrame({"id": ids, "label": bad})
    bad = noisy.copy()
    bad[11] = -0.2
    subs["negative"] = pd.DataFrame({"id": ids, "label": bad})
    bad = noisy.copy()
    bad[5] = np.nan
    subs["nan_value"] = pd.DataFrame({"id": ids, "label": bad})
    text = noisy.astype(object)
    text[3] = "high"
    subs["text_value"] = pd.DataFrame({"id": ids, "label": text})
    subs["missing_label_column"] = pd.DataFrame({"id": ids, "prob": noisy})
    subs["missing_id_column"] = pd.DataFrame({"image": ids, "label": noisy})
    subs["missing_row"] = pd.DataFrame({"id": ids[:-1], "label": noisy[:-1]})
    subs["extra_row"] = pd.DataFrame({"id": ids + g.hex_ids(1, 40), "label": np.append(noisy, 0.5)})
    dup = list(ids)
    dup[10] = dup[20]
    subs["duplicate_id"] = pd.DataFrame({"id": dup, "label": noisy})
    unknown = list(ids)
    unknown[0] = "f" * 40
    subs["unknown_id"] = pd.DataFrame({"id": unknown, "label": noisy})
    for name, df in subs.items():
        g.write(df, f"{name}.csv")
        g.record(name, _auroc_or_none(g.read("answers.csv"), g.read(f"{name}.csv")))
    for name in ("perfect", "sample_zeros", "noisy_shuffled", "ties", "inverted", "hard_labels_extra_column", "boundaries"):
        assert g.expected[name] is not None, name
    assert g.expected["perfect"] == 1.0 and g.expected["sample_zeros"] == 0.5
