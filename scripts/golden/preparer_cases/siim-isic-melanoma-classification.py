"""siim-isic-melanoma-classification: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (image_name, patient_id, sex, age_approx, anatom_site_general_challenge,
diagnosis, benign_malignant, target; sex, age and site have gaps), train/<image>.dcm,
jpeg/train/<image>.jpg and tfrecords/trainNN-<count>.tfrec (plus testNN-<count>.tfrec), each
record a serialized tf.train.Example holding the image bytes, its name and its metadata.

TensorFlow is not available here, so the TFRecord files are written (and read back in prepare)
by _tfrecord.py."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from _tfrecord import example_bytes, read_records, wire_fields, write_records

N_TRAIN_FILES = 16
PER_FILE = 6
TEST_FILES = {"train00-2071.tfrec", "train06-2071.tfrec"}

SITES = ["torso", "lower extremity", "upper extremity", "head/neck", "palms/soles", "oral/genital"]
DIAGNOSES = ["unknown", "nevus", "seborrheic keratosis", "lentigo NOS", "lichenoid keratosis", "solar lentigo",
             "cafe-au-lait macule", "atypical melanocytic proliferation"]


def first_bytes_value(example, name):
    """feature[name].bytes_list.value[0], the way upstream reads ids with TensorFlow."""
    found = None
    for num, wire, features in wire_fields(example):
        if num == 1 and wire == 2:
            for enum, ewire, entry in wire_fields(features):
                fields = list(wire_fields(entry)) if enum == 1 and ewire == 2 else []
                # protobuf's upb backend leaves an entry with stray fields out of the map.
                if fields and all(k in (1, 2) and w == 2 for k, w, _ in fields):
                    parts = {k: v for k, w, v in fields}
                    if parts.get(1, b"").decode("utf-8") == name:
                        found = parts.get(2, b"")
    for num, wire, lst in wire_fields(found):
        if num == 1 and wire == 2:
            for vnum, vwire, value in wire_fields(lst):
                if vnum == 1 and vwire == 2:
                    return bytes(value)
    raise IndexError("no bytes value for %s" % name)


def ids_from_tfrecords(path, name="image_name"):
    return [first_bytes_value(r, name).decode("utf-8") for r in read_records(path)]


# --- raw files -----------------------------------------------------------------------------------

def _maybe(rs, values, p):
    return [None if rs.random_sample() < p else v for v in values]


def make_raw(raw):
    rs = np.random.RandomState(2020)
    n = N_TRAIN_FILES * PER_FILE
    names = sorted("ISIC_%07d" % v for v in rs.choice(10 ** 7, n, replace=False))
    patients = ["IP_%07d" % v for v in rs.randint(0, 10 ** 7, n // 3)]
    target = (rs.random_sample(n) < 0.1).astype(int)
    df = pd.DataFrame({
        "image_name": names,
        "patient_id": rs.choice(patients, n),
        "sex": _maybe(rs, list(rs.choice(["male", "female"], n)), 0.05),
        "age_approx": _maybe(rs, list(rs.randint(0, 19, n) * 5.0), 0.05),
        "anatom_site_general_challenge": _maybe(rs, list(rs.choice(SITES, n)), 0.1),
        "diagnosis": np.where(target == 1, "melanoma", rs.choice(DIAGNOSES, n)),
        "benign_malignant": np.where(target == 1, "malignant", "benign"),
        "target": target,
    })
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    for d in ("train", "jpeg/train", "tfrecords"):
        os.makedirs(os.path.join(raw, d))
    jpegs = {}
    for name in names:
        jpegs[name] = b"\xff\xd8\xff\xe0 fake jpeg " + name.encode() + b"\xff\xd9"
        with open(os.path.join(raw, "jpeg", "train", name + ".jpg"), "wb") as f:
            f.write(jpegs[name])
        with open(os.path.join(raw, "train", name + ".dcm"), "wb") as f:
            f.write(b"\x00" * 16 + b"DICM fake " + name.encode())
    # Images are spread over the record files at random, as Kaggle's are (grouped by patient, not name).
    order = rs.permutation(n)
    for k in range(N_TRAIN_FILES):
        count = 2061 if k == N_TRAIN_FILES - 1 else 2071
        records = []
        for i in order[k * PER_FILE:(k + 1) * PER_FILE]:
            row = df.iloc[i]
            age = row["age_approx"]
            records.append(example_bytes({
                "image": jpegs[row["image_name"]],
                "image_name": row["image_name"],
                "patient_id": int(row["patient_id"][3:]),
                "sex": -1 if row["sex"] is None else int(row["sex"] == "male"),
                "age_approx": -1 if pd.isna(age) else int(age),
                "anatom_site_general_challenge": -1 if row["anatom_site_general_challenge"] is None else SITES.index(row["anatom_site_general_challenge"]),
                "diagnosis": DIAGNOSES.index(row["diagnosis"]) if row["diagnosis"] in DIAGNOSES else 8,
                "target": int(row["target"]),
                "width": 6000, "height": 4000,
            }))
        with open(os.path.join(raw, "tfrecords", "train%02d-%d.tfrec" % (k, count)), "wb") as f:
            f.write(write_records(records))
    # Kaggle's own test records sit in the same folder; the preparer must leave them out.
    for k in range(2):
        records = [example_bytes({"image": b"\xff\xd8 test", "image_name": "ISIC_9%06d" % (k * 10 + j)}) for j in range(3)]
        with open(os.path.join(raw, "tfrecords", "test%02d-687.tfrec" % k), "wb") as f:
            f.write(write_records(records))


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    old = pd.read_csv(raw / "train.csv")
    held = []
    for name in TEST_FILES:
        held.extend(ids_from_tfrecords(raw / "tfrecords" / name))
    is_test = old["image_name"].isin(held)
    train, test = old[~is_test], old[is_test]
    test_public = test.copy()[["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]]
    test = test[["image_name", "target"]]
    sample = test.copy()
    sample["target"] = 0
    train.to_csv(public / "train.csv", index=False)
    test_public.to_csv(public / "test.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    for frame, split in ((train, "train"), (test, "test")):
        (public / split).mkdir(parents=True, exist_ok=True)
        (public / "jpeg" / split).mkdir(parents=True, exist_ok=True)
        for name in frame["image_name"]:
            shutil.copy(raw / "train" / (name + ".dcm"), public / split / (name + ".dcm"))
            shutil.copy(raw / "jpeg" / "train" / (name + ".jpg"), public / "jpeg" / split / (name + ".jpg"))
    dest = public / "tfrecords"
    dest.mkdir(parents=True, exist_ok=True)
    counts = {"train": 0, "test": 0}
    for f in sorted((raw / "tfrecords").glob("train*.tfrec")):
        kind = "test" if f.name in TEST_FILES else "train"
        shutil.copy(f, dest / ("%s%02d-%s.tfrec" % (kind, counts[kind], f.stem.split("-")[1])))
        counts[kind] += 1
