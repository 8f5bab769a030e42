"""siim-covid19-detection: synthetic raw files and upstream's preparation steps.

Kaggle ships train_study_level.csv (id "<study>_study" plus four one-hot 0/1 columns),
train_image_level.csv (id "<image>_image", boxes as a Python-repr list of dicts or empty, label
"opacity 1 x0 y0 x1 y1 ..." or "none 1 0 0 1 1", StudyInstanceUID) and
train/<study>/<series>/<image>.dcm. Ids are 12 hex digits, so some look like numbers; the
columns stay text because most do not."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

CLASSES = ["Negative for Pneumonia", "Typical Appearance", "Indeterminate Appearance", "Atypical Appearance"]
LABELS = ["negative", "typical", "indeterminate", "atypical"]


def _hex(rs, n):
    return ["".join(rs.choice(list("0123456789abcdef"), 12)) for _ in range(n)]


def _boxes(rs):
    k = rs.randint(1, 4)
    boxes, label = [], []
    for _ in range(k):
        x, y = round(rs.uniform(0, 2000), 5), round(rs.uniform(0, 2000), 5)
        w, h = round(rs.uniform(50, 1200), 5), round(rs.uniform(50, 1200), 5)
        boxes.append("{'x': %r, 'y': %r, 'width': %r, 'height': %r}" % (x, y, w, h))
        label.append("opacity 1 %r %r %r %r" % (x, y, round(x + w, 5), round(y + h, 5)))
    return "[" + ", ".join(boxes) + "]", " ".join(label)


def make_raw(raw):
    rs = np.random.RandomState(2021)
    studies = _hex(rs, 60)
    studies[3] = "012345678901"  # all digits, as a few real study ids are
    onehot = np.zeros((len(studies), 4), dtype=int)
    onehot[np.arange(len(studies)), rs.randint(0, 4, len(studies))] = 1
    study_df = pd.DataFrame({"id": [s + "_study" for s in studies]})
    for j, c in enumerate(CLASSES):
        study_df[c] = onehot[:, j]
    study_df.to_csv(os.path.join(raw, "train_study_level.csv"), index=False)
    rows = []
    for s in studies:
        series = _hex(rs, 1)[0]
        for image in _hex(rs, rs.choice([1, 1, 1, 2, 3])):
            if rs.random_sample() < 0.4:
                boxes, label = None, "none 1 0 0 1 1"
            else:
                boxes, label = _boxes(rs)
            rows.append({"id": image + "_image", "boxes": boxes, "label": label, "StudyInstanceUID": s})
            folder = os.path.join(raw, "train", s, series)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, image + ".dcm"), "wb") as f:
                f.write(b"\x00" * 8 + b"DICM " + image.encode())
    # Kaggle's order is not the id order; the preparer sorts.
    image_df = pd.DataFrame(rows).sample(frac=1, random_state=1)
    image_df.to_csv(os.path.join(raw, "train_image_level.csv"), index=False)
    os.makedirs(os.path.join(raw, "test", "aaaaaaaaaaaa", "bbbbbbbbbbbb"))
    with open(os.path.join(raw, "test", "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc.dcm"), "wb") as f:
        f.write(b"DICM test")


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    study = pd.read_csv(raw / "train_study_level.csv", float_precision="round_trip")
    train_study, test_study = train_test_split(study, test_size=0.1, random_state=0)
    train_study = train_study.sort_values(by="id")
    test_study = test_study.sort_values(by="id")
    train_study.to_csv(public / "train_study_level.csv", index=False)
    image = pd.read_csv(raw / "train_image_level.csv", float_precision="round_trip")
    keys = image["StudyInstanceUID"] + "_study"
    train_image = image[keys.isin(train_study["id"])].sort_values(by="id")
    test_image = image[keys.isin(test_study["id"])].sort_values(by="id")
    train_image.to_csv(public / "train_image_level.csv", index=False)
    for frame, split in ((train_study, "train"), (test_study, "test")):
        for sid in frame["id"]:
            sid = sid.replace("_study", "")
            shutil.copytree(raw / "train" / sid, public / split / sid)
    answers, sample = [], []
    # pandas 2.2 takes argmax of the mixed-type row; Debian's 1.5 refuses object dtype, numpy does not.
    for _, row in test_study.iterrows():
        answers.append({"id": row["id"], "PredictionString": "%s 1 0 0 1 1" % LABELS[np.asarray(row[1:].values).argmax()]})
        sample.append({"id": row["id"], "PredictionString": "negative 1 0 0 1 1"})
    for _, row in test_image.iterrows():
        answers.append({"id": row["id"], "PredictionString": row["label"]})
        sample.append({"id": row["id"], "PredictionString": "none 1 0 0 1 1"})
    pd.DataFrame(answers).to_csv(private / "test.csv", index=False)
    pd.DataFrame(sample).to_csv(public / "sample_submission.csv", index=False)
