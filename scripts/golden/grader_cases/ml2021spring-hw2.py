"""ml2021spring-hw2: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def _accuracy(truth, pred):
    # Element-wise Python equality over the id-sorted columns: 3 == 3.0.
    return float(np.mean(truth.to_numpy(dtype=object) == pred.to_numpy(dtype=object)))


# ml2021spring-hw2: accuracy of the phoneme ClassId (0-38), rows matched by Id (0..n-1).
def generate(g):
    n = 500
    ids = np.arange(n)
    truth = g.rng.randint(0, 39, n)
    g.write(pd.DataFrame({"Id": ids, "ClassId": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.45, 0.78, 200), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "sample_like": np.zeros(n, dtype=int),
        "noisy": np.where(g.rng.rand(n) < 0.3, g.rng.randint(0, 39, n), truth),
        "as_floats": np.where(g.rng.rand(n) < 0.5, 0, truth).astype(float),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"Id": ids, "ClassId": pred}).sample(frac=1, random_state=4), f"{name}.csv")
        a = g.read("answers.csv").sort_values("Id")
        s = g.read(f"{name}.csv").sort_values("Id")
        assert list(a.Id) == list(s.Id)
        g.record(name, _accuracy(a.ClassId, s.ClassId))
    noisy = cases["noisy"]
    g.write(pd.DataFrame({"Id": ids, "ClassId": noisy, "extra": 1}), "extra_column.csv")
    g.record("extra_column", g.expected["noisy"])
    # Invalid: no ClassId, no Id, a row too many, an unknown id, a repeated id, a blank, fractional classes.
    g.write(pd.DataFrame({"Id": ids, "Class": noisy}), "missing_column.csv")
    g.record("missing_column", None)
    g.write(pd.DataFrame({"ClassId": noisy}), "missing_id_column.csv")
    g.record("missing_id_column", None)
    g.write(pd.DataFrame({"Id": np.arange(n + 1), "ClassId": np.append(noisy, 0)}), "extra_row.csv")
    g.record("extra_row", None)
    other = ids.copy()
    other[0] = n + 10
    g.write(pd.DataFrame({"Id": other, "ClassId": noisy}), "unknown_id.csv")
    g.record("unknown_id", None)
    dup = ids.copy()
    dup[10] = 11
    g.write(pd.DataFrame({"Id": dup, "ClassId": noisy}), "duplicate_id.csv")
    g.record("duplicate_id", None)
    blank = noisy.astype(float)
    blank[3] = np.nan
    g.write(pd.DataFrame({"Id": ids, "ClassId": blank}), "nan_label.csv")
    g.record("nan_label", None)
    g.write(pd.DataFrame({"Id": ids, "ClassId": noisy + 0.25}), "continuous.csv")
    g.record("continuous", None)
