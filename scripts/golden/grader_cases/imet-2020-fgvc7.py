"""imet-2020-fgvc7: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer


# imet-2020-fgvc7: micro F1 over space-separated attribute ids, rows matched by `id`.
def generate(g):
    n = 250
    ids = g.hex_ids(n, 32)
    attrs = np.arange(300)
    truth = [sorted(g.rng.choice(attrs, g.rng.randint(1, 6), replace=False)) for _ in range(n)]
    g.write(pd.DataFrame({"id": ids, "attribute_ids": [" ".join(map(str, t)) for t in truth]}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.3, 0.72, 110), 5), reverse=True))

    def score(name):
        """Upstream's steps: same length, ids equal after sorting, NaN -> "", split on whitespace,
        binarize over the answers' classes (unknown predicted ids dropped), micro F1."""
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert {"id", "attribute_ids"} <= set(s.columns) and len(s) == len(a)
        a = a.sort_values("id").reset_index(drop=True)
        s = s.sort_values("id").reset_index(drop=True)
        assert (a.id.values == s.id.values).all()
        a_lists = a.attribute_ids.fillna("").str.split()
        s_lists = s.attribute_ids.fillna("").str.split()
        classes = sorted(set(a_lists.explode().unique()))
        mlb = MultiLabelBinarizer(classes=classes, sparse_output=True)
        y_true = mlb.fit_transform(a_lists)
        y_pred = mlb.transform(s_lists)
        return f1_score(y_true, y_pred, average="micro")

    def write(name, preds, shuffle=True):
        df = pd.DataFrame({"id": ids, "attribute_ids": preds})
        g.write(df.sample(frac=1, random_state=5) if shuffle else df, f"{name}.csv")

    def noisy(t):
        keep = [a for a in t if g.rng.rand() < 0.6]
        extra = list(g.rng.choice(attrs, g.rng.randint(0, 3)))
        return " ".join(map(str, keep + extra))

    noisy_preds = [noisy(t) for t in truth]
    cases = {
        "perfect": [" ".join(map(str, t)) for t in truth],
        "sample_like": ["0 1 2"] * n,
        "noisy": noisy_preds,
        # Ids the answers never use (here 300+) are ignored, not counted as false positives.
        "unknown_ids": [p + " 1000 1001" for p in noisy_preds],
        "repeated_ids": [" ".join(map(str, list(t) + list(t))) for t in truth],
        "some_empty": [p if k % 4 else None for k, p in enumerate(noisy_preds)],
        "odd_whitespace": ["  " + p.replace(" ", " \t ") + " " for p in noisy_preds],
        "all_empty": [None] * n,
    }
    for name, preds in cases.items():
        write(name, preds)
        g.record(name, score(name))

    def invalid(name):
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    # pandas reads one id per row as integers (or floats with gaps), and `.str` refuses those.
    write("one_id_per_row", [str(t[0]) for t in truth])
    invalid("one_id_per_row")
    write("one_id_with_gaps", [str(t[0]) if k % 5 else None for k, t in enumerate(truth)])
    invalid("one_id_with_gaps")
    base = pd.DataFrame({"id": ids, "attribute_ids": noisy_preds})
    g.write(base.drop(columns="attribute_ids"), "missing_column.csv")
    g.write(base.rename(columns={"attribute_ids": "attributes"}), "wrong_column_name.csv")
    g.write(base.iloc[:-1], "missing_id.csv")
    g.write(pd.concat([base, pd.DataFrame({"id": ["f" * 32], "attribute_ids": ["1 2"]})]), "extra_id.csv")
    dup = base.copy()
    dup.loc[0, "id"] = dup.loc[1, "id"]
    g.write(dup, "duplicate_id.csv")
    for name in ["missing_column", "wrong_column_name", "missing_id", "extra_id", "duplicate_id"]:
        invalid(name)
