"""spooky-author-identification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd


# spooky-author-identification: multi-class log loss over EAP/HPL/MWS, rows matched by id.
def generate(g):
    n = 300
    classes = ["EAP", "HPL", "MWS"]
    ids = [f"id{v:05d}" for v in g.rng.permutation(30000)[:n]]
    labels = g.rng.randint(0, 3, n)
    onehot = np.eye(3, dtype=int)[labels]
    answers = pd.DataFrame({"id": ids, **{c: onehot[:, i] for i, c in enumerate(classes)}})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.15, 1.1, 1240), 5)))
    logits = g.rng.normal(0, 1, (n, 3)) + onehot * 1.5
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    cases = {
        "uniform": np.full((n, 3), 1 / 3),
        "softmax": soft,
        "onehot_perfect": onehot.astype(float),
    }
    for name, pred in cases.items():
        sub = pd.DataFrame({"id": ids, **{c: pred[:, i] for i, c in enumerate(classes)}}).sample(frac=1, random_state=4)
        g.write(sub, f"{name}.csv")
        a = g.read("answers.csv").sort_values("id")
        s = g.read(f"{name}.csv").sort_values("id")
        g.record(name, g.log_loss_np(a[classes].to_numpy(), s[classes].to_numpy()))
    # Columns in another order are matched by name.
    sub = pd.DataFrame({"id": ids, "MWS": soft[:, 2], "EAP": soft[:, 0], "HPL": soft[:, 1]})
    g.write(sub, "reordered.csv")
    g.record("reordered", g.expected["softmax"])
    bad = soft.copy()
    bad[:, 0] *= 0.5
    g.write(pd.DataFrame({"id": ids, **{c: bad[:, i] for i, c in enumerate(classes)}}), "not_normalised.csv")
    g.record("not_normalised", None)
