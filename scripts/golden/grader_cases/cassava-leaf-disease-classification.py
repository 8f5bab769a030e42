"""cassava-leaf-disease-classification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score


def oracle(g, name):
    """Upstream's steps: same length, both columns, ids equal after sorting, then accuracy; None if refused."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or "label" not in s.columns or "image_id" not in s.columns:
        return None
    s = s.sort_values("image_id")
    a = a.sort_values("image_id")
    if (s.image_id.values != a.image_id.values).any():
        return None
    try:
        return accuracy_score(a.label.to_numpy(), s.label.to_numpy())
    except ValueError:
        return None


# cassava-leaf-disease-classification: accuracy of the class id 0-4, rows matched by image_id.
def generate(g):
    n = 300
    ids = [f"{x}.jpg" for x in dict.fromkeys(g.rng.randint(1000015157, 4_294_000_000, 2 * n, dtype=np.int64))][:n]
    truth = g.rng.choice(5, n, p=[0.05, 0.1, 0.11, 0.62, 0.12])
    g.write(pd.DataFrame({"image_id": ids, "label": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.45, 0.9132, 400), 4), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.25, g.rng.randint(0, 5, n), truth)
    order = g.rng.permutation(n)

    def sub(pred, rows=None, name=None, id_col="image_id", label_col="label", expect_valid=True):
        rows = np.arange(n) if rows is None else rows
        df = pd.DataFrame({id_col: np.asarray(ids, dtype=object)[rows], label_col: np.asarray(pred, dtype=object)[rows]})
        g.write(df, f"{name}.csv")
        score = oracle(g, name)
        assert (score is not None) == expect_valid, name
        g.record(name, score)

    sub(truth, name="perfect")
    sub(np.full(n, 4), name="sample_all_4")
    sub(noisy, name="noisy")
    sub(noisy, rows=order, name="noisy_shuffled")
    sub(noisy.astype(float), rows=order, name="as_floats")
    sub(np.where(noisy == 3, 7, noisy), name="unknown_class_7")
    # Refused ones.
    sub(noisy, rows=order[:-1], name="missing_row", expect_valid=False)
    sub(noisy, rows=np.append(order, order[0]), name="extra_row", expect_valid=False)
    dup = order.copy()
    dup[5] = dup[6]
    sub(noisy, rows=dup, name="duplicate_id", expect_valid=False)
    sub(noisy, name="wrong_target_column", label_col="prediction", expect_valid=False)
    sub(noisy, name="wrong_id_column", id_col="id", expect_valid=False)
    with_nan = noisy.astype(float)
    with_nan[17] = np.nan
    sub(with_nan, name="nan_label", expect_valid=False)
    sub(noisy + 0.5, name="fractional_labels", expect_valid=False)
    names = np.array(["CBB", "CBSD", "CGM", "CMD", "Healthy"])
    # Text against integer answers: scikit-learn compares element-wise (multiclass skips the type check), never equal.
    sub(names[noisy], name="text_labels")
    assert g.expected["text_labels"] == 0.0
    g.write(pd.DataFrame({"image_id": ids, "label": noisy})[:0], "header_only.csv")
    assert oracle(g, "header_only") is None
    g.record("header_only", None)
