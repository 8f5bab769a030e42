"""jigsaw-unintended-bias-in-toxicity-classification: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd

from _freetext import sprinkle_na, text

IDENTITIES = [
    "male", "female", "transgender", "other_gender", "heterosexual", "homosexual_gay_or_lesbian", "bisexual",
    "other_sexual_orientation", "christian", "jewish", "muslim", "hindu", "buddhist", "atheist", "other_religion",
    "black", "white", "asian", "latino", "other_race_or_ethnicity", "physical_disability",
    "intellectual_or_learning_disability", "psychiatric_or_mental_illness", "other_disability",
]
SUBTYPES = ["severe_toxicity", "obscene", "sexual_explicit", "identity_attack", "insult", "threat"]
META = ["created_date", "publication_id", "parent_id", "article_id", "rating", "funny", "wow", "sad", "likes", "disagree"]


def votes(rs, n, raters):
    """Shares of raters, as Civil Comments publishes them (0.0, 0.166667, ...)."""
    return np.round(rs.randint(0, raters + 1, size=n) / raters, 6)


def comments_frame(rs, n, first_id, target):
    df = pd.DataFrame({"id": np.arange(first_id, first_id + 7 * n, 7)[:n]})
    df["comment_text"] = sprinkle_na(rs, [text(rs, 2, 40) for _ in range(n)], 0.03)
    df["created_date"] = ["2017-%02d-%02d %02d:%02d:%02d.%06d+00" % tuple(v) for v in
                          zip(rs.randint(1, 13, n), rs.randint(1, 29, n), rs.randint(0, 24, n), rs.randint(0, 60, n),
                              rs.randint(0, 60, n), rs.randint(0, 999999, n))]
    df["publication_id"] = rs.choice([21, 54, 102, 13], size=n)
    parent = rs.randint(400000, 6000000, size=n).astype(float)
    parent[rs.random_sample(n) < 0.5] = np.nan
    df["parent_id"] = parent
    df["article_id"] = rs.randint(2000, 400000, size=n)
    df["rating"] = rs.choice(["approved", "rejected"], size=n, p=[0.9, 0.1])
    for c in META[5:]:
        df[c] = rs.poisson(0.5, size=n)
    df[target] = votes(rs, n, 6)
    for c in SUBTYPES:
        df[c] = votes(rs, n, 6)
    for c in IDENTITIES:
        col = votes(rs, n, 4)
        col[rs.random_sample(n) < 0.7] = np.nan
        df[c] = col
    df["identity_annotator_count"] = rs.randint(0, 5, size=n)
    df["toxicity_annotator_count"] = rs.randint(4, 10, size=n)
    return df


def jigsaw_raw(seed=51):
    rs = np.random.RandomState(seed)
    train = comments_frame(rs, 200, 59848, "target")
    train = train[["id", "target", "comment_text"] + SUBTYPES[:2] + SUBTYPES[3:] + sorted(IDENTITIES) + META
                  + ["sexual_explicit", "identity_annotator_count", "toxicity_annotator_count"]]
    test = comments_frame(rs, 150, 7000000, "toxicity")
    test = test[["id", "comment_text"] + META + ["toxicity"] + SUBTYPES + IDENTITIES
                + ["identity_annotator_count", "toxicity_annotator_count"]]
    return train, test


def prepare(raw, public, private):
    test = pd.read_csv(os.path.join(raw, "test_private_expanded.csv"), float_precision="round_trip")
    test_public = test[["id", "comment_text"]]
    shutil.copy(os.path.join(raw, "test_private_expanded.csv"), os.path.join(private, "test.csv"))
    shutil.copy(os.path.join(raw, "train.csv"), os.path.join(public, "train.csv"))
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    sample = test_public.copy().drop(columns=["comment_text"])
    sample["prediction"] = 0.0
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    train, test = jigsaw_raw()
    train.to_csv(os.path.join(raw, "train.csv"), index=False)
    test.to_csv(os.path.join(raw, "test_private_expanded.csv"), index=False)
