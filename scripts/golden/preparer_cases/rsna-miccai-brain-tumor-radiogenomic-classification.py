"""rsna-miccai-brain-tumor-radiogenomic-classification: synthetic raw files and upstream's steps.

Kaggle ships train_labels.csv (BraTS21ID as five zero-padded digits, MGMT_value 0/1) and
train/<BraTS21ID>/<FLAIR|T1w|T1wCE|T2w>/Image-<n>.dcm (plus test/ and sample_submission.csv,
which the preparer ignores). The ids must stay text: "00012" is a folder name, not 12."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

SEQUENCES = ["FLAIR", "T1w", "T1wCE", "T2w"]


def make_raw(raw):
    rs = np.random.RandomState(2021)
    ids = sorted(rs.choice(1010, 40, replace=False))
    ids = ["%05d" % v for v in ids]
    ids[0] = "00000"
    labels = pd.DataFrame({"BraTS21ID": ids, "MGMT_value": rs.randint(0, 2, len(ids))})
    labels.to_csv(os.path.join(raw, "train_labels.csv"), index=False)
    for bid in ids:
        for seq in SEQUENCES:
            folder = os.path.join(raw, "train", bid, seq)
            os.makedirs(folder)
            for k in rs.choice(300, rs.randint(1, 3), replace=False):
                with open(os.path.join(folder, "Image-%d.dcm" % (k + 1)), "wb") as f:
                    f.write(b"\x00" * 8 + b"DICM " + ("%s/%s/%d" % (bid, seq, k)).encode())
    # Kaggle's own test set sits next to train/; upstream leaves it alone.
    os.makedirs(os.path.join(raw, "test", "00001", "FLAIR"))
    with open(os.path.join(raw, "test", "00001", "FLAIR", "Image-1.dcm"), "wb") as f:
        f.write(b"DICM test")
    pd.DataFrame({"BraTS21ID": ["00001"], "MGMT_value": [0.5]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    old = pd.read_csv(raw / "train_labels.csv", dtype={"BraTS21ID": str, "MGMT_value": int}, float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    for frame, split in ((train, "train"), (test, "test")):
        for bid in frame["BraTS21ID"]:
            shutil.copytree(raw / "train" / bid, public / split / bid, dirs_exist_ok=True)
    sample = test.copy()
    sample["MGMT_value"] = 0.5
    train.to_csv(public / "train_labels.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)
