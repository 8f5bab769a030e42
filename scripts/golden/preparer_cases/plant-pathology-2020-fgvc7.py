"""plant-pathology-2020-fgvc7: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

LABELS = ["healthy", "multiple_diseases", "rust", "scab"]


def fake_jpg(path, tag):
    """A few bytes standing in for a leaf photo: only which file lands where matters."""
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake apple leaf " + tag.encode() + b"\xff\xd9")


def make_raw(raw):
    rs = np.random.RandomState(1821)
    n = 180
    # Kaggle's rows run Train_0, Train_1, ... in order; each has exactly one label set.
    ids = ["Train_%d" % i for i in range(n)]
    which = rs.choice(4, size=n, p=[0.28, 0.05, 0.34, 0.33])
    frame = {"image_id": ids, **{c: (which == k).astype(int) for k, c in enumerate(LABELS)}}
    pd.DataFrame(frame).to_csv(os.path.join(raw, "train.csv"), index=False)
    test_ids = ["Test_%d" % i for i in range(6)]
    pd.DataFrame({"image_id": test_ids}).to_csv(os.path.join(raw, "test.csv"), index=False)
    pd.DataFrame({"image_id": test_ids, **{c: 0.25 for c in LABELS}}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)
    # Kaggle's images/ holds the unlabelled Test_ photos next to the Train_ ones.
    os.makedirs(os.path.join(raw, "images"))
    for name in ids + test_ids:
        fake_jpg(os.path.join(raw, "images", name + ".jpg"), name)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, answers = train_test_split(old, test_size=0.1, random_state=0)
    # Renumber: train photos become Train_0.. and test photos Test_0.., each in split order.
    renamed = {}
    for i, old_id in enumerate(train["image_id"].unique()):
        renamed[old_id] = "Train_%d" % i
    for i, old_id in enumerate(answers["image_id"].unique()):
        renamed[old_id] = "Test_%d" % i
    # Series.replace with a dict swaps every cell at most once (Train_5 -> Test_0 is not re-mapped).
    train["image_id"] = train["image_id"].replace(renamed)
    answers["image_id"] = answers["image_id"].replace(renamed)
    public_test = answers[["image_id"]].copy()
    sample = answers[["image_id"]].copy()
    sample[LABELS] = 0.25
    os.makedirs(os.path.join(public, "images"), exist_ok=True)
    for old_id in old["image_id"]:
        shutil.copyfile(os.path.join(raw, "images", old_id + ".jpg"), os.path.join(public, "images", renamed.get(old_id, old_id) + ".jpg"))
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    public_test.to_csv(os.path.join(public, "test.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
