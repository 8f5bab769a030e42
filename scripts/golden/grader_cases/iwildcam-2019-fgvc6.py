"""iwildcam-2019-fgvc6: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import f1_score


def _score(g, name):
    """Upstream's steps: equal length, both columns, ids equal after sorting, Python int() of every
    label, macro F1 over the labels seen on either side; None where any step raises."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or "Id" not in s.columns or "Category" not in s.columns:
        return None
    a = a.sort_values("Id")
    s = s.sort_values("Id")
    if (s["Id"].values != a["Id"].values).any():
        return None
    try:
        y_true = [int(y) for y in a["Category"]]
        y_pred = [int(y) for y in s["Category"]]
        return f1_score(y_true, y_pred, average="macro")
    except (ValueError, OverflowError, TypeError):
        return None


# iwildcam-2019-fgvc6: macro F1 of the animal Category, rows matched by camera-trap image Id.
def generate(g):
    n = 120
    ids = ["-".join(g.hex_ids(1, w)[0] for w in (8, 4, 4, 4, 12)) for _ in range(n)]
    classes = np.array([0, 1, 3, 4, 8, 10, 11, 13, 14, 16, 17, 18, 19, 22])
    # Empty images (class 0) dominate camera-trap data.
    truth = np.where(g.rng.rand(n) < 0.4, 0, g.rng.choice(classes, n))
    g.write(pd.DataFrame({"Id": ids, "Category": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.05, 0.72, 336), 5), reverse=True))

    def sub(pred, name, ids=ids, shuffle=True):
        df = pd.DataFrame({"Id": ids, "Category": pred})
        g.write(df.sample(frac=1, random_state=3) if shuffle else df, f"{name}.csv")

    noisy = np.where(g.rng.rand(n) < 0.3, g.rng.choice(classes, n), truth)
    sub(truth, "perfect")
    # Upstream writes its sample submission with the index, so it carries an unnamed first column.
    pd.DataFrame({"Id": ids, "Category": 0}).to_csv(g.path("sample_submission.csv"), index=True)
    sub(noisy, "noisy")
    sub(noisy.astype(float), "noisy_as_floats")
    # int() truncates toward zero: 3.9 is class 3 and -0.5 is class 0.
    sub(np.where(noisy == 0, -0.5, noisy + 0.9), "fractional_labels_truncated")
    sub(np.where(g.rng.rand(n) < 0.5, 999, truth), "unknown_classes")
    sub(np.full(n, 8), "constant_other_class")
    text = noisy.astype(str).astype(object)
    text[0], text[1], text[2] = "1_4", "\uff13", " 22 "  # int() reads digit groups and full-width digits
    sub(text, "labels_as_python_int_text")
    sub(noisy == 1, "boolean_labels")
    # Every label at or above 2**63 makes numpy use uint64, which scikit-learn still classifies.
    pd.DataFrame({"Id": ids, "Category": [str(2**63 + int(k)) for k in noisy]}).to_csv(g.path("all_labels_uint64.csv"), index=False)
    valid = (
        "perfect", "sample_submission", "noisy", "noisy_as_floats", "fractional_labels_truncated", "unknown_classes",
        "constant_other_class", "labels_as_python_int_text", "boolean_labels", "all_labels_uint64",
    )
    for name in valid:
        score = _score(g, name)
        assert score is not None, name
        g.record(name, score)
    assert g.expected["perfect"] == 1.0
    assert g.expected["fractional_labels_truncated"] == g.expected["noisy"] == g.expected["noisy_as_floats"]
    assert g.expected["all_labels_uint64"] == 0.0
    # Predicting class 0 everywhere: only class 0 scores (precision = its share, recall 1), averaged over all true classes.
    share = float(np.mean(truth == 0))
    assert g.expected["sample_submission"] == round(2 * share / (share + 1) / len(set(truth)), 5)

    # Refused: a missing column, a missing / extra / repeated id, labels int() or scikit-learn refuse.
    g.write(pd.DataFrame({"Id": ids, "Predicted": truth}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"Category": truth}), "no_id_column.csv")
    sub(noisy[:-1], "missing_id", ids=ids[:-1])
    sub(np.append(noisy, 0), "extra_id", ids=ids + ["00000000-0000-0000-0000-000000000000"])
    sub(noisy, "duplicate_id", ids=ids[:-1] + ids[:1])
    sub(noisy, "unknown_id", ids=ids[:-1] + ["ffffffff-0000-0000-0000-000000000000"])
    with_nan = noisy.astype(float)
    with_nan[5] = np.nan
    sub(with_nan, "nan_label")
    with_inf = noisy.astype(float)
    with_inf[7] = np.inf
    sub(with_inf, "infinite_label")
    words = noisy.astype(str).astype(object)
    words[3] = "deer"
    sub(words, "text_label")
    decimal_text = noisy.astype(str).astype(object)
    decimal_text[4] = "3.0x"
    sub(decimal_text, "unparseable_label")
    pd.DataFrame({"Id": ids, "Category": [str(2**63) if i == 0 else str(int(k)) for i, k in enumerate(noisy)]}).to_csv(
        g.path("one_label_beyond_int64.csv"), index=False
    )
    invalid = (
        "wrong_column_name", "no_id_column", "missing_id", "extra_id", "duplicate_id", "unknown_id", "nan_label",
        "infinite_label", "text_label", "unparseable_label", "one_label_beyond_int64",
    )
    for name in invalid:
        assert _score(g, name) is None, name
        g.record(name, None)
