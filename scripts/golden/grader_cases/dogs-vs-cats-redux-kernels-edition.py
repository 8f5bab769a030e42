"""dogs-vs-cats-redux-kernels-edition: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd


# dogs-vs-cats-redux-kernels-edition: binary log loss on the probability of "dog" (label 1).
def generate(g):
    n = 400
    ids = list(g.rng.permutation(np.arange(1, 12501))[:n])
    truth = (g.rng.rand(n) < 0.5).astype(int)
    g.write(pd.DataFrame({"id": ids, "label": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.03, 0.7, 1300), 5)))
    cases = {
        "perfect": truth.astype(float),
        "half": np.full(n, 0.5),
        "noisy": np.clip(np.where(truth == 1, 0.8, 0.2) + g.rng.normal(0, 0.15, n), 0, 1),
        "confident_wrong": np.where(g.rng.rand(n) < 0.1, 1 - truth, truth).astype(float),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "label": pred}).sample(frac=1, random_state=3), f"{name}.csv")
        a = g.read("answers.csv").sort_values("id")
        s = g.read(f"{name}.csv").sort_values("id")
        p1 = s.label.to_numpy()
        onehot = np.stack([1 - a.label.to_numpy(), a.label.to_numpy()], axis=1)
        g.record(name, g.log_loss_np(onehot, np.stack([1 - p1, p1], axis=1)))
    g.write(pd.DataFrame({"id": ids[:-1], "label": cases["half"][:-1]}), "missing_row.csv")
    g.record("missing_row", None)
