"""aptos2019-blindness-detection: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score


# aptos2019-blindness-detection: quadratic weighted kappa, ids compared as sets.
def generate(g):
    n = 300
    ids = g.hex_ids(n, 12)
    truth = g.rng.choice(5, n, p=[0.5, 0.1, 0.25, 0.05, 0.1])
    g.write(pd.DataFrame({"id_code": ids, "diagnosis": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.5, 0.936, 2930), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "off_by_one": np.clip(truth + g.rng.randint(-1, 2, n), 0, 4),
        "constant": np.full(n, 2),
        "as_floats": np.clip(truth + g.rng.randint(-1, 2, n), 0, 4).astype(float),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id_code": ids, "diagnosis": pred}).sample(frac=1, random_state=6), f"{name}.csv")
        a = g.read("answers.csv").sort_values("id_code")
        s = g.read(f"{name}.csv").sort_values("id_code")
        g.record(name, cohen_kappa_score(s.diagnosis.to_numpy(), a.diagnosis.to_numpy(), weights="quadratic"))
    pred = np.clip(truth + g.rng.randint(-1, 2, n), 0, 4) + 0.5
    g.write(pd.DataFrame({"id_code": ids, "diagnosis": pred}), "continuous.csv")
    g.record("continuous", None)
