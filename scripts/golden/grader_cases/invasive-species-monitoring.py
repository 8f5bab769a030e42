"""invasive-species-monitoring: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


# invasive-species-monitoring: ROC AUC of `invasive`, rows matched by the integer photo `name`.
def generate(g):
    n = 460
    names = g.rng.choice(np.arange(1, 2296), n, replace=False)
    truth = (g.rng.rand(n) < 0.63).astype(int)
    g.write(pd.DataFrame({"name": names, "invasive": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(1 - g.rng.uniform(0, 0.35, 510) ** 3, 5), reverse=True))
    cases = {
        "perfect": truth.astype(float),
        "sample_like": np.full(n, 0.5),
        "noisy": np.clip(truth * 0.5 + g.rng.rand(n) * 0.6, 0, 1),
        "ties": np.round(np.clip(truth * 0.2 + g.rng.rand(n) * 0.8, 0, 1), 1),
        "hard_labels": np.where(g.rng.rand(n) < 0.15, 1 - truth, truth),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"name": names, "invasive": pred}).sample(frac=1, random_state=5), f"{name}.csv")
        a = g.read("answers.csv").sort_values("name")
        s = g.read(f"{name}.csv").sort_values("name")
        assert list(a.name) == list(s.name)
        g.record(name, roc_auc_score(a.invasive.to_numpy(), s.invasive.to_numpy()))
    noisy = cases["noisy"]

    def bad(name, df):
        g.write(df, f"{name}.csv")
        g.record(name, None)

    above = noisy.copy()
    above[4] = 1.2
    bad("above_one", pd.DataFrame({"name": names, "invasive": above}))
    below = noisy.copy()
    below[9] = -0.1
    bad("below_zero", pd.DataFrame({"name": names, "invasive": below}))
    blank = noisy.copy()
    blank[2] = np.nan
    bad("nan_score", pd.DataFrame({"name": names, "invasive": blank}))
    text = noisy.astype(object)
    text[1] = "high"
    bad("text_score", pd.DataFrame({"name": names, "invasive": text}))
    bad("missing_column", pd.DataFrame({"name": names, "prob": noisy}))
    bad("missing_row", pd.DataFrame({"name": names, "invasive": noisy}).iloc[:-1])
    other = names.copy()
    other[0] = 5000
    bad("unknown_id", pd.DataFrame({"name": other, "invasive": noisy}))
    dup = names.copy()
    dup[0] = dup[1]
    bad("duplicate_id", pd.DataFrame({"name": dup, "invasive": noisy}))
    # Names written as file names are text, which never equals the integer names.
    bad("names_as_files", pd.DataFrame({"name": [f"{x}.jpg" for x in names], "invasive": noisy}))
