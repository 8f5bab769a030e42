"""alaska2-image-steganalysis: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_curve


def weighted_auc(y_true, y_score):
    """The competition's weighted AUC as upstream defines it: TPR bands [0, .4] and [.4, 1] weighted
    2 and 1; a band edge missing from the ROC curve is added with its FPR linearly interpolated;
    each band's points are closed with (1, band top), shifted down by the band bottom, and
    integrated by trapezoids; the total is divided by sum(band width * weight)."""
    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=1)
    fpr, tpr = list(fpr), list(tpr)
    edges, weights = [0.0, 0.4, 1.0], [2, 1]
    for e in edges:
        if e in tpr:
            continue
        j = next((k for k, t in enumerate(tpr) if t > e), None)
        if j is None:
            continue
        x = fpr[j - 1] + (fpr[j] - fpr[j - 1]) * (e - tpr[j - 1]) / (tpr[j] - tpr[j - 1])
        tpr.insert(j, e)
        fpr.insert(j, x)
    fpr, tpr = np.array(fpr), np.array(tpr)
    total = 0.0
    for lo, hi, w in zip(edges[:-1], edges[1:], weights):
        keep = (tpr >= lo) & (tpr <= hi)
        xs = np.append(fpr[keep], 1.0)
        ys = np.append(tpr[keep], hi) - lo
        total += w * float(np.sum(np.diff(xs) * (ys[1:] + ys[:-1]) / 2.0))
    return total / float(np.dot(np.diff(edges), weights))


# alaska2-image-steganalysis: weighted AUC of `Label`, rows matched by `Id`; any finite score is valid.
def generate(g):
    n = 250
    ids = [f"{k:04d}.jpg" for k in range(1, n + 1)]
    # 190 positives: a TPR of exactly 0.4 (76 of them) can then sit on the curve itself.
    truth = g.rng.permutation(np.r_[np.ones(190, dtype=int), np.zeros(n - 190, dtype=int)])
    g.write(pd.DataFrame({"Id": ids, "Label": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.6, 0.929, 1095), 5), reverse=True))

    def score(name):
        a = g.read("answers.csv").sort_values("Id")
        s = g.read(f"{name}.csv").sort_values("Id")
        assert (a.Id.values == s.Id.values).all()
        return weighted_auc(a.Label.astype(float).to_numpy(), s.Label.astype(float).to_numpy())

    noisy = truth * 0.5 + g.rng.rand(n)
    cases = {
        "perfect": truth.astype(float),
        "sample_like": np.zeros(n, dtype=int),
        "noisy": noisy,
        "ties": np.round(noisy, 1),
        "logits": np.log(np.clip(noisy, 1e-3, None)) * 7 - 3,
        "inverted": -noisy,
        "weak": truth * 0.05 + g.rng.rand(n),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"Id": ids, "Label": pred}).sample(frac=1, random_state=4), f"{name}.csv")
        g.record(name, score(name))
    g.write(pd.DataFrame({"Id": ids, "Label": noisy > 0.8}), "booleans.csv")
    g.record("booleans", score("booleans"))

    base = pd.DataFrame({"Id": ids, "Label": noisy})
    g.write(base.drop(columns="Label"), "missing_column.csv")
    g.write(base.rename(columns={"Id": "id"}), "lowercase_id.csv")
    g.write(base.iloc[1:], "missing_id.csv")
    g.write(pd.concat([base, pd.DataFrame({"Id": ["9999.jpg"], "Label": [0.5]})]), "extra_id.csv")
    dup = base.copy()
    dup.loc[1, "Id"] = dup.loc[2, "Id"]
    g.write(dup, "duplicate_id.csv")
    nan = base.copy()
    nan.loc[11, "Label"] = np.nan
    g.write(nan, "nan_prediction.csv")
    inf = base.copy()
    inf.loc[12, "Label"] = np.inf
    g.write(inf, "infinite_prediction.csv")
    text = base.copy().astype({"Label": object})
    text.loc[13, "Label"] = "stego"
    g.write(text, "text_prediction.csv")
    g.write(pd.DataFrame({"Id": [i.replace(".jpg", "") for i in ids], "Label": noisy}), "ids_without_suffix.csv")
    for name in ["missing_column", "lowercase_id", "missing_id", "extra_id", "duplicate_id", "nan_prediction", "infinite_prediction", "text_prediction", "ids_without_suffix"]:
        g.record(name, None)
