"""cassava-leaf-disease-classification: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (image_id like "1000015157.jpg", label 0-4), train_images/<image_id>,
label_num_to_disease_map.json and train_tfrecords/ld_trainNN-<count>.tfrec: sixteen TFRecord
files, each record a tf.train.Example with "image" (JPEG bytes), "image_name" and "target".
The split is decided by which TFRecord files are held out, so the oracle needs the image names
inside them. TensorFlow is not installed here, so records are framed and parsed by _tfrecord.py."""
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from _tfrecord import example_bytes, read_records, wire_fields, write_records

N_FILES = 16
DISEASES = {
    "0": "Cassava Bacterial Blight (CBB)",
    "1": "Cassava Brown Streak Disease (CBSD)",
    "2": "Cassava Green Mottle (CGM)",
    "3": "Cassava Mosaic Disease (CMD)",
    "4": "Healthy",
}


def _parse(buf):
    """(field number, payload) of each length-delimited field."""
    return [(num, value) for num, wire, value in wire_fields(buf) if wire == 2]


def image_name(record):
    """feature["image_name"].bytes_list.value[0] of a serialized Example."""
    for _, features in _parse(record):
        for _, entry in _parse(features):
            parts = dict(_parse(entry))
            if parts.get(1) == b"image_name":
                bytes_list = dict(_parse(parts[2]))[1]
                return _parse(bytes_list)[0][1].decode("utf-8")
    raise KeyError("image_name")


# --- raw files -----------------------------------------------------------------------------------

def fake_jpg(name):
    return b"\xff\xd8\xff\xe0 fake cassava leaf " + name.encode() + b"\xff\xd9"


def make_raw(raw):
    rs = np.random.RandomState(2021)
    n = 130
    ids = ["%d.jpg" % v for v in rs.choice(np.arange(1000015157, 1000015157 + 3 * 10 ** 9, 7919), n, replace=False)]
    labels = rs.choice(5, n, p=[0.05, 0.1, 0.11, 0.62, 0.12])
    pd.DataFrame({"image_id": ids, "label": labels}).to_csv(os.path.join(raw, "train.csv"), index=False)
    with open(os.path.join(raw, "label_num_to_disease_map.json"), "w") as f:
        json.dump(DISEASES, f)
    for d in ("train_images", "train_tfrecords", "test_images", "test_tfrecords"):
        os.makedirs(os.path.join(raw, d))
    for name in ids:
        with open(os.path.join(raw, "train_images", name), "wb") as f:
            f.write(fake_jpg(name))
    # Records hold the photos in a shuffled order, files of uneven size, named with their count.
    order = rs.permutation(n)
    cuts = np.sort(rs.choice(np.arange(1, n), N_FILES - 1, replace=False))
    for k, chunk in enumerate(np.split(order, cuts)):
        records = [example_bytes({"image": fake_jpg(ids[i]), "image_name": ids[i], "target": int(labels[i])}) for i in chunk]
        with open(os.path.join(raw, "train_tfrecords", "ld_train%02d-%d.tfrec" % (k, len(records))), "wb") as f:
            f.write(write_records(records))
    # Kaggle's own (hidden) test set: one photo, one record, and a sample submission.
    with open(os.path.join(raw, "test_images", "2216849948.jpg"), "wb") as f:
        f.write(fake_jpg("2216849948.jpg"))
    with open(os.path.join(raw, "test_tfrecords", "ld_test00-1.tfrec"), "wb") as f:
        f.write(write_records([example_bytes({"image": fake_jpg("2216849948.jpg"), "image_name": "2216849948.jpg"})]))
    pd.DataFrame({"image_id": ["2216849948.jpg"], "label": [4]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    files = sorted(p for p in (raw / "train_tfrecords").iterdir() if p.is_file() and p.suffix == ".tfrec")
    kept, held = train_test_split(files, test_size=0.1, random_state=0)
    held_names = [image_name(r) for p in held for r in read_records(p)]
    df = pd.read_csv(raw / "train.csv", float_precision="round_trip")
    in_test = df["image_id"].isin(held_names)
    train, test = df[~in_test], df[in_test]
    sample = test.copy()
    sample["label"] = 4
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)
    for group, prefix in ((kept, "train"), (held, "test")):
        dest = public / ("%s_tfrecords" % prefix)
        dest.mkdir(parents=True, exist_ok=True)
        for i, p in enumerate(group):
            shutil.copy(p, dest / ("ld_%s%02d-%s.tfrec" % (prefix, i, p.stem.split("-")[1])))
    for frame, folder in ((train, "train_images"), (test, "test_images")):
        (public / folder).mkdir(parents=True, exist_ok=True)
        for name in frame["image_id"]:
            shutil.copy(raw / "train_images" / name, public / folder)
    shutil.copy(raw / "label_num_to_disease_map.json", public / "label_num_to_disease_map.json")
