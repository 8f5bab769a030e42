"""jigsaw-toxic-comment-classification-challenge: synthetic raw files and upstream's preparation steps."""
import csv
import io
import os
import zipfile

import numpy as np
import pandas as pd

from _common import write_zip_members

CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]

# Wikipedia talk-page comments: multi-line, quoted, with unicode, commas and a comment that pandas
# reads as missing ("N/A").
PIECES = [
    "Explanation\nWhy the edits made under my username were reverted?",
    "D'aww! He matches this background colour I'm seemingly stuck with.",
    'He said "stop", then left, and never came back.',
    "== Sources ==\n\n* Smith, J. (2004)\n* Ünal, K. — \"Ölçüm\"",
    "you are a stupid ,,,, idiot!!!",
    "Привет, как дела? 你好 🙂",
    "  leading spaces and trailing  ",
    "Line one\r\nline two (Windows line end inside the text)",
    "12345",
    "I will find you",
    "\"Quoted from start to end\"",
    "N/A",
]


def hex_ids(rs, n):
    ids = ["".join(rs.choice(list("0123456789abcdef"), size=16)) for _ in range(n)]
    ids[3] = "0000000000001234"  # all digits: still text, leading zeros kept
    return ids


def comments(rs, n):
    return [" ".join(rs.choice(PIECES, size=rs.randint(1, 4))) for _ in range(n)]


def nonnumeric_bytes(df):
    buf = io.StringIO()
    df.to_csv(buf, index=False, quoting=csv.QUOTE_NONNUMERIC)
    return buf.getvalue().encode()


def minimal_bytes(df):
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    return buf.getvalue().encode()


def make_raw(raw):
    rs = np.random.RandomState(5)
    n_train, n_test = 240, 160
    ids = hex_ids(rs, n_train + n_test)
    train = pd.DataFrame({"id": ids[:n_train], "comment_text": comments(rs, n_train)})
    for c in CLASSES:
        train[c] = (rs.random_sample(n_train) < 0.15).astype(int)
    test_ids = ids[n_train:]
    test = pd.DataFrame({"id": test_ids, "comment_text": comments(rs, n_test)})
    # Rows Kaggle never scored carry -1 in every label.
    scored = rs.random_sample(n_test) < 0.4
    labels = pd.DataFrame({"id": test_ids})
    for c in CLASSES:
        labels[c] = np.where(scored, (rs.random_sample(n_test) < 0.1).astype(int), -1)
    sample = pd.DataFrame({"id": test_ids})
    for c in CLASSES:
        sample[c] = 0.5
    # Kaggle quotes every text field in train.csv and test.csv, but not in the two small files.
    write_zip_members(os.path.join(raw, "train.csv.zip"), {"train.csv": nonnumeric_bytes(train)})
    write_zip_members(os.path.join(raw, "test.csv.zip"), {"test.csv": nonnumeric_bytes(test)})
    write_zip_members(os.path.join(raw, "test_labels.csv.zip"), {"test_labels.csv": minimal_bytes(labels)})
    write_zip_members(os.path.join(raw, "sample_submission.csv.zip"), {"sample_submission.csv": minimal_bytes(sample)})


def read_csv(path):
    # Upstream's read_csv, with pandas 2.2's extra default missing-value token.
    return pd.read_csv(path, float_precision="round_trip", na_values=["None"])


def prepare(raw, public, private):
    for name in ["train", "test", "test_labels", "sample_submission"]:
        with zipfile.ZipFile(os.path.join(raw, name + ".csv.zip")) as z:
            z.extractall(raw)
    train = read_csv(os.path.join(raw, "train.csv"))
    test = read_csv(os.path.join(raw, "test.csv"))
    labels = read_csv(os.path.join(raw, "test_labels.csv"))
    sample = read_csv(os.path.join(raw, "sample_submission.csv"))
    sample[CLASSES] = 0.5
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    labels.to_csv(os.path.join(private, "test.csv"), index=False)
