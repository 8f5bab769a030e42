"""jigsaw-toxic-comment-classification-challenge: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]


def _score(g, name):
    """Upstream's steps, written out: id and label columns present, equal lengths, both sides indexed
    and sorted by id, answers rows whose labels sum below 0 dropped (the mask aligned to the
    submission by id), then every non-id column in file order against the answers' labels."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if "id" not in s.columns or not set(CLASSES) <= set(s.columns) or len(s) != len(a):
        raise ValueError("columns or length")
    a = a.set_index("id").sort_index()
    s = s.set_index("id").sort_index()
    scored = a[CLASSES].sum(axis=1) >= 0
    a = a[scored]
    s = s[scored]  # aligned by label: an id the answers lack raises
    y_true = a.to_numpy()
    y_score = s.to_numpy()
    if y_score.shape != y_true.shape:
        raise ValueError("shape")
    y_score = y_score.astype(float)  # float() per cell, as check_array converts object arrays
    if not np.isfinite(y_score).all():
        raise ValueError("non-finite")
    return float(np.mean([roc_auc_score(y_true[:, c], y_score[:, c]) for c in range(y_true.shape[1])]))


# jigsaw-toxic-comment-classification-challenge: mean column-wise ROC AUC over scored (non -1) rows.
def generate(g):
    n = 120
    ids = g.hex_ids(n, 16)
    rates = [0.3, 0.08, 0.18, 0.05, 0.15, 0.06]
    truth = np.stack([(g.rng.rand(n) < r).astype(int) for r in rates], axis=1)
    unscored = g.rng.rand(n) < 0.45
    scored_rows = np.flatnonzero(~unscored)
    for c in range(len(CLASSES)):  # every label needs both classes among the scored rows
        truth[scored_rows[c], c] = 1
        truth[scored_rows[-1 - c], c] = 0
    labels = np.where(unscored[:, None], -1, truth)
    g.write(pd.DataFrame({"id": ids, **{c: labels[:, j] for j, c in enumerate(CLASSES)}}), "answers.csv")
    g.leaderboard(sorted(np.round(0.9885 - g.rng.gamma(1.2, 0.004, 600), 5), reverse=True))

    def frame(p, ids_=ids, cols=CLASSES):
        return pd.DataFrame({"id": ids_, **{c: p[:, j] for j, c in enumerate(cols)}})

    noisy = np.round(np.clip(truth * 0.35 + g.rng.rand(n, 6) * 0.65, 0, 1), 4)
    valid = {
        "perfect": frame(np.where(unscored[:, None], 0.5, truth.astype(float))),
        "sample_half": frame(np.full((n, 6), 0.5)),
        "noisy": frame(noisy),
        "shuffled": frame(noisy).sample(frac=1, random_state=7),
        # Non-id columns are taken in file order, whatever their names.
        "columns_reordered": frame(noisy)[["id"] + CLASSES[::-1]],
        # AUC only ranks, and upstream does not check the range.
        "out_of_range": frame(noisy * 10 - 3),
        "integers": frame(truth),
    }
    nan_unscored = noisy.copy()
    nan_unscored[np.flatnonzero(unscored)[0], 2] = np.nan
    valid["nan_in_unscored_row"] = frame(nan_unscored)
    text_unscored = frame(noisy)
    text_unscored["threat"] = text_unscored["threat"].astype(object)
    text_unscored.loc[np.flatnonzero(unscored)[1], "threat"] = "skip"
    valid["text_in_unscored_row"] = text_unscored
    # Two scored comments with the same id and the same values: counts still agree, so it scores.
    x, y = scored_rows[3], scored_rows[4]
    dup = frame(noisy)
    dup.loc[x] = dup.loc[y]
    valid["duplicate_scored_id"] = dup
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        g.record(name, _score(g, name))

    def bad(name, df):
        g.write(df, f"{name}.csv")
        try:
            _score(g, name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be refused")

    bad("missing_id_column", frame(noisy).drop(columns=["id"]))
    bad("missing_label_column", frame(noisy).drop(columns=["threat"]))
    bad("extra_column", frame(noisy).assign(comment_text="hello"))
    bad("missing_row", frame(noisy).iloc[1:])
    bad("extra_row", pd.concat([frame(noisy), frame(noisy[:1], ["ffffffffffffffff"])]))
    unknown = list(ids)
    unknown[scored_rows[2]] = "0123456789abcdeg"
    bad("unknown_id", frame(noisy, unknown))
    # A scored id repeated in place of an unscored one: the scored row counts differ.
    mixed = frame(noisy)
    mixed.loc[np.flatnonzero(unscored)[2]] = mixed.loc[scored_rows[5]]
    bad("duplicate_id_scored_count_differs", mixed)
    nan = noisy.copy()
    nan[scored_rows[6], 0] = np.nan
    bad("nan_in_scored_row", frame(nan))
    text = frame(noisy)
    text["insult"] = text["insult"].astype(object)
    text.loc[scored_rows[7], "insult"] = "high"
    bad("text_in_scored_row", text)
    inf = noisy.copy()
    inf[scored_rows[8], 1] = np.inf
    bad("infinite_in_scored_row", frame(inf))
