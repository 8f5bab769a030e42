"""iwildcam-2020-fgvc7: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score


def _score(g, name):
    """Upstream's steps: equal length, both columns, ids equal after sorting, accuracy; None if refused."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or "Category" not in s.columns or "Id" not in s.columns:
        return None
    a = a.sort_values("Id")
    s = s.sort_values("Id")
    if (s.Id.to_numpy() != a.Id.to_numpy()).any():
        return None
    try:
        return accuracy_score(a.Category.to_numpy(), s.Category.to_numpy())
    except ValueError:
        return None


# iwildcam-2020-fgvc7: accuracy of the species Category, rows matched by camera-trap image Id.
def generate(g):
    n = 300
    ids = ["-".join(g.hex_ids(1, w)[0] for w in (8, 4, 4, 4, 12)) for _ in range(n)]
    classes = np.array([0, 1, 2, 3, 4, 6, 8, 10, 24, 72, 101, 372, 571])
    truth = g.rng.choice(classes, n)
    g.write(pd.DataFrame({"Id": ids, "Category": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.2, 0.82, 126), 5), reverse=True))

    def sub(pred, name, ids=ids, shuffle=True):
        df = pd.DataFrame({"Id": ids, "Category": pred})
        g.write(df.sample(frac=1, random_state=3) if shuffle else df, f"{name}.csv")

    noisy = np.where(g.rng.rand(n) < 0.35, g.rng.choice(classes, n), truth)
    sub(truth, "perfect")
    sub(np.zeros(n, dtype=int), "sample_zeros", shuffle=False)
    sub(noisy, "noisy")
    sub(noisy.astype(float), "noisy_as_floats")  # 6.0 equals 6
    sub(np.where(g.rng.rand(n) < 0.5, 999, truth), "unknown_classes")
    for name in ("perfect", "sample_zeros", "noisy", "noisy_as_floats", "unknown_classes"):
        score = _score(g, name)
        assert score is not None
        g.record(name, score)

    # Refused: a missing column, a missing / extra / repeated id, NaN and non-integral labels.
    g.write(pd.DataFrame({"Id": ids, "category": truth}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"Category": truth}), "no_id_column.csv")
    sub(noisy[:-1], "missing_id", ids=ids[:-1])
    sub(np.append(noisy, 0), "extra_id", ids=ids + ["00000000-0000-0000-0000-000000000000"])
    sub(noisy, "duplicate_id", ids=ids[:-1] + ids[:1])
    with_nan = noisy.astype(float)
    with_nan[5] = np.nan
    sub(with_nan, "nan_label")
    sub(noisy + 0.5, "continuous_labels")
    for name in ("wrong_column_name", "no_id_column", "missing_id", "extra_id", "duplicate_id", "nan_label", "continuous_labels"):
        assert _score(g, name) is None, name
        g.record(name, None)
