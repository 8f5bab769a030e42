"""imet-2020-fgvc7: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

LABELS = ["culture::abruzzi", "culture::achaemenid", "culture::aegean", "culture::afghan", "culture::after british",
          "culture::after german", "culture::\"isnik\"", "country::france, paris", "medium::ink, \"bistre\"",
          "tag::men", "tag::women", "tag::flowers", "tag::écriture", "dimension::h", "tag::ケーキ"]


def imet_raw(n=140, seed=51):
    rs = np.random.RandomState(seed)
    ids = [rs.bytes(16).hex() for _ in range(n)]
    # Space-separated label ids; single-label rows read as text too, as the column is text.
    attrs = [" ".join(str(a) for a in sorted(rs.choice(len(LABELS), size=rs.randint(1, 6), replace=False))) for _ in range(n)]
    return pd.DataFrame({"id": ids, "attribute_ids": attrs})


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    new_train, answers = train_test_split(old_train, test_size=0.15, random_state=0)
    sample = answers.copy()
    sample["attribute_ids"] = "0 1 2"
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    shutil.copyfile(os.path.join(raw, "labels.csv"), os.path.join(public, "labels.csv"))
    for folder, frame in (("train", new_train), ("test", answers)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for i in frame["id"]:
            shutil.copyfile(os.path.join(raw, "train", i + ".png"), os.path.join(public, folder, i + ".png"))


def make_raw(raw):
    df = imet_raw()
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    pd.DataFrame({"attribute_id": range(len(LABELS)), "attribute_name": LABELS}).to_csv(os.path.join(raw, "labels.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    for k, i in enumerate(df["id"]):
        with open(os.path.join(raw, "train", i + ".png"), "wb") as f:
            f.write(b"\x89PNG fake artwork %d %s" % (k, i.encode()))
