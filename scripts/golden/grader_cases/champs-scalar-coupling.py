"""champs-scalar-coupling: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import mean_absolute_error

TYPES = ["1JHC", "1JHN", "2JHC", "2JHH", "2JHN", "3JHC", "3JHH", "3JHN"]
TARGET = "scalar_coupling_constant"


def _score(g, name):
    """Upstream's steps: both columns, equal id sets, inner join on id (repeats count per copy),
    mean over types of log(MAE); None if refused."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if TARGET not in s.columns or "id" not in s.columns:
        return None
    if set(s["id"]) != set(a["id"]):
        return None
    merged = a.merge(s[["id", TARGET]], on="id", suffixes=("_true", "_pred"))
    try:
        logs = [np.log(mean_absolute_error(grp[TARGET + "_true"], grp[TARGET + "_pred"])) for _, grp in merged.groupby("type")]
    except ValueError:
        return None
    return float(np.mean(logs))


# champs-scalar-coupling: mean over coupling types of log(MAE), rows joined on id.
def generate(g):
    n = 400
    ids = [int(i) for i in 4_600_000 + np.sort(g.rng.choice(50_000, n, replace=False))]
    types = g.rng.choice(TYPES, n, p=[0.3, 0.03, 0.2, 0.08, 0.05, 0.25, 0.06, 0.03])
    centre = {"1JHC": 94.0, "1JHN": 48.0, "2JHC": -0.3, "2JHH": -10.0, "2JHN": 3.0, "3JHC": 3.0, "3JHH": 4.8, "3JHN": 0.9}
    truth = np.round(np.array([centre[t] for t in types]) + g.rng.normal(0, 4, n), 5)
    answers = pd.DataFrame({
        "id": ids,
        "molecule_name": [f"dsgdb9nsd_{m:06d}" for m in g.rng.randint(1, 133000, n)],
        "atom_index_0": g.rng.randint(9, 20, n),
        "atom_index_1": g.rng.randint(0, 9, n),
        "type": types,
        TARGET: truth,
    })
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(-3.245, 2.0, 2749), 5)))

    def sub(pred, name, ids=ids, shuffle=True, extra=None):
        df = pd.DataFrame({"id": ids, TARGET: pred})
        if extra:
            df = df.assign(**extra)
        g.write(df.sample(frac=1, random_state=9) if shuffle else df, f"{name}.csv")

    noisy = np.round(truth + g.rng.normal(0, 1.5, n), 4)
    type_means = answers.groupby("type")[TARGET].transform("mean").to_numpy()
    sub(np.zeros(n, dtype=int), "sample_zeros", shuffle=False)
    sub(type_means, "type_means")
    sub(noisy, "noisy")
    sub(np.round(truth + g.rng.normal(0, 0.05, n), 6), "close")
    sub(noisy, "extra_columns", extra={"type": types, "molecule_name": "x"})
    # Ids compared as sets, then joined: a repeated row counts twice in its type's MAE.
    sub(np.append(noisy, noisy[0] + 10), "repeated_row", ids=ids + ids[:1])
    valid = ("sample_zeros", "type_means", "noisy", "close", "extra_columns", "repeated_row")
    for name in valid:
        score = _score(g, name)
        assert score is not None and np.isfinite(score), name
        g.record(name, score)

    # Refused: missing columns, missing / unknown ids, NaN, infinity and text predictions.
    g.write(pd.DataFrame({"id": ids, "prediction": noisy}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"Id": ids, TARGET: noisy}), "no_id_column.csv")
    sub(noisy[:-1], "missing_id", ids=ids[:-1])
    sub(np.append(noisy, 1.0), "extra_id", ids=ids + [9_999_999])
    sub(noisy, "duplicate_replaces_id", ids=ids[:-1] + ids[:1])
    with_nan = noisy.copy()
    with_nan[4] = np.nan
    sub(with_nan, "nan_prediction")
    with_inf = noisy.copy()
    with_inf[6] = np.inf
    sub(with_inf, "inf_prediction")
    text = noisy.astype(object)
    text[8] = "unknown"
    sub(text, "text_prediction")
    invalid = ("wrong_column_name", "no_id_column", "missing_id", "extra_id", "duplicate_replaces_id",
               "nan_prediction", "inf_prediction", "text_prediction")
    for name in invalid:
        assert _score(g, name) is None, name
        g.record(name, None)
