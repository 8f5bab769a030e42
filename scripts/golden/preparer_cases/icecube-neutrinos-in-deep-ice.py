"""icecube-neutrinos-in-deep-ice: synthetic raw files and upstream's preparation steps.

Upstream writes its two metadata tables with fastparquet (Snappy pages, fastparquet's own
metadata); those bytes cannot be matched, so here, as in mlebench-ts, they are written in the
plain fixed layout of _parquet.write_plain. The md5s then check the rows, columns and types.
"""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _parquet import read_parquet, write_like_pyarrow, write_plain


def make_raw(raw):
    rs = np.random.RandomState(660)
    batches, per_batch = 30, 40
    n = batches * per_batch
    pulses = rs.randint(5, 200, size=n)
    last = np.cumsum(pulses) - 1
    first = last - pulses + 1
    meta = pd.DataFrame({
        "batch_id": np.repeat(np.arange(1, batches + 1), per_batch).astype(np.int64),
        "event_id": np.cumsum(rs.randint(1, 5000, size=n)).astype(np.int64) + 23,
        "first_pulse_index": first.astype(np.int64),
        "last_pulse_index": last.astype(np.int64),
        "azimuth": rs.uniform(0, 2 * np.pi, size=n),
        "zenith": np.arccos(rs.uniform(-1, 1, size=n)),
    })
    meta.loc[5, "zenith"] = 0.0
    meta.loc[6, "azimuth"] = 1e-05
    write_like_pyarrow(meta, os.path.join(raw, "train_meta.parquet"), row_group_rows=500, page_rows=170,
                       dictionary=("batch_id",), v2=("first_pulse_index",))
    geometry = pd.DataFrame({"sensor_id": np.arange(60), "x": np.round(rs.uniform(-570, 577, 60), 2),
                             "y": np.round(rs.uniform(-521, 510, 60), 2), "z": np.round(rs.uniform(-512, 524, 60), 2)})
    geometry.to_csv(os.path.join(raw, "sensor_geometry.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    os.makedirs(os.path.join(raw, "test"))
    # Pulse files are only copied, so stand-ins do; batch 999 is listed nowhere and stays behind.
    for b in list(range(1, batches + 1)) + [999]:
        with open(os.path.join(raw, "train", "batch_%d.parquet" % b), "wb") as f:
            f.write(b"PAR1 pulses of batch %d PAR1" % b)
    with open(os.path.join(raw, "test", "batch_661.parquet"), "wb") as f:
        f.write(b"PAR1 test pulses PAR1")
    # Kaggle's own (unlabelled) test set, which upstream leaves alone.
    test_meta = pd.DataFrame({"batch_id": [661, 661], "event_id": [2092, 7344], "first_pulse_index": [0, 61], "last_pulse_index": [60, 99]})
    write_like_pyarrow(test_meta, os.path.join(raw, "test_meta.parquet"), row_group_rows=500, page_rows=500)
    write_like_pyarrow(pd.DataFrame({"event_id": [2092, 7344], "azimuth": [1.0, 1.0], "zenith": [1.0, 1.0]}),
                       os.path.join(raw, "sample_submission.parquet"), row_group_rows=500, page_rows=500)


def prepare(raw, public, private):
    old = read_parquet(os.path.join(raw, "train_meta.parquet"))
    batch_ids = old["batch_id"].unique()
    train_batches, test_batches = train_test_split(batch_ids, test_size=0.1, random_state=0)
    old["split"] = None
    old.loc[old["batch_id"].isin(train_batches), "split"] = "train"
    old.loc[old["batch_id"].isin(test_batches), "split"] = "test"
    new_train = old[old["split"] == "train"].drop(columns=["split"]).reset_index(drop=True)
    new_test = old[old["split"] == "test"].drop(columns=["split"]).reset_index(drop=True)
    unlabelled = new_test.drop(columns=["azimuth", "zenith"])
    new_test = new_test[["event_id", "azimuth", "zenith"]]
    sample = new_test.copy()
    sample["azimuth"] = 1
    sample["zenith"] = 1

    write_plain(new_train, os.path.join(public, "train_meta.parquet"))
    write_plain(unlabelled, os.path.join(public, "test_meta.parquet"))
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    shutil.copy(os.path.join(raw, "sensor_geometry.csv"), os.path.join(public, "sensor_geometry.csv"))

    train_set, test_set = set(train_batches), set(test_batches)
    for folder in ("train", "test"):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
    for name in sorted(os.listdir(os.path.join(raw, "train"))):
        if not name.endswith(".parquet"):
            continue
        batch = int(name[: -len(".parquet")].split("_")[-1])
        if batch in train_set:
            shutil.copy(os.path.join(raw, "train", name), os.path.join(public, "train", name))
        elif batch in test_set:
            shutil.copy(os.path.join(raw, "train", name), os.path.join(public, "test", name))
