"""seti-breakthrough-listen: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def seti_raw(n=120, seed=41):
    rs = np.random.RandomState(seed)
    ids = [rs.bytes(8).hex()[:15] for _ in range(n)]
    # Kaggle's ids are 15 hex digits: some are all digits, or digits around one "e", and must stay
    # text with their leading zeros.
    ids[3] = "00001234567890a"
    ids[4] = "000123456789012"
    ids[5] = "12345e123456789"
    return pd.DataFrame({"id": ids, "target": (rs.random_sample(n) < 0.1).astype(int)})


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train_labels.csv"), float_precision="round_trip")
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    new_train.to_csv(os.path.join(public, "train_labels.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    shutil.copytree(os.path.join(raw, "old_leaky_data"), os.path.join(public, "old_leaky_data"), dirs_exist_ok=True)
    for folder, frame in (("train", new_train), ("test", new_test)):
        for i in frame["id"]:
            dst = os.path.join(public, folder, i[0], i + ".npy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(os.path.join(raw, "train", i[0], i + ".npy"), dst)
    sample = new_test.copy()
    sample["target"] = 0.5
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    df = seti_raw()
    df.to_csv(os.path.join(raw, "train_labels.csv"), index=False)
    for k, i in enumerate(df["id"]):
        folder = os.path.join(raw, "train", i[0])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, i + ".npy"), "wb") as f:
            f.write(b"\x93NUMPY fake cadence %d %s" % (k, i.encode()))
    # The earlier (leaky) release ships alongside; upstream copies it as it is.
    leaky = os.path.join(raw, "old_leaky_data")
    os.makedirs(os.path.join(leaky, "train_old", "a"))
    os.makedirs(os.path.join(leaky, "test_old", "0"))
    pd.DataFrame({"id": ["a0leaky000000001", "a0leaky000000002"], "target": [0, 1]}).to_csv(os.path.join(leaky, "train_labels_old.csv"), index=False)
    for sub, name in (("train_old/a", "a0leaky000000001.npy"), ("train_old/a", "a0leaky000000002.npy"), ("test_old/0", "0leaky000000003.npy")):
        with open(os.path.join(leaky, sub, name), "wb") as f:
            f.write(b"\x93NUMPY old " + name.encode())
    # Kaggle's own test folder is there too; upstream ignores it.
    os.makedirs(os.path.join(raw, "test", "f"))
    with open(os.path.join(raw, "test", "f", "f00000000000000.npy"), "wb") as f:
        f.write(b"\x93NUMPY unlabelled")
