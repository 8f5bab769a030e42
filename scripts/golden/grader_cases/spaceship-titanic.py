"""spaceship-titanic: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score


# spaceship-titanic: accuracy of a boolean column, rows matched by PassengerId.
def generate(g):
    n = 300
    ids = [f"{g:04d}_{k:02d}" for g, k in zip(g.rng.permutation(9000)[:n], g.rng.randint(1, 4, n))]
    truth = g.rng.rand(n) < 0.5
    answers = pd.DataFrame({"PassengerId": ids, "Transported": truth})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.5, 0.82, 150), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "constant": np.zeros(n, dtype=bool),
        "noisy": np.where(g.rng.rand(n) < 0.2, ~truth, truth),
    }
    for name, pred in cases.items():
        sub = pd.DataFrame({"PassengerId": ids, "Transported": pred}).sample(frac=1, random_state=1)
        g.write(sub, f"{name}.csv")
        a = g.read("answers.csv").sort_values("PassengerId")
        s = g.read(f"{name}.csv").sort_values("PassengerId")
        assert list(a.PassengerId) == list(s.PassengerId)
        g.record(name, accuracy_score(a.Transported.to_numpy(), s.Transported.to_numpy()))
    # Integers 0/1 instead of booleans compare equal to False/True.
    sub = pd.DataFrame({"PassengerId": ids, "Transported": cases["noisy"].astype(int)})
    g.write(sub, "as_ints.csv")
    g.record("as_ints", g.expected["noisy"])
    # Text labels cannot be compared with booleans: invalid.
    g.write(pd.DataFrame({"PassengerId": ids, "Transported": np.where(truth, "yes", "no")}), "text_labels.csv")
    g.record("text_labels", None)
