"""tabular-playground-series-may-2022: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

ID, TARGET = "id", "target"


def score(g, name):
    """ROC AUC by upstream's steps, or None where those steps refuse the submission."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if ID not in s.columns or TARGET not in s.columns or len(s) != len(a):
        return None
    try:
        pd.to_numeric(s[TARGET])
    except ValueError:
        return None
    # pandas' min/max skip NaN, so a NaN passes the range check and then fails in the metric.
    if s[TARGET].min() < 0 or s[TARGET].max() > 1 or s[TARGET].isna().any():
        return None
    a = a.sort_values(ID)
    s = s.sort_values(ID)
    if (s[ID].values != a[ID].values).any():
        return None
    return roc_auc_score(a[TARGET].to_numpy(), s[TARGET].to_numpy())


# tabular-playground-series-may-2022: ROC AUC of the predicted target probability, rows matched by integer id.
def generate(g):
    n = 400
    ids = np.arange(900000, 900000 + n) + np.sort(g.rng.choice(3 * n, n, replace=False))
    truth = (g.rng.rand(n) < 0.49).astype(int)
    g.write(pd.DataFrame({ID: ids, TARGET: truth}), "answers.csv")
    g.leaderboard(sorted(np.round(0.998 - g.rng.uniform(0, 0.2, 180) ** 2, 5), reverse=True))

    def sub(name, pred, id_values=ids, shuffle=True, columns=(ID, TARGET)):
        df = pd.DataFrame({columns[0]: id_values, columns[1]: pred})
        if shuffle:
            df = df.sample(frac=1, random_state=3)
        g.write(df, f"{name}.csv")

    # Four decimals keep the fixture small; the few ties this makes are scored like any other.
    noisy = np.round(np.clip(truth * 0.55 + g.rng.rand(n) * 0.6, 0, 1), 4)
    valid = {
        "perfect": truth.astype(float),
        "sample_constant": np.full(n, 0.5),
        "noisy": noisy,
        "ties": np.round(noisy, 1),
        "inverted": 1 - noisy,
    }
    for name, pred in valid.items():
        sub(name, pred)
    sub("file_order", noisy, shuffle=False)
    # Booleans convert to 0/1 for pd.to_numeric and the metric: valid.
    sub("booleans", noisy > 0.5)
    # Ids written as floats (900123.0) still equal the integer ids under numpy's `!=`.
    sub("float_ids", noisy, id_values=ids.astype(float))
    for name in [*valid, "file_order", "booleans", "float_ids"]:
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)

    bad = noisy.copy()
    bad[7] = 1.2
    sub("out_of_range", bad)
    bad = noisy.copy()
    bad[11] = -0.01
    sub("negative", bad)
    bad = noisy.copy()
    bad[5] = np.nan
    sub("nan_prediction", bad)
    sub("text_prediction", np.where(noisy > 0.5, "yes", "no"))
    sub("missing_column", noisy, columns=(ID, "prediction"))
    sub("missing_id_column", noisy, columns=("row_id", TARGET))
    sub("missing_row", noisy[1:], id_values=ids[1:])
    sub("extra_row", np.append(noisy, 0.3), id_values=np.append(ids, ids[-1] + 5))
    dup = ids.copy()
    dup[10] = dup[11]
    sub("duplicate_id", noisy, id_values=dup)
    other = ids.copy()
    other[20] = 1
    sub("unknown_id", noisy, id_values=other)
    for name in ["out_of_range", "negative", "nan_prediction", "text_prediction", "missing_column",
                 "missing_id_column", "missing_row", "extra_row", "duplicate_id", "unknown_id"]:
        assert score(g, name) is None, name
        g.record(name, None)
