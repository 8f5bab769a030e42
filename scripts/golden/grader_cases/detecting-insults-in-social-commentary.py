"""detecting-insults-in-social-commentary: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

WORDS = ["you", "are", "an", "idiot", "great", "point", "moron", "thanks", "loser", "agree", "stupid",
         "nice", "fool", "café", "really", "shut", "up", "lol", "clown", "sir"]


def _auroc_or_none(a, s):
    """Upstream's steps, matched on the Comment text: columns, row count, numeric, min/max in [0, 1],
    comments equal after sorting both sides, then AUC."""
    if "Comment" not in s.columns or "Insult" not in s.columns or len(s) != len(a):
        return None
    try:
        pd.to_numeric(s["Insult"])
    except ValueError:
        return None
    if s["Insult"].min() < 0 or s["Insult"].max() > 1:
        return None
    s = s.sort_values("Comment")
    a = a.sort_values("Comment")
    if (s["Comment"].values != a["Comment"].values).any():
        return None
    y = s["Insult"].to_numpy(dtype=float)
    if np.isnan(y).any():
        return None  # scikit-learn refuses NaN scores
    return roc_auc_score(a["Insult"].to_numpy(), y)


def _comment(g, i):
    words = [WORDS[k] for k in g.rng.randint(0, len(WORDS), 3 + g.rng.randint(0, 6))]
    text = " ".join(words)
    # Kaggle's comments keep their surrounding quotes and escaped line breaks; some hold commas,
    # inner quotes or characters outside the BMP.
    extra = ["", ", really", "\\\\nwhat?", ' "quoted"', " \U0001F600", " \uff01"][i % 6]
    return f'"{text}{extra} #{i}"'


# detecting-insults-in-social-commentary: ROC AUC of Insult, rows matched on the Comment text.
def generate(g):
    n = 100
    comments = [_comment(g, i) for i in range(n)]
    # Some texts repeat (one three times) with differing labels, as Kaggle's test set repeats some comments.
    comments[40] = comments[41]
    comments[90] = comments[91]
    comments[60] = comments[75] = comments[10]
    comments[21] = comments[20]
    truth = (g.rng.rand(n) < 0.3).astype(int)
    truth[40], truth[41], truth[90], truth[91] = 1, 0, 0, 1
    truth[10], truth[60], truth[75], truth[20], truth[21] = 1, 0, 0, 0, 1
    dates = [f"2012{g.rng.randint(1, 10):02d}{g.rng.randint(10, 29)}{g.rng.randint(100000, 235959)}Z" for _ in range(n)]
    for i in range(0, n, 7):
        dates[i] = None
    usage = np.where(g.rng.rand(n) < 0.5, "PublicTest", "PrivateTest")
    answers = pd.DataFrame({"Insult": truth, "Date": dates, "Comment": comments, "Usage": usage})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.72, 0.843, 50), 5), reverse=True) + sorted(np.round(g.rng.uniform(0.5, 0.72, 60), 5), reverse=True))
    noisy = np.clip(truth * 0.45 + g.rng.rand(n) * 0.6, 0, 1)
    # Repeated comments get one score, as any model of the text would give them.
    apart = noisy.copy()
    noisy[40] = noisy[41]
    noisy[90] = noisy[91]
    noisy[60] = noisy[75] = noisy[10]
    noisy[21] = noisy[20]

    def sub(pred, comment=comments, date=dates):
        return pd.DataFrame({"Insult": pred, "Date": date, "Comment": comment})

    subs = {
        "gold": sub(truth),
        "sample_null": sub(np.zeros(n, dtype=int)),
        "noisy": sub(noisy),
        "noisy_shuffled": sub(noisy).sample(frac=1, random_state=7),
        "ties": sub(np.round(noisy, 1)),
        "without_date": pd.DataFrame({"Comment": comments, "Insult": noisy}),
        # A model that also reads the date scores repeated comments apart; with rows reordered,
        # upstream's unstable sort decides which answer row each of them is compared with.
        "repeats_scored_apart_shuffled": sub(apart).sample(frac=1, random_state=3),
    }
    bad = noisy.copy()
    bad[3] = 2.0
    subs["out_of_range"] = sub(bad)
    bad = noisy.copy()
    bad[8] = np.nan
    subs["nan_value"] = sub(bad)
    text = noisy.astype(object)
    text[2] = "insult"
    subs["text_value"] = sub(text)
    subs["missing_comment_column"] = pd.DataFrame({"Insult": noisy, "Date": dates})
    subs["missing_insult_column"] = pd.DataFrame({"Date": dates, "Comment": comments})
    subs["missing_row"] = sub(noisy[1:], comments[1:], dates[1:])
    subs["extra_row"] = sub(np.append(noisy, 0.1), comments + ['"new comment"'], dates + [None])
    edited = list(comments)
    edited[12] = edited[12].strip('"')  # the surrounding quotes are part of the text
    subs["comment_edited"] = sub(noisy, edited)
    once = list(comments)
    once[40] = '"a comment not in the test set"'  # a repeated comment given only once
    subs["repeat_missing"] = sub(noisy, once)
    for name, df in subs.items():
        g.write(df, f"{name}.csv")
        g.record(name, _auroc_or_none(g.read("answers.csv"), g.read(f"{name}.csv")))
    for name in ("gold", "sample_null", "noisy", "noisy_shuffled", "ties", "without_date"):
        assert g.expected[name] is not None, name
    assert g.expected["noisy"] == g.expected["noisy_shuffled"] == g.expected["without_date"]
    # The case above must tell numpy's pairing from a first-with-first (stable) one.
    a = g.read("answers.csv").sort_values("Comment", kind="mergesort")
    s = g.read("repeats_scored_apart_shuffled.csv").sort_values("Comment", kind="mergesort")
    stable = round(roc_auc_score(a["Insult"].to_numpy(), s["Insult"].to_numpy()), 5)
    assert stable != g.expected["repeats_scored_apart_shuffled"], stable
