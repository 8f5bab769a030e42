"""tensorflow-speech-recognition-challenge: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score

CORE = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go"]
AUXILIARY = ["bed", "bird", "cat", "dog", "happy", "house", "marvin", "sheila", "tree", "wow", "zero", "one", "two"]


def score(g, name):
    """Upstream's steps: equal row counts, both columns, ids equal after sorting, then accuracy
    (scikit-learn refuses a missing label mixed with text labels)."""
    # pandas >= 2.0 (upstream's) also reads "None" as missing; Debian's 1.5 needs telling.
    s = pd.read_csv(g.path(name + ".csv"), na_values=["None"])
    a = pd.read_csv(g.path("answers.csv"), na_values=["None"])
    if len(s) != len(a) or "label" not in s.columns or "fname" not in s.columns:
        return None
    s = s.sort_values("fname")
    a = a.sort_values("fname")
    if (s["fname"].to_numpy() != a["fname"].to_numpy()).any():
        return None
    try:
        return accuracy_score(a["label"].to_numpy(), s["label"].to_numpy())
    except (TypeError, ValueError):
        return None


# tensorflow-speech-recognition-challenge: accuracy of the raw folder label, rows matched by fname.
def generate(g):
    n = 400
    fnames = ["clip_%08d.wav" % i for i in range(n)]
    labels = CORE + AUXILIARY + ["_background_noise_"]
    p = np.r_[np.full(len(CORE), 0.06), np.full(len(AUXILIARY), 0.03), [0.01]]
    truth = g.rng.choice(labels, n, p=p / p.sum())
    g.write(pd.DataFrame({"fname": fnames, "label": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.6, 0.91, 1315), 5), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.2, g.rng.choice(labels, n), truth)
    # Kaggle's own classes: unknown/silence never match the raw folder labels.
    kaggle = np.array([v if v in CORE else ("silence" if v == "_background_noise_" else "unknown") for v in truth])
    nan_label = noisy.astype(object)
    nan_label[7] = np.nan
    subs = {
        "silence": pd.DataFrame({"fname": fnames, "label": "silence"}),
        "perfect": pd.DataFrame({"fname": fnames, "label": truth}),
        "noisy_shuffled": pd.DataFrame({"fname": fnames, "label": noisy}).sample(frac=1, random_state=12),
        "kaggle_classes": pd.DataFrame({"fname": fnames, "label": kaggle}),
        "extra_column": pd.DataFrame({"label": noisy, "fname": fnames, "confidence": 0.9}),
        "nan_label": pd.DataFrame({"fname": fnames, "label": nan_label}),
        # Numbers never equal the text labels: valid, scoring 0.
        "numeric_labels": pd.DataFrame({"fname": fnames, "label": g.rng.randint(0, 10, n)}),
        # "None" is read as NaN by pandas.
        "none_label": pd.DataFrame({"fname": fnames, "label": ["None"] + list(noisy[1:])}),
        "missing_column": pd.DataFrame({"fname": fnames, "word": noisy}),
        "missing_row": pd.DataFrame({"fname": fnames[1:], "label": noisy[1:]}),
        "duplicate_fname": pd.DataFrame({"fname": [fnames[1]] + fnames[1:], "label": noisy}),
        "wrong_fname": pd.DataFrame({"fname": fnames[:-1] + ["clip_99999999.wav"], "label": noisy}),
    }
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    assert g.expected["perfect"] == 1 and g.expected["silence"] == 0
    for name in ["nan_label", "none_label", "missing_column", "missing_row", "duplicate_fname", "wrong_fname"]:
        assert g.expected[name] is None, name
