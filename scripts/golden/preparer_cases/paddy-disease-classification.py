"""paddy-disease-classification: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

LABELS = [
    "bacterial_leaf_blight", "bacterial_leaf_streak", "bacterial_panicle_blight", "blast", "brown_spot",
    "dead_heart", "downy_mildew", "hispa", "normal", "tungro",
]
VARIETIES = ["ADT45", "IR20", "KarnatakaPonni", "Onthanel", "Ponni", "Surya", "Zonal", "AndraPonni", "AtchayaPonni", "RR"]


def make_raw(raw):
    rs = np.random.RandomState(31)
    n = 160
    ids = ["%06d.jpg" % v for v in rs.choice(np.arange(100000, 111000), size=n, replace=False)]
    df = pd.DataFrame({
        "image_id": ids,
        "label": rs.choice(LABELS, size=n),
        "variety": rs.choice(VARIETIES, size=n, p=[0.6] + [0.4 / 9] * 9),
        "age": rs.choice([45, 47, 50, 55, 57, 60, 62, 65, 66, 67, 68, 70, 72, 73, 75, 77, 80, 82], size=n),
    })
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    for image_id, label in zip(df["image_id"], df["label"]):
        d = os.path.join(raw, "train_images", label)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, image_id), "wb") as f:
            f.write(b"\xff\xd8\xff fake paddy %s %s" % (label.encode(), image_id.encode()))
    # Kaggle's test images and its sample submission (label left empty), unused by the split.
    os.makedirs(os.path.join(raw, "test_images"))
    test_ids = ["%06d.jpg" % (200000 + k) for k in range(5)]
    for t in test_ids:
        with open(os.path.join(raw, "test_images", t), "wb") as f:
            f.write(b"\xff\xd8\xff fake test")
    pd.DataFrame({"image_id": test_ids, "label": [None] * 5}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    new_train, new_test = train_test_split(old_train, train_size=0.75, random_state=0)
    sample = new_test[["image_id", "label"]].copy()
    sample["label"] = ""
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    for row in new_train.itertuples():
        dest = os.path.join(public, "train_images", row.label)
        os.makedirs(dest, exist_ok=True)
        shutil.copy(os.path.join(raw, "train_images", row.label, row.image_id), os.path.join(dest, row.image_id))
    os.makedirs(os.path.join(public, "test_images"))
    for row in new_test.itertuples():
        shutil.copy(os.path.join(raw, "train_images", row.label, row.image_id), os.path.join(public, "test_images", row.image_id))
