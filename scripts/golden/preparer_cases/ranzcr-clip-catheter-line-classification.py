"""ranzcr-clip-catheter-line-classification: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# Kaggle's eleven label columns; upstream's sample submission keeps only the first nine.
LABELS = [
    "ETT - Abnormal", "ETT - Borderline", "ETT - Normal",
    "NGT - Abnormal", "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal",
    "CVC - Abnormal", "CVC - Borderline", "CVC - Normal", "Swan Ganz Catheter Present",
]
SUBMITTED = LABELS[:9]


def fake_jpg(path, tag):
    """A few bytes standing in for a chest X-ray: only which file lands where matters."""
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake x-ray " + tag.encode() + b"\xff\xd9")


def uid(rs):
    digits = str(rs.randint(1, 10)) + "".join(str(d) for d in rs.randint(0, 10, size=rs.randint(20, 38)))
    return "1.2.826.0.1.3680043.8.498." + digits


def line_points(rs):
    """The annotation's polyline as Kaggle writes it: a JSON-like list with commas inside."""
    pts = rs.randint(0, 3000, size=(rs.randint(2, 6), 2))
    return "[" + ", ".join("[%d, %d]" % (x, y) for x, y in pts) + "]"


def make_raw(raw):
    rs = np.random.RandomState(2021)
    n = 170
    uids = [uid(rs) for _ in range(n)]
    patients = ["%09x" % v for v in rs.randint(0, 16**8, size=n // 2) * 13]
    # Some patient ids are all digits (one with a leading zero): mixed with hex ones they stay text.
    patients[1], patients[2] = "012345678", "987654321"
    frame = {"StudyInstanceUID": uids}
    for col in LABELS:
        frame[col] = (rs.random_sample(n) < 0.2).astype(int)
    frame["PatientID"] = [patients[k] for k in rs.randint(0, len(patients), size=n)]
    pd.DataFrame(frame).to_csv(os.path.join(raw, "train.csv"), index=False)
    # Annotations cover some studies, several lines each, in an order of their own.
    rows = []
    for k in rs.permutation(n)[: n // 2]:
        for _ in range(rs.randint(1, 4)):
            rows.append({"StudyInstanceUID": uids[k], "label": LABELS[rs.randint(0, 10)], "data": line_points(rs)})
    pd.DataFrame(rows).to_csv(os.path.join(raw, "train_annotations.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    for u in uids:
        fake_jpg(os.path.join(raw, "train", u + ".jpg"), u)
    os.makedirs(os.path.join(raw, "test"))
    test_uids = [uid(rs) for _ in range(3)]
    for u in test_uids:
        fake_jpg(os.path.join(raw, "test", u + ".jpg"), u)
    pd.DataFrame({"StudyInstanceUID": test_uids, **{c: 0 for c in LABELS}}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    studies = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(studies, test_size=0.1, random_state=0)
    annotations = pd.read_csv(os.path.join(raw, "train_annotations.csv"), float_precision="round_trip")
    # Membership keeps the annotation file's own row order.
    train_annotations = annotations[annotations["StudyInstanceUID"].isin(train["StudyInstanceUID"])]
    for folder, frame in (("train", train), ("test", test)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for u in frame["StudyInstanceUID"]:
            shutil.copyfile(os.path.join(raw, "train", u + ".jpg"), os.path.join(public, folder, u + ".jpg"))
    sample = test[["StudyInstanceUID"] + SUBMITTED].copy()
    sample[SUBMITTED] = 0
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    train_annotations.to_csv(os.path.join(public, "train_annotations.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
