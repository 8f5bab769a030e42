"""petfinder-pawpularity-score: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

FLAGS = ["Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory", "Group", "Collage", "Human", "Occlusion", "Info", "Blur"]


def petfinder_raw(n=150, seed=21):
    rs = np.random.RandomState(seed)
    df = pd.DataFrame({"Id": [rs.bytes(16).hex() for _ in range(n)]})
    for flag in FLAGS:
        df[flag] = (rs.random_sample(n) < 0.3).astype(int)
    df["Pawpularity"] = rs.randint(1, 101, size=n)
    return df


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    rng = np.random.default_rng(0)
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    without = new_test.drop(columns=["Pawpularity"])
    sample = new_test[["Id", "Pawpularity"]].copy()
    sample["Pawpularity"] = rng.uniform(1, 100, len(sample)).round(2)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    without.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for folder, ids in (("train", new_train["Id"]), ("test", without["Id"])):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for i in ids:
            shutil.copy(os.path.join(raw, "train", i + ".jpg"), os.path.join(public, folder, i + ".jpg"))


def make_raw(raw):
    df = petfinder_raw()
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    for k, i in enumerate(df["Id"]):
        with open(os.path.join(raw, "train", i + ".jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0 fake pet photo %d %s" % (k, i.encode()))
    # Kaggle's own test set (a handful of rows) is in raw/ too; upstream ignores it.
    df.head(3).drop(columns=["Pawpularity"]).to_csv(os.path.join(raw, "test.csv"), index=False)
