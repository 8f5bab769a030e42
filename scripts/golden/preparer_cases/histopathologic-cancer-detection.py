"""histopathologic-cancer-detection: synthetic raw files and upstream's preparation steps."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def fake_tif(path, tag):
    """A few bytes standing in for a 96x96 patch: only which file lands where matters."""
    with open(path, "wb") as f:
        f.write(b"II*\x00 fake tiff " + tag.encode())


def make_raw(raw):
    rs = np.random.RandomState(96)
    n = 170
    ids = [rs.bytes(20).hex() for _ in range(n)]
    ids[5] = "0" * 12 + ids[5][12:]  # leading zeros: ids must stay text
    labels = (rs.random_sample(n) < 0.4).astype(int)
    pd.DataFrame({"id": ids, "label": labels}).to_csv(os.path.join(raw, "train_labels.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    for code in ids:
        fake_tif(os.path.join(raw, "train", code + ".tif"), code)
    # Kaggle's unlabelled patches: upstream only counts them, to size the new test split like the old.
    os.makedirs(os.path.join(raw, "test"))
    test_ids = [rs.bytes(20).hex() for _ in range(41)]
    for code in test_ids:
        fake_tif(os.path.join(raw, "test", code + ".tif"), code)
    pd.DataFrame({"id": test_ids, "label": 0}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    labels = pd.read_csv(os.path.join(raw, "train_labels.csv"))
    # pathlib's glob, unlike glob.glob, also counts names starting with a dot.
    n_unlabelled = len(list(Path(raw, "test").glob("*.tif")))
    ratio = n_unlabelled / (len(labels) + n_unlabelled)
    train_ids, test_ids = train_test_split(labels["id"], test_size=ratio, random_state=0)
    # Rows are picked by membership, so both files keep the original row order.
    train = labels[labels["id"].isin(train_ids)]
    test = labels[labels["id"].isin(test_ids)]
    for folder, ids in (("train", train_ids), ("test", test_ids)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for code in ids:
            shutil.copyfile(os.path.join(raw, "train", code + ".tif"), os.path.join(public, folder, code + ".tif"))
    sample = test.copy()
    sample["label"] = 0
    train.to_csv(os.path.join(public, "train_labels.csv"), index=False)
    test.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
