"""text-normalization-challenge-english-language: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import csv

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score

# (before, after) token pairs; "NA", "None" and "null" are read as missing by pandas >= 2.0,
# and "7" keeps a digit as its normalised form so that numeric submission columns can match.
VOCAB = [
    ("the", "the"), ("cat", "cat"), ("sat", "sat"), (".", "."), (",", ","), ('"', '"'),
    ("12", "twelve"), ("1990", "nineteen ninety"), ("Dr.", "doctor"), ("2.5", "two point five"),
    ("kg", "kilograms"), ("BBC", "b b c"), ("3:30", "three thirty"), ("NA", "NA"),
    ("None", "None"), ("null", "null"), ("7", "7"), ("a, b", "a, b"),
]


def read(g, name):
    # Upstream runs pandas >= 2.2, whose default missing-value tokens include "None" (1.5's do not).
    return pd.read_csv(g.path(f"{name}.csv"), na_values=["None"], keep_default_na=True)


def score(g, name):
    """Accuracy by upstream's steps, or None where those steps refuse the submission."""
    a = read(g, "answers")
    s = read(g, name)
    if len(s) != len(a) or "after" not in s.columns or "id" not in s.columns:
        return None
    a = a.sort_values("id")
    s = s.sort_values("id")
    if (s["id"].values != a["id"].values).any():
        return None
    return accuracy_score(a["after"].astype(str).to_numpy(), s["after"].astype(str).to_numpy())


# text-normalization-challenge-english-language: accuracy of the normalised token text (cast to
# str on both sides), rows matched by "<sentence_id>_<token_id>".
def generate(g):
    sentences = 40
    rows = []
    for sid in range(sentences):
        for tid in range(g.rng.randint(3, 12)):
            before, after = VOCAB[g.rng.randint(len(VOCAB))]
            rows.append((f"{sid}_{tid}", before, after))
    ids = np.array([r[0] for r in rows])
    before = np.array([r[1] for r in rows], dtype=object)
    after = np.array([r[2] for r in rows], dtype=object)
    n = len(rows)
    # Upstream writes its answers and sample submission with every text field quoted.
    nonnumeric = {"quoting": csv.QUOTE_NONNUMERIC, "quotechar": '"'}
    pd.DataFrame({"id": ids, "after": after}).to_csv(g.path("answers.csv"), index=False, **nonnumeric)
    g.leaderboard(sorted(np.round(0.9976 - g.rng.uniform(0, 0.3, 260) ** 2, 5), reverse=True))

    def sub(name, values, id_values=ids, shuffle=False, columns=("id", "after"), **kw):
        df = pd.DataFrame({columns[0]: id_values, columns[1]: values})
        if shuffle:
            df = df.sample(frac=1, random_state=4)
        df.to_csv(g.path(f"{name}.csv"), index=False, **kw)

    wrong = g.rng.rand(n) < 0.25
    noisy = np.where(wrong, before, after)
    sub("perfect", after, **nonnumeric)
    sub("sample_before", before, **nonnumeric)
    sub("noisy_shuffled", noisy, shuffle=True)
    # Every missing-value spelling becomes NaN and then the text "nan", so they all match "NA".
    spelled = after.copy()
    spelled[after == "NA"] = ""
    spelled[after == "None"] = "nan"
    spelled[after == "null"] = "NULL"
    sub("na_spellings", spelled, shuffle=True)
    # An all-digit column is read as integers: "07" becomes 7, then "7", which matches.
    sub("all_digits", np.where(after == "7", "07", (np.arange(n) + 10).astype(str)))
    # A float column prints as "7.0", which does not match "7".
    sub("float_column", np.where(after == "7", "7.0", "2.5"))
    valid = ["perfect", "sample_before", "noisy_shuffled", "na_spellings", "all_digits", "float_column"]
    for name in valid:
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)
    assert g.expected["na_spellings"] == 1.0 and 0 < g.expected["all_digits"] < 1

    sub("missing_after", after, columns=("id", "normalized"))
    sub("missing_id", after, columns=("token", "after"))
    sub("missing_row", after[1:], id_values=ids[1:])
    sub("extra_row", np.append(after, "x"), id_values=np.append(ids, f"{sentences}_0"))
    dup = ids.copy()
    dup[4] = dup[5]
    sub("duplicate_id", after, id_values=dup)
    sub("dash_ids", after, id_values=np.char.replace(ids.astype(str), "_", "-"))
    blank = ids.astype(object)
    blank[9] = ""
    sub("blank_id", after, id_values=blank)
    invalid = ["missing_after", "missing_id", "missing_row", "extra_row", "duplicate_id", "dash_ids", "blank_id"]
    for name in invalid:
        assert score(g, name) is None, name
        g.record(name, None)
