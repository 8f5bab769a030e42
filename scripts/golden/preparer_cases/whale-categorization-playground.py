"""whale-categorization-playground: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (Image like "0000e88ab.jpg", Id like "w_f48451c" or "new_whale"), the
photos in train/ and test/, and sample_submission.csv. Most ids have one photo, some several,
and new_whale (unidentified) is by far the largest group."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

GUESS = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46"


def fake_jpg(path, tag):
    """A few bytes standing in for a fluke photo: only which file lands where matters."""
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake whale fluke " + tag.encode() + b"\xff\xd9")


def make_raw(raw):
    rs = np.random.RandomState(4251)
    n = 320
    whales = sorted(set("w_%07x" % v for v in rs.randint(0, 16 ** 7, 150)))
    # Zipf-like sizes: many whales seen once, a few seen often; new_whale about one photo in ten.
    weights = 1.0 / np.arange(1, len(whales) + 1) ** 0.9
    ids = list(rs.choice(whales, n, p=weights / weights.sum()))
    for i in rs.choice(n, 30, replace=False):
        ids[i] = "new_whale"
    images = ["%09x.jpg" % v for v in rs.randint(0, 16 ** 9, n, dtype=np.int64)]
    images[5] = "000123456.jpg"  # all digits before the suffix, still text
    df = pd.DataFrame({"Image": images, "Id": ids})
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    os.makedirs(os.path.join(raw, "test"))
    for name in images:
        fake_jpg(os.path.join(raw, "train", name), name)
    tests = ["00028a005.jpg", "000dcf7d8.jpg"]
    for name in tests:
        fake_jpg(os.path.join(raw, "test", name), name)
    pd.DataFrame({"Image": tests, "Id": GUESS}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    df = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    df["split"] = "undecided"
    rng = np.random.default_rng(0)
    for whale in df["Id"].unique():
        rows = df[df["Id"] == whale]
        if len(rows) > 1:
            two = rows.sample(2, random_state=0)
            df.loc[two.index[0], "split"] = "train"
            df.loc[two.index[1], "split"] = "test"
        else:
            df.loc[rows.index[0], "split"] = rng.choice(["train", "test"], replace=False, p=[1 - 0.1, 0.1])
    rest = df[df["split"] == "undecided"]
    rest_train, rest_test = train_test_split(rest, test_size=0.1, random_state=0)
    df.loc[rest_train.index, "split"] = "train"
    df.loc[rest_test.index, "split"] = "test"
    train = df[df["split"] == "train"].drop(columns=["split"]).copy()
    answers = df[df["split"] == "test"].drop(columns=["split"]).copy()
    unseen = set(answers["Id"]) - set(train["Id"])
    answers.loc[answers["Id"].isin(unseen), "Id"] = "new_whale"
    sample = answers.copy()
    sample["Id"] = GUESS
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for frame, folder in ((train, "train"), (answers, "test")):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for name in frame["Image"]:
            shutil.copyfile(os.path.join(raw, "train", name), os.path.join(public, folder, name))
