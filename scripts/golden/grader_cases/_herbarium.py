"""Shared by the three herbarium oracle modules: macro F1 of integer category ids, rows matched by Id,
every prediction passed through Python's int() as upstream's grader does."""
import numpy as np
import pandas as pd
from sklearn.metrics import f1_score


def oracle(g, name):
    """Upstream's steps: same length, both columns, ids equal after sorting, int() on both, macro F1; None if refused."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or "Id" not in s.columns or "Predicted" not in s.columns:
        return None
    s = s.sort_values("Id")
    a = a.sort_values("Id")
    if (s["Id"].values != a["Id"].values).any():
        return None
    try:
        y_true = [int(y) for y in a["Predicted"]]
        y_pred = [int(y) for y in s["Predicted"]]
    except (ValueError, OverflowError):
        return None
    return f1_score(y_true, y_pred, average="macro")


def generate_herbarium(g, n_categories, sample_value, top_score, teams, ids):
    n = len(ids)
    # A long-tailed pick of categories, so some appear many times and most once or twice.
    pool = g.rng.choice(n_categories, 120, replace=False)
    weights = 1.0 / np.arange(1, len(pool) + 1)
    truth = g.rng.choice(pool, n, p=weights / weights.sum())
    g.write(pd.DataFrame({"Id": ids, "Predicted": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.0, top_score, teams), 5), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.3, g.rng.choice(pool, n), truth)
    order = g.rng.permutation(n)

    def sub(pred, rows=None, name=None, id_values=None, columns=("Id", "Predicted"), expect_valid=True):
        rows = np.arange(n) if rows is None else rows
        id_values = np.asarray(ids if id_values is None else id_values, dtype=object)
        df = pd.DataFrame({columns[0]: id_values[rows], columns[1]: np.asarray(pred, dtype=object)[rows]})
        g.write(df, f"{name}.csv")
        score = oracle(g, name)
        assert (score is not None) == expect_valid, name
        g.record(name, score)

    sub(truth, name="perfect")
    sub(np.full(n, sample_value), name="sample_constant")
    sub(noisy, name="noisy")
    sub(noisy, rows=order, name="noisy_shuffled")
    # Categories never in the answers still count, each with F1 0, in the macro average.
    sub(np.where(g.rng.rand(n) < 0.2, n_categories + g.rng.randint(0, 50, n), noisy), rows=order, name="unseen_categories")
    # int() truncates floats toward zero: 12.75 counts as 12.
    sub(noisy + 0.75, rows=order, name="floats_truncated")
    assert g.expected["floats_truncated"] == g.expected["noisy"]
    # Float ids compare equal to the integer answer ids.
    sub(noisy, rows=order, name="float_ids", id_values=np.asarray(ids, dtype=float))
    # One underscore-grouped number makes the column text; int() still parses every cell.
    text = np.array([str(v) for v in noisy], dtype=object)
    text[3] = "_".join(str(noisy[3]))  if len(str(noisy[3])) > 1 else str(noisy[3]) + "_0"
    sub(text, name="text_numbers")
    # Refused ones.
    sub(noisy, rows=order[:-1], name="missing_row", expect_valid=False)
    sub(noisy, rows=np.append(order, order[0]), name="extra_row", expect_valid=False)
    dup = order.copy()
    dup[5] = dup[6]
    sub(noisy, rows=dup, name="duplicate_id", expect_valid=False)
    sub(noisy, name="lowercase_columns", columns=("id", "predicted"), expect_valid=False)
    sub(noisy, name="wrong_target_column", columns=("Id", "Category"), expect_valid=False)
    sub(noisy, name="prefixed_ids", id_values=[f"test-{i}" for i in ids], expect_valid=False)
    with_nan = noisy.astype(float)
    with_nan[11] = np.nan
    sub(with_nan, name="nan_prediction", expect_valid=False)
    with_inf = noisy.astype(float)
    with_inf[12] = np.inf
    sub(with_inf, name="inf_prediction", expect_valid=False)
    names = np.array([f"Species {v}" for v in noisy], dtype=object)
    sub(names, name="text_predictions", expect_valid=False)
    g.write(pd.DataFrame({"Id": ids, "Predicted": noisy})[:0], "header_only.csv")
    assert oracle(g, "header_only") is None
    g.record("header_only", None)
