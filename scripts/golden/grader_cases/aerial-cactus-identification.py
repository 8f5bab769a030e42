"""aerial-cactus-identification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


# aerial-cactus-identification: ROC AUC, rows matched by id.
def generate(g):
    n = 500
    ids = [f"{h}.jpg" for h in g.hex_ids(n, 32)]
    truth = (g.rng.rand(n) < 0.75).astype(int)
    g.write(pd.DataFrame({"id": ids, "has_cactus": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(1 - g.rng.uniform(0, 0.3, 120) ** 2, 5), reverse=True))
    cases = {
        "perfect": truth.astype(float),
        "constant": np.full(n, 0.5),
        "noisy": np.clip(truth * 0.6 + g.rng.rand(n) * 0.7, 0, 1),
        "ties": np.round(np.clip(truth * 0.3 + g.rng.rand(n) * 0.7, 0, 1), 1),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "has_cactus": pred}).sample(frac=1, random_state=2), f"{name}.csv")
        a = g.read("answers.csv").sort_values("id")
        s = g.read(f"{name}.csv").sort_values("id")
        g.record(name, roc_auc_score(a.has_cactus.to_numpy(), s.has_cactus.to_numpy()))
    bad = cases["noisy"].copy()
    bad[3] = 1.5
    g.write(pd.DataFrame({"id": ids, "has_cactus": bad}), "out_of_range.csv")
    g.record("out_of_range", None)
