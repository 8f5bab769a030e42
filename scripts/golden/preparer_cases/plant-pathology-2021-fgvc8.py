"""plant-pathology-2021-fgvc8: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (image like "800113bb65efe69e.jpg"; labels: one or more space-separated
disease names), train_images/<image>, test_images/ and sample_submission.csv."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# Label sets roughly as frequent as in Kaggle's data.
LABEL_SETS = [
    ("scab", 0.25), ("healthy", 0.25), ("frog_eye_leaf_spot", 0.17), ("rust", 0.1), ("complex", 0.08),
    ("powdery_mildew", 0.05), ("scab frog_eye_leaf_spot", 0.03), ("scab frog_eye_leaf_spot complex", 0.01),
    ("frog_eye_leaf_spot complex", 0.02), ("rust frog_eye_leaf_spot", 0.01), ("rust complex", 0.02),
    ("powdery_mildew complex", 0.01),
]


def fake_jpg(path, tag):
    """A few bytes standing in for a leaf photo: only which file lands where matters."""
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake apple leaf " + tag.encode() + b"\xff\xd9")


def make_raw(raw):
    rs = np.random.RandomState(2021)
    n = 160
    # Kaggle's names are 16 hex digits; some are all digits (the .jpg keeps them text).
    images = ["%016x.jpg" % v for v in rs.randint(0, 2 ** 62, n, dtype=np.int64)]
    images[7] = "8002cb321f8bfcdf.jpg"
    images[11] = "1000000000000123.jpg"
    names, p = zip(*LABEL_SETS)
    labels = rs.choice(names, n, p=np.array(p) / sum(p))
    pd.DataFrame({"image": images, "labels": labels}).to_csv(os.path.join(raw, "train.csv"), index=False)
    os.makedirs(os.path.join(raw, "train_images"))
    os.makedirs(os.path.join(raw, "test_images"))
    for name in images:
        fake_jpg(os.path.join(raw, "train_images", name), name)
    tests = ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"]
    for name in tests:
        fake_jpg(os.path.join(raw, "test_images", name), name)
    pd.DataFrame({"image": tests, "labels": "healthy"}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    df = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, answers = train_test_split(df, test_size=0.2, random_state=0)
    sample = answers.copy()
    sample["labels"] = "healthy"
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for frame, folder in ((train, "train_images"), (answers, "test_images")):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for name in frame["image"]:
            shutil.copyfile(os.path.join(raw, "train_images", name), os.path.join(public, folder, name))
