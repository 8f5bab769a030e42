"""freesound-audio-tagging-2019: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import re

import numpy as np
import pandas as pd
from sklearn.metrics import label_ranking_average_precision_score

CLASSES_TS = "src/competitions/freesound-audio-tagging-2019/classes.ts"


def class_names():
    with open(CLASSES_TS) as f:
        return re.findall(r'^\s*"([^"]+)",\s*$', f.read(), re.M)


# freesound-audio-tagging-2019: lwlrap of the submission's scores against the answers' labels.
# (Upstream's prepare_for_metric returns (answers, submission) and grade unpacks them as
# `sub, ans`: the two names are swapped and cancel out, so the truth is the answers.)
def generate(g):
    classes = class_names()
    assert len(classes) == 80
    n = 30
    fnames = [h + ".wav" for h in g.hex_ids(n, 8)]
    truth = np.zeros((n, 80), dtype=int)
    for i in range(n):
        truth[i, g.rng.choice(80, g.rng.choice([1, 1, 2, 3]), replace=False)] = 1
    ans = pd.DataFrame(truth, columns=classes)
    ans.insert(0, "fname", fnames)
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.5, 0.7575, 880), 4), reverse=True))

    def score(name):
        """Upstream's steps: same length, first column fname, exact class columns, ids equal after
        sorting, to_numeric (dtypes kept: a boolean column stays boolean and scikit-learn cannot
        negate it), then sklearn LRAP of the submission against answers > 0, weighted by each
        row's number of labels, rows without labels skipped."""
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert len(s) == len(a) and s.columns[0] == "fname" and list(s.columns[1:]) == classes
        s = s.sort_values("fname").reset_index(drop=True)
        a = a.sort_values("fname").reset_index(drop=True)
        assert (s.fname.values == a.fname.values).all()
        sub = s.iloc[:, 1:].apply(pd.to_numeric).to_numpy()
        tru = a.iloc[:, 1:].apply(pd.to_numeric).to_numpy()
        weight = np.sum(tru > 0, axis=1)
        keep = np.flatnonzero(weight > 0)
        return label_ranking_average_precision_score(tru[keep] > 0, sub[keep], sample_weight=weight[keep])

    def score_or_none(name):
        try:
            return score(name)
        except Exception:
            return None

    def write(name, values, shuffle=True, names=None):
        df = pd.DataFrame(values, columns=names or classes)
        df.insert(0, "fname", fnames)
        g.write(df.sample(frac=1, random_state=2) if shuffle else df, f"{name}.csv")

    noisy = np.where(g.rng.rand(n, 80) < 0.08, np.round(g.rng.rand(n, 80), 2), 0.0)
    noisy[truth == 1] = np.where(g.rng.rand(int(truth.sum())) < 0.6, 0.9, 0.0)
    top = np.zeros((n, 80), dtype=int)
    top[np.arange(n), g.rng.randint(0, 80, n)] = 1
    top[truth == 1] |= (g.rng.rand(int(truth.sum())) < 0.5).astype(int)
    signed = np.where(noisy > 0, 1, -1)
    some_zero_rows = noisy.copy()
    some_zero_rows[::3] = 0
    gaps = noisy.copy()
    gaps[g.rng.rand(n, 80) < 0.2] = np.nan
    all_positive = np.round(g.rng.rand(n, 80), 2) + 0.01
    cases = {
        "perfect": truth,
        # A constant row ranks every label equal, so each true label gets the worst rank.
        "sample_like": np.full((n, 80), 0.0125),
        "all_zero": np.zeros((n, 80), dtype=int),
        "all_positive": all_positive,
        "noisy": noisy,
        "one_hot_guess": top,
        "signed": signed,
        "some_zero_rows": some_zero_rows,
        "gaps": gaps,
        "booleans": noisy > 0,
    }
    # gaps (NaN) and booleans are refused by scikit-learn's input checks.
    for name, values in cases.items():
        write(name, values)
        g.record(name, score_or_none(name))
    write("file_order", noisy, shuffle=False)
    g.record("file_order", score("file_order"))

    def invalid(name):
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    swapped = classes[:]
    swapped[3], swapped[4] = swapped[4], swapped[3]
    write("swapped_columns", top, names=swapped)
    write("missing_class", top[:, :79], names=classes[:79])
    write("extra_class", np.hstack([top, top[:, :1]]), names=classes + ["Silence"])
    base = pd.DataFrame(top, columns=classes)
    base.insert(0, "fname", fnames)
    g.write(base.iloc[:-1], "missing_row.csv")
    g.write(base[["Accordion", "fname"] + [c for c in classes if c != "Accordion"]], "fname_not_first.csv")
    g.write(base.rename(columns={"fname": "id"}), "wrong_id_name.csv")
    dup = base.copy()
    dup.loc[0, "fname"] = dup.loc[1, "fname"]
    g.write(dup, "duplicate_fname.csv")
    text = base.astype({"Bark": object})
    text.loc[2, "Bark"] = "yes"
    g.write(text, "text_value.csv")
    for name in ["swapped_columns", "missing_class", "extra_class", "missing_row", "fname_not_first",
                 "wrong_id_name", "duplicate_fname", "text_value"]:
        invalid(name)
