"""inaturalist-2019-fgvc6: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score


def _score(g, name):
    """Upstream's steps: equal length, both columns, ids equal after sorting, then 1 - accuracy of
    the first token of each prediction (Python ints as they are, strings split); None if refused."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or "id" not in s.columns or "predicted" not in s.columns:
        return None
    a = a.sort_values("id")
    s = s.sort_values("id")
    if (s["id"].values != a["id"].values).any():
        return None
    y_true = [int(y) for y in a["predicted"]]
    try:
        y_pred = []
        for y in s["predicted"]:  # Series iteration yields Python scalars
            y_pred.append(int(y) if isinstance(y, int) else int(y.split()[0]))
    except (AttributeError, ValueError, IndexError):
        return None
    return 1 - accuracy_score(y_true, y_pred)


# inaturalist-2019-fgvc6: top-1 error (1 - accuracy) on the first predicted category, rows matched by image id.
def generate(g):
    n = 300
    ids = [int(i) for i in g.rng.permutation(3030)[:n]]
    truth = g.rng.randint(0, 1010, n)
    truth[:30] = g.rng.randint(0, 2, 30)  # some classes 0 and 1, for the booleans case
    g.write(pd.DataFrame({"id": ids, "predicted": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.07, 0.6, 214), 5)))

    def sub(pred, name, ids=ids, shuffle=True):
        df = pd.DataFrame({"id": ids, "predicted": pred})
        g.write(df.sample(frac=1, random_state=8) if shuffle else df, f"{name}.csv")

    noisy = np.where(g.rng.rand(n) < 0.3, g.rng.randint(0, 1010, n), truth)
    top5 = [" ".join(str(c) for c in [p] + list(g.rng.randint(0, 1010, 4))) for p in noisy]
    sub(truth, "perfect")
    sub(g.rng.randint(0, 1010, n), "sample_random", shuffle=False)
    sub(noisy, "noisy")
    sub(top5, "noisy_top5_text")  # Kaggle's format: only the first id counts
    sub([f"  {p:03d}\t" for p in noisy], "padded_text")  # whitespace and leading zeros are fine for int()
    sub(truth == 1, "booleans")  # a bool is a Python int: True/False are classes 1/0
    valid = ("perfect", "sample_random", "noisy", "noisy_top5_text", "padded_text", "booleans")
    for name in valid:
        score = _score(g, name)
        assert score is not None, name
        g.record(name, score)

    # Refused: missing columns, wrong length, mismatched ids, floats, text that int() cannot read.
    g.write(pd.DataFrame({"id": ids, "category_id": truth}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"image_id": ids, "predicted": truth}), "no_id_column.csv")
    sub(noisy[:-1], "missing_row", ids=ids[:-1])
    sub(noisy, "extra_id_in_place", ids=ids[:-1] + [99999])
    sub(noisy, "duplicate_id", ids=ids[:-1] + ids[:1])
    sub(noisy.astype(float), "as_floats")
    gap = noisy.astype(float)
    gap[3] = np.nan
    sub(gap, "ints_with_gap")
    bad = list(top5)
    bad[10] = "cat 12 3"
    sub(bad, "text_not_an_int")
    decimal = list(top5)
    decimal[20] = "12.0 3"
    sub(decimal, "text_decimal")
    empty = list(top5)
    empty[30] = np.nan
    sub(empty, "text_with_empty_cell")
    invalid = ("wrong_column_name", "no_id_column", "missing_row", "extra_id_in_place", "duplicate_id", "as_floats",
               "ints_with_gap", "text_not_an_int", "text_decimal", "text_with_empty_cell")
    for name in invalid:
        assert _score(g, name) is None, name
        g.record(name, None)
