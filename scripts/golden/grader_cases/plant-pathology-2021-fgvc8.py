"""plant-pathology-2021-fgvc8: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

COMBOS = [
    ("scab", 4826), ("healthy", 4624), ("frog_eye_leaf_spot", 3181), ("rust", 1860), ("complex", 1602),
    ("powdery_mildew", 1184), ("scab frog_eye_leaf_spot", 686), ("scab frog_eye_leaf_spot complex", 200),
    ("frog_eye_leaf_spot complex", 165), ("rust frog_eye_leaf_spot", 120), ("rust complex", 97),
    ("powdery_mildew complex", 87),
]


def oracle(g, name):
    """Upstream's steps: columns, same length, images equal after sorting, NaN -> "", binarize over the
    answers' classes (unknown labels dropped), micro F1; None if refused or if pandas/scikit-learn fail."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if "image" not in s.columns or "labels" not in s.columns or len(s) != len(a):
        return None
    s = s.sort_values(by="image").reset_index(drop=True)
    a = a.sort_values(by="image").reset_index(drop=True)
    if not all(s["image"] == a["image"]):
        return None
    classes = sorted(set(a["labels"].str.split().explode().unique()))
    try:
        pred = s["labels"].fillna("").str.split()
        mlb = MultiLabelBinarizer(classes=classes, sparse_output=True)
        y_true = mlb.fit_transform(a["labels"].fillna("").str.split())
        y_pred = mlb.transform(pred)
    except (AttributeError, TypeError):
        return None
    return f1_score(y_true, y_pred, average="micro")


# plant-pathology-2021-fgvc8: micro F1 of space-separated disease labels, rows matched by image.
def generate(g):
    n = 220
    ids = [f"{h}.jpg" for h in g.hex_ids(n, 16)]
    combos = np.array([c for c, _ in COMBOS], dtype=object)
    weights = np.array([w for _, w in COMBOS], dtype=float)
    truth = g.rng.choice(combos, n, p=weights / weights.sum())
    g.write(pd.DataFrame({"image": ids, "labels": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.3, 0.88, 600), 5), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.3, g.rng.choice(combos, n), truth)
    order = g.rng.permutation(n)

    def sub(pred, rows=None, name=None, id_values=None, columns=("image", "labels"), expect_valid=True):
        rows = np.arange(n) if rows is None else rows
        id_values = np.asarray(ids if id_values is None else id_values, dtype=object)
        df = pd.DataFrame({columns[0]: id_values[rows], columns[1]: np.asarray(pred, dtype=object)[rows]})
        g.write(df, f"{name}.csv")
        score = oracle(g, name)
        assert (score is not None) == expect_valid, name
        g.record(name, score)

    sub(truth, name="perfect")
    sub(np.full(n, "healthy", dtype=object), name="sample_healthy")
    sub(noisy, name="noisy")
    sub(noisy, rows=order, name="noisy_shuffled")
    # Order within a row does not matter and a repeated label counts once.
    reordered = np.array([" ".join(reversed(t.split())) + " " + t.split()[0] for t in truth], dtype=object)
    sub(reordered, rows=order, name="reordered_repeated")
    assert g.expected["reordered_repeated"] == 1.0
    # Labels the answers never use are dropped before scoring; runs of whitespace separate labels.
    odd = np.array([t.replace(" ", "  \t") + (" black_rot" if i % 3 == 0 else "") for i, t in enumerate(noisy)], dtype=object)
    sub(odd, rows=order, name="unknown_labels_and_tabs")
    assert g.expected["unknown_labels_and_tabs"] == g.expected["noisy"]
    # Empty cells are read as NaN and mean "no labels".
    gaps = noisy.copy()
    gaps[g.rng.rand(n) < 0.2] = None
    sub(gaps, rows=order, name="some_empty")
    sub(np.full(n, None, dtype=object), name="all_empty")
    sub(np.full(n, "healthy scab rust complex frog_eye_leaf_spot powdery_mildew", dtype=object), name="every_label")
    # Refused ones.
    sub(noisy, rows=order[:-1], name="missing_row", expect_valid=False)
    sub(noisy, rows=np.append(order, order[0]), name="extra_row", expect_valid=False)
    dup = order.copy()
    dup[5] = dup[6]
    sub(noisy, rows=dup, name="duplicate_image", expect_valid=False)
    sub(noisy, name="wrong_target_column", columns=("image", "label"), expect_valid=False)
    sub(noisy, name="wrong_id_column", columns=("image_id", "labels"), expect_valid=False)
    sub(noisy, name="ids_without_extension", id_values=[i[:-4] for i in ids], expect_valid=False)
    sub(g.rng.randint(0, 6, n), name="numeric_labels", expect_valid=False)
    mixed = np.where(g.rng.rand(n) < 0.5, np.nan, 2.0).astype(object)
    sub(mixed, name="numbers_with_gaps", expect_valid=False)
    g.write(pd.DataFrame({"image": ids, "labels": noisy})[:0], "header_only.csv")
    assert oracle(g, "header_only") is None
    g.record("header_only", None)
