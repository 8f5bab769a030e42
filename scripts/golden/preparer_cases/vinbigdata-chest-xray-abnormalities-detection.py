"""vinbigdata-chest-xray-abnormalities-detection: synthetic raw files and upstream's steps.

Kaggle ships train.csv (image_id of 32 hex digits, class_name, class_id 0-14, rad_id R1-R17,
x_min/y_min/x_max/y_max in pixels, empty for "No finding" rows so the columns are floats) with
several rows per image (three radiologists, several boxes each, sometimes one says "No finding"
while another marks a lesion) and train/<image_id>.dicom."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

CLASSES = ["Aortic enlargement", "Atelectasis", "Calcification", "Cardiomegaly", "Consolidation", "ILD",
           "Infiltration", "Lung Opacity", "Nodule/Mass", "Other lesion", "Pleural effusion",
           "Pleural thickening", "Pneumothorax", "Pulmonary fibrosis", "No finding"]


def _box(rs):
    x0, y0 = rs.randint(0, 2500, 2)
    w, h = rs.randint(20, 900, 2)
    box = [float(x0), float(y0), float(x0 + w), float(y0 + h)]
    if rs.random_sample() < 0.2:
        box = [v + round(rs.random_sample(), 2) for v in box]
    return box


def make_raw(raw):
    rs = np.random.RandomState(2020)
    images = ["".join(rs.choice(list("0123456789abcdef"), 32)) for _ in range(60)]
    rows = []
    for image in images:
        rads = rs.choice(17, 3, replace=False) + 1
        healthy = rs.random_sample() < 0.5
        for rad in rads:
            if healthy or rs.random_sample() < 0.2:
                rows.append([image, "No finding", 14, "R%d" % rad, None, None, None, None])
                continue
            for cls in rs.choice(14, rs.randint(1, 4)):
                rows.append([image, CLASSES[cls], int(cls), "R%d" % rad] + _box(rs))
    df = pd.DataFrame(rows, columns=["image_id", "class_name", "class_id", "rad_id", "x_min", "y_min", "x_max", "y_max"])
    df = df.sample(frac=1, random_state=3).reset_index(drop=True)
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    for image in images:
        with open(os.path.join(raw, "train", image + ".dicom"), "wb") as f:
            f.write(b"\x00" * 8 + b"DICM " + image.encode())


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
    train_ids, test_ids = train_test_split(old["image_id"].unique(), test_size=0.1, random_state=0)
    train = old[old["image_id"].isin(train_ids)]
    answers = old[old["image_id"].isin(test_ids)]
    sample = pd.DataFrame({"image_id": test_ids, "PredictionString": "14 1 0 0 1 1"})
    # One annotation per (image, class): the first non-missing value of each column.
    answers = answers.groupby(by=["image_id", "class_id"]).first().reset_index().fillna(0)
    answers.loc[answers["class_id"] == 14, ["x_max", "y_max"]] = 1.0
    gold = answers[["image_id", "class_id", "x_min", "y_min", "x_max", "y_max"]].copy()
    gold["PredictionString"] = gold.apply(
        lambda r: "%s 1.0 %s %s %s %s" % (r["class_id"], r["x_min"], r["y_min"], r["x_max"], r["y_max"]), axis=1)
    gold = gold.groupby("image_id")["PredictionString"].agg(" ".join).reset_index()
    train.to_csv(public / "train.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)
    answers.to_csv(private / "answers.csv", index=False)
    gold.to_csv(private / "gold_submission.csv", index=False)
    for ids, split in ((train_ids, "train"), (test_ids, "test")):
        (public / split).mkdir(exist_ok=True)
        for image in ids:
            shutil.copyfile(raw / "train" / ("%s.dicom" % image), public / split / ("%s.dicom" % image))
