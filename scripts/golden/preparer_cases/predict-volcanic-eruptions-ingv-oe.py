"""predict-volcanic-eruptions-ingv-oe: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def make_raw(raw_dir, n=60):
    rs = np.random.RandomState(5)
    ids = np.unique(rs.randint(1000000, 2147483647, size=n))
    rs.shuffle(ids)
    times = rs.randint(6000, 49000000, size=len(ids))
    pd.DataFrame({"segment_id": ids, "time_to_eruption": times}).to_csv(os.path.join(raw_dir, "train.csv"), index=False)
    os.makedirs(os.path.join(raw_dir, "train"))
    os.makedirs(os.path.join(raw_dir, "test"))
    for sid in ids:
        # A few sensor rows; whole sensors go silent (empty) as in Kaggle's files.
        data = {"sensor_%d" % k: rs.randint(-900, 900, size=4).astype(float) for k in range(1, 11)}
        data["sensor_%d" % rs.randint(1, 11)] = np.nan
        pd.DataFrame(data).to_csv(os.path.join(raw_dir, "train", "%d.csv" % sid), index=False)
    for sid in rs.randint(1000000, 2147483647, size=3):
        pd.DataFrame({"sensor_1": [1, 2]}).to_csv(os.path.join(raw_dir, "test", "%d.csv" % sid), index=False)
    pd.DataFrame({"segment_id": [1, 2], "time_to_eruption": [0, 0]}).to_csv(os.path.join(raw_dir, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    sample = test.copy()
    sample["time_to_eruption"] = 0
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for folder, part in (("train", train), ("test", test)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for sid in part["segment_id"]:
            shutil.copyfile(os.path.join(raw, "train", "%s.csv" % sid), os.path.join(public, folder, "%s.csv" % sid))
