"""cdiscount-image-classification-challenge: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score


def _score(g, name):
    """Upstream's steps: equal length, both columns, ids equal after sorting, accuracy; None if refused."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or "category_id" not in s.columns or "_id" not in s.columns:
        return None
    a = a.sort_values("_id")
    s = s.sort_values("_id")
    if (s._id.to_numpy() != a._id.to_numpy()).any():
        return None
    try:
        return accuracy_score(a.category_id.to_numpy(), s.category_id.to_numpy())
    except ValueError:
        return None


# cdiscount-image-classification-challenge: accuracy of the product category_id, rows matched by integer _id.
def generate(g):
    n = 300
    ids = sorted(int(x) for x in g.rng.choice(7_000_000, n, replace=False))
    classes = 1000000000 + g.rng.choice(20000, 40, replace=False)
    truth = g.rng.choice(classes, n)
    g.write(pd.DataFrame({"_id": ids, "category_id": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.3, 0.7969, 627), 5), reverse=True))

    def sub(pred, name, ids=ids, shuffle=True):
        df = pd.DataFrame({"_id": ids, "category_id": pred})
        g.write(df.sample(frac=1, random_state=4) if shuffle else df, f"{name}.csv")

    noisy = np.where(g.rng.rand(n) < 0.4, g.rng.choice(classes, n), truth)
    sub(truth, "perfect")
    sub(np.full(n, 1000018296), "sample_constant", shuffle=False)
    sub(np.full(n, classes[0]), "one_class_guess")
    sub(noisy, "noisy")
    sub(noisy, "noisy_ids_as_floats", ids=[float(i) for i in ids])  # 12.0 equals 12
    for name in ("perfect", "sample_constant", "one_class_guess", "noisy", "noisy_ids_as_floats"):
        score = _score(g, name)
        assert score is not None
        g.record(name, score)

    # Refused: a missing column, a missing / extra / repeated id, NaN and text labels.
    g.write(pd.DataFrame({"_id": ids, "category": truth}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"id": ids, "category_id": truth}), "id_column_renamed.csv")
    sub(noisy[:-1], "missing_id", ids=ids[:-1])
    sub(np.append(noisy, classes[0]), "extra_id", ids=ids + [7_000_001])
    sub(noisy, "duplicate_id", ids=ids[:-1] + ids[:1])
    with_nan = noisy.astype(float)
    with_nan[7] = np.nan
    sub(with_nan, "nan_label")
    sub(noisy, "string_ids", ids=[f"p{i}" for i in ids])
    for name in ("wrong_column_name", "id_column_renamed", "missing_id", "extra_id", "duplicate_id", "nan_label", "string_ids"):
        assert _score(g, name) is None, name
        g.record(name, None)
