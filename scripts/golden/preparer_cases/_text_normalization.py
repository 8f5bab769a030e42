"""Shared by the two text-normalization oracles (English and Russian): synthetic token tables
shaped like Kaggle's <lang>_train.csv and upstream's sentence-level split, re-done with pandas."""
import csv
import io
import os
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members

# Kaggle writes these files with every text field quoted and numbers bare.
NONNUMERIC = dict(index=False, quotechar='"', quoting=csv.QUOTE_NONNUMERIC)


def read_csv(path):
    """Upstream's read_csv (round-trip floats) as pandas 2.2 parses it: 2.x added "None" to the
    default missing-value tokens, which Debian's pandas 1.5 lacks."""
    return pd.read_csv(path, float_precision="round_trip", na_values=["None"])


def nonnumeric_bytes(df):
    buf = io.StringIO()
    df.to_csv(buf, **NONNUMERIC)
    return buf.getvalue().encode()


def token_table(vocab, n_sentences, seed):
    """Rows (sentence_id, token_id, class, before, after) with sentences numbered 0.. in order,
    as in Kaggle's file. vocab maps a class to (before, after) pairs; the class is drawn with
    PLAIN and PUNCT most likely, as in the real data."""
    rs = np.random.RandomState(seed)
    classes = list(vocab)
    weights = np.array([8.0 if c == "PLAIN" else 3.0 if c == "PUNCT" else 1.0 for c in classes])
    weights /= weights.sum()
    rows = []
    for sid in range(n_sentences):
        for tid in range(rs.randint(2, 13)):
            cls = classes[rs.choice(len(classes), p=weights)]
            before, after = vocab[cls][rs.randint(len(vocab[cls]))]
            rows.append((sid, tid, cls, before, after))
    return pd.DataFrame(rows, columns=["sentence_id", "token_id", "class", "before", "after"])


def make_raw(raw, lang, vocab, seed):
    train = token_table(vocab, 110, seed)
    # The stage-2 test files are unpacked by upstream but not used; small stand-ins suffice.
    test = token_table(vocab, 8, seed + 1)[["sentence_id", "token_id", "before"]]
    sample = pd.DataFrame({
        "id": test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str),
        "after": test["before"],
    })
    for name, df in [("%s_train.csv" % lang, train), ("%s_test_2.csv" % lang, test),
                     ("%s_sample_submission_2.csv" % lang, sample)]:
        write_zip_members(os.path.join(raw, name + ".zip"), {name: nonnumeric_bytes(df)})


def renumber(frame):
    """sentence_id replaced by the rank of its first appearance, counting from 0."""
    mapping = {old: new for new, old in enumerate(frame["sentence_id"].unique())}
    frame = frame.copy()
    frame["sentence_id"] = frame["sentence_id"].map(mapping)
    return frame


def with_token_ids(frame, value_column):
    out = pd.DataFrame({"id": frame["sentence_id"].astype(str) + "_" + frame["token_id"].astype(str)})
    out["after"] = frame[value_column].values
    return out


def prepare(raw, public, private, lang):
    for stem in ["%s_test_2" % lang, "%s_train" % lang, "%s_sample_submission_2" % lang]:
        with zipfile.ZipFile(os.path.join(raw, stem + ".csv.zip")) as z:
            z.extractall(raw)
    old_train = read_csv(os.path.join(raw, "%s_train.csv" % lang))
    # Whole sentences go to one side: 10% of the distinct sentence ids (random_state 0) are held out.
    _keep, held_out = train_test_split(old_train["sentence_id"].unique(), test_size=0.1, random_state=0)
    in_test = old_train["sentence_id"].isin(held_out)
    new_train = renumber(old_train[~in_test])
    answers_full = renumber(old_train[in_test])
    new_test = answers_full.drop(columns=["after", "class"])
    answers = with_token_ids(answers_full, "after")
    sample = with_token_ids(new_test, "before")
    answers.to_csv(os.path.join(private, "answers.csv"), **NONNUMERIC)
    sample.to_csv(os.path.join(private, "sample_submission.csv"), **NONNUMERIC)
    for stem, df in [("%s_train" % lang, new_train), ("%s_test_2" % lang, new_test),
                     ("%s_sample_submission_2" % lang, sample)]:
        csv_path = os.path.join(public, stem + ".csv")
        df.to_csv(csv_path, **NONNUMERIC)
        with zipfile.ZipFile(os.path.join(public, stem + ".csv.zip"), "w") as z:
            z.write(csv_path, arcname=stem + ".csv")
        os.remove(csv_path)
