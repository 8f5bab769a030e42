"""aptos2019-blindness-detection: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def aptos_raw(n=120, seed=5):
    rs = np.random.RandomState(seed)
    ids = ["%012x" % v for v in rs.randint(0, 2**40, size=n)]
    return pd.DataFrame({"id_code": ids, "diagnosis": rs.choice([0, 1, 2, 3, 4], size=n, p=[0.5, 0.1, 0.25, 0.05, 0.1])})


def aptos_images(raw_dir, df):
    """Tiny stand-ins for the retina photos: what matters is which file lands where."""
    os.makedirs(os.path.join(raw_dir, "train_images"), exist_ok=True)
    for i, code in enumerate(df["id_code"]):
        with open(os.path.join(raw_dir, "train_images", code + ".png"), "wb") as f:
            f.write(b"\x89PNG fake image %d %s" % (i, code.encode()))


def prepare(raw, public, private):
    import shutil
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    without = new_test.drop(columns=["diagnosis"])
    os.makedirs(os.path.join(public, "test_images"))
    os.makedirs(os.path.join(public, "train_images"))
    for code in new_train["id_code"]:
        shutil.copyfile(os.path.join(raw, "train_images", code + ".png"), os.path.join(public, "train_images", code + ".png"))
    for code in without["id_code"]:
        shutil.copyfile(os.path.join(raw, "train_images", code + ".png"), os.path.join(public, "test_images", code + ".png"))
    sample = new_test.copy()
    sample["diagnosis"] = 0
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    without.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    df = aptos_raw()
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    aptos_images(raw, df)
