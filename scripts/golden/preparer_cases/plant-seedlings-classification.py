"""plant-seedlings-classification: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

SPECIES = [
    "Black-grass", "Charlock", "Cleavers", "Common Chickweed", "Common wheat", "Fat Hen", "Loose Silky-bent",
    "Maize", "Scentless Mayweed", "Shepherds Purse", "Small-flowered Cranesbill", "Sugar beet",
]


def make_raw(raw):
    rs = np.random.RandomState(12)
    for species in SPECIES:
        d = os.path.join(raw, "train", species)
        os.makedirs(d)
        for _ in range(rs.randint(3, 16)):
            name = "%09x.png" % rs.randint(0, 2**31)
            with open(os.path.join(d, name), "wb") as f:
                f.write(b"\x89PNG fake seedling %s %s" % (species.encode(), name.encode()))
    # Files the listing must skip: not .png, or not inside a species folder.
    with open(os.path.join(raw, "train", "Maize", "Thumbs.db"), "wb") as f:
        f.write(b"junk")
    with open(os.path.join(raw, "train", "Charlock", "upper.PNG"), "wb") as f:
        f.write(b"junk")
    with open(os.path.join(raw, "train", "stray.png"), "wb") as f:
        f.write(b"junk")
    # Kaggle's unlabeled test images and sample submission, which upstream ignores.
    os.makedirs(os.path.join(raw, "test"))
    for k in range(4):
        with open(os.path.join(raw, "test", "%09x.png" % (k + 77)), "wb") as f:
            f.write(b"\x89PNG fake test %d" % k)
    pd.DataFrame({"file": ["%09x.png" % (k + 77) for k in range(4)], "species": "Maize"}).to_csv(
        os.path.join(raw, "sample_submission.csv"), index=False
    )


def listing_frame(train_dir):
    rows = []
    for species in sorted(os.listdir(train_dir)):
        folder = os.path.join(train_dir, species)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".png"):
                rows.append({"file": name, "species": species})
    return pd.DataFrame(rows)


def prepare(raw, public, private):
    train_dir = os.path.join(raw, "train")
    old_train = listing_frame(train_dir)
    train_df, test_df = train_test_split(old_train, test_size=0.14, random_state=0)
    sample = test_df.copy()
    sample["species"] = "Sugar beet"
    test_df.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    os.makedirs(os.path.join(public, "test"))
    for _, row in train_df.iterrows():
        dest = os.path.join(public, "train", row["species"])
        os.makedirs(dest, exist_ok=True)
        shutil.copyfile(os.path.join(train_dir, row["species"], row["file"]), os.path.join(dest, row["file"]))
    for _, row in test_df.iterrows():
        shutil.copyfile(os.path.join(train_dir, row["species"], row["file"]), os.path.join(public, "test", row["file"]))
