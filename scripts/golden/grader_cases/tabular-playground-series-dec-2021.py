"""tabular-playground-series-dec-2021: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score


# tabular-playground-series-dec-2021: accuracy of the cover type (1-7), rows matched by Id.
def generate(g):
    n = 400
    ids = sorted(g.rng.permutation(4_000_000)[:n].tolist())
    truth = g.rng.choice([1, 2, 3, 4, 6, 7], size=n, p=[0.36, 0.56, 0.05, 0.001, 0.009, 0.02])
    answers = pd.DataFrame({"Id": ids, "Cover_Type": truth})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.9, 0.9566, 1188), 5), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.15, g.rng.choice([1, 2, 3, 7], size=n), truth)
    cases = {"perfect": truth.copy(), "constant": np.full(n, 2), "noisy": noisy}
    for name, pred in cases.items():
        sub = pd.DataFrame({"Id": ids, "Cover_Type": pred}).sample(frac=1, random_state=2)
        g.write(sub, f"{name}.csv")
        a = g.read("answers.csv").sort_values("Id")
        s = g.read(f"{name}.csv").sort_values("Id")
        assert list(a.Id) == list(s.Id)
        g.record(name, accuracy_score(a.Cover_Type.to_numpy(), s.Cover_Type.to_numpy()))
    # Floats 2.0 compare equal to the integer class 2.
    g.write(pd.DataFrame({"Id": ids, "Cover_Type": noisy.astype(float)}), "as_floats.csv")
    g.record("as_floats", g.expected["noisy"])
    # A missing id, and a wrong target column name: both invalid.
    g.write(pd.DataFrame({"Id": ids[1:], "Cover_Type": truth[1:]}), "missing_id.csv")
    g.record("missing_id", None)
    g.write(pd.DataFrame({"Id": ids, "CoverType": truth}), "wrong_column.csv")
    g.record("wrong_column", None)
    # Text labels against integer classes: scikit-learn never unions a multiclass pair, so they
    # simply never match (accuracy 0) rather than being refused.
    names = np.array(["spruce", "lodgepole", "ponderosa", "willow", "aspen", "douglas", "krummholz"])
    g.write(pd.DataFrame({"Id": ids, "Cover_Type": names[truth - 1]}), "text_labels.csv")
    a = g.read("answers.csv").sort_values("Id")
    s = g.read("text_labels.csv").sort_values("Id")
    g.record("text_labels", accuracy_score(a.Cover_Type.to_numpy(), s.Cover_Type.to_numpy()))
