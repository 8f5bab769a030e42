"""tgs-salt-identification-challenge: synthetic raw files and upstream's preparation steps.

Kaggle's competition_data.zip unpacks to competition_data/ with train.csv (id, rle_mask: empty
for images without salt), train/images and train/masks (one 101x101 PNG per id) and test/images;
depths.csv (id, z) sits next to it and covers train and test ids. Ids are 10 hex digits, so a few
are all digits or look like exponent notation ("1234e56789"), which must stay text. Images are
only copied, so they are stand-in bytes.
"""
import os
import shutil
import tempfile
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import zip_tree


def ids(rs, n):
    out = ["%010x" % v for v in rs.randint(0, 2**40, size=n, dtype=np.int64)]
    out[3] = "3358245432"
    out[7] = "1234e56789"
    out[11] = "0000000000"
    return out


def rle(rs):
    if rs.random_sample() < 0.4:
        return ""
    starts = np.sort(rs.choice(10000, size=rs.randint(1, 6), replace=False)) + 1
    # Runs stop short of the next start, as in Kaggle's masks (graders refuse overlapping runs).
    ends = list(starts[1:]) + [10202]
    return " ".join("%d %d" % (s, min(rs.randint(1, 101), e - s)) for s, e in zip(starts, ends))


def fake_png(path, tag):
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n stand-in " + tag.encode())


def make_raw(raw):
    rs = np.random.RandomState(2018)
    train_ids, test_ids = ids(rs, 120), ["%010x" % v for v in rs.randint(0, 2**40, size=30, dtype=np.int64)]
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "competition_data")
        for folder in ["train/images", "train/masks", "test/images"]:
            os.makedirs(os.path.join(base, folder))
        with open(os.path.join(base, "train.csv"), "w", newline="") as f:
            f.write("id,rle_mask\n" + "".join("%s,%s\n" % (i, rle(rs)) for i in train_ids))
        for i in train_ids:
            fake_png(os.path.join(base, "train", "images", i + ".png"), "image " + i)
            fake_png(os.path.join(base, "train", "masks", i + ".png"), "mask " + i)
        for i in test_ids:
            fake_png(os.path.join(base, "test", "images", i + ".png"), "test " + i)
        zip_tree(tmp, os.path.join(raw, "competition_data.zip"))
    everyone = train_ids + test_ids
    order = rs.permutation(len(everyone))
    with open(os.path.join(raw, "depths.csv"), "w", newline="") as f:
        f.write("id,z\n" + "".join("%s,%d\n" % (everyone[k], rs.randint(50, 960)) for k in order))


def prepare(raw, public, private):
    with zipfile.ZipFile(os.path.join(raw, "competition_data.zip")) as z:
        z.extractall(raw)
    data = os.path.join(raw, "competition_data")
    labels = pd.read_csv(os.path.join(data, "train.csv"), float_precision="round_trip").fillna("")
    train, test = train_test_split(labels, test_size=0.25, random_state=0)
    train.sort_values(by="id").to_csv(os.path.join(public, "train.csv"), index=False)
    test.sort_values(by="id").to_csv(os.path.join(private, "test.csv"), index=False)
    for folder in ["train/images", "train/masks", "test/images"]:
        os.makedirs(os.path.join(public, folder))
    for i in train["id"]:
        for kind in ["images", "masks"]:
            shutil.copyfile(os.path.join(data, "train", kind, i + ".png"), os.path.join(public, "train", kind, i + ".png"))
    for i in test["id"]:
        shutil.copyfile(os.path.join(data, "train", "images", i + ".png"), os.path.join(public, "test", "images", i + ".png"))
    sample = test.drop(columns=["rle_mask"]).copy()
    sample["rle_mask"] = "1 1"
    sample.sort_values(by="id").to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    depths = pd.read_csv(os.path.join(raw, "depths.csv"), float_precision="round_trip")
    depths[depths["id"].isin(set(train["id"]))].sort_values(by="id").to_csv(os.path.join(public, "depths.csv"), index=False)
