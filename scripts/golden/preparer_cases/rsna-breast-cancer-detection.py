"""rsna-breast-cancer-detection: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (site_id, patient_id, image_id, laterality L/R, view CC/MLO/..., age with
gaps so floats, cancer, biopsy, invasive, BIRADS with gaps, implant, density A-D with gaps,
machine_id, difficult_negative_case True/False), four or more images per patient, and
train_images/<patient_id>/<image_id>.dcm. Patient ids run from one to five digits, so the
prediction ids ("<patient>_<laterality>") sort differently as text than as numbers."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

TEST_COLUMNS = ["site_id", "patient_id", "image_id", "laterality", "view", "age", "implant", "machine_id"]


def make_raw(raw):
    rs = np.random.RandomState(2022)
    patients = sorted(set(rs.randint(5, 65535, 70)) | {5, 27, 480, 9999})
    rows = []
    for p in patients:
        site = rs.randint(1, 3)
        age = float(rs.randint(35, 90)) if rs.random_sample() > 0.05 else None
        machine = int(rs.choice([21, 29, 48, 49, 93, 170, 190, 197, 210, 216]))
        implant = int(rs.random_sample() < 0.03)
        density = rs.choice(["A", "B", "C", "D"]) if rs.random_sample() > 0.4 else None
        for lat in ("L", "R"):
            cancer = int(rs.random_sample() < 0.1)
            for view in rs.choice(["CC", "MLO", "MLO", "CC", "AT", "LM"], rs.randint(2, 4), replace=False):
                rows.append({
                    "site_id": site, "patient_id": p, "image_id": int(rs.randint(1, 2 ** 31 - 1)),
                    "laterality": lat, "view": view, "age": age, "cancer": cancer,
                    "biopsy": int(cancer or rs.random_sample() < 0.05), "invasive": int(cancer and rs.random_sample() < 0.7),
                    "BIRADS": None if rs.random_sample() < 0.5 else float(rs.randint(0, 3)),
                    "implant": implant, "density": density, "machine_id": machine,
                    "difficult_negative_case": bool(rs.random_sample() < 0.15),
                })
    df = pd.DataFrame(rows)
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    for r in rows:
        folder = os.path.join(raw, "train_images", str(r["patient_id"]))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "%d.dcm" % r["image_id"]), "wb") as f:
            f.write(b"\x00" * 8 + b"DICM %d/%d" % (r["patient_id"], r["image_id"]))


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
    train_patients, test_patients = train_test_split(old["patient_id"].unique(), test_size=0.1, random_state=42)
    train = old[old["patient_id"].isin(set(train_patients))].copy()
    answers = old[old["patient_id"].isin(set(test_patients))][TEST_COLUMNS + ["cancer"]].copy()
    train.to_csv(public / "train.csv", index=False)
    answers["prediction_id"] = answers["patient_id"].astype(str) + "_" + answers["laterality"]
    test = answers.drop(columns=["cancer"])
    test.to_csv(public / "test.csv", index=False)
    answers = answers[["prediction_id", "cancer"]].groupby("prediction_id").first().reset_index()
    answers.to_csv(private / "answers.csv", index=False)
    sample = answers.copy()
    sample["cancer"] = train.cancer.mean()
    sample.to_csv(public / "sample_submission.csv", index=False)
    for frame, folder in ((train, "train_images"), (test, "test_images")):
        for p, image in zip(frame["patient_id"], frame["image_id"]):
            dest = public / folder / str(p)
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy(raw / "train_images" / str(p) / ("%s.dcm" % image), dest)
