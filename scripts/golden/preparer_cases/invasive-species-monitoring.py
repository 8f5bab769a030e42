"""invasive-species-monitoring: synthetic raw files and upstream's preparation steps.

Kaggle ships raw/train.7z (train/<name>.jpg) and raw/train_labels.csv.zip. Upstream's final
py7zr call (`write(public / "train")`) archives only a directory entry named after the absolute
path, so its public/train.7z and test.7z hold no images; the port ships the copied images instead,
stored as train/<name>.jpg and test/<name>.jpg (see the competition's README.md). This oracle
writes those archives in the stored layout 7-Zip gives them there, so their md5 checks content."""
import os
import shutil
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members
from _sevenzip import extract_7z, write_kaggle_7z, write_stored_7z


def make_raw(raw):
    rs = np.random.RandomState(41)
    n = 70
    labels = pd.DataFrame({"name": np.arange(1, n + 1), "invasive": (rs.random_sample(n) < 0.37).astype(int)})
    write_zip_members(os.path.join(raw, "train_labels.csv.zip"), {"train_labels.csv": labels.to_csv(index=False).encode()})
    entries = [("train", None)] + [("train/%d.jpg" % k, b"\xff\xd8\xff fake hydrangea photo %d" % k) for k in labels["name"]]
    write_kaggle_7z(os.path.join(raw, "train.7z"), entries, "lzma2", encode_header=True)
    # Kaggle's other downloads, which upstream leaves alone.
    write_kaggle_7z(os.path.join(raw, "test.7z"), [("test", None), ("test/1.jpg", b"\xff\xd8\xff fake test photo")], "lzma", encode_header=False)
    write_zip_members(os.path.join(raw, "sample_submission.csv.zip"), {"sample_submission.csv": b"name,invasive\n1,0.5\n"})


def prepare(raw, public, private):
    for name, data in extract_7z(os.path.join(raw, "train.7z")).items():
        if data is None:
            os.makedirs(os.path.join(raw, name), exist_ok=True)
        else:
            with open(os.path.join(raw, name), "wb") as f:
                f.write(data)
    with zipfile.ZipFile(os.path.join(raw, "train_labels.csv.zip")) as z:
        z.extractall(raw)
    old_train = pd.read_csv(os.path.join(raw, "train_labels.csv"), float_precision="round_trip")
    new_train, answers = train_test_split(old_train, test_size=0.2, random_state=0)
    sample = answers.copy()
    sample["invasive"] = 0.5
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train_labels.csv"), index=False)
    sample.to_csv(os.path.join(private, "sample_submission.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    for folder, frame in [("train", new_train), ("test", answers)]:
        os.makedirs(os.path.join(public, folder))
        for name in frame["name"]:
            shutil.copyfile(os.path.join(raw, "train", "%s.jpg" % name), os.path.join(public, folder, "%s.jpg" % name))
    for name in ["sample_submission.csv", "train_labels.csv"]:
        shutil.make_archive(os.path.join(public, name), "zip", root_dir=public, base_dir=name)
        os.remove(os.path.join(public, name))
    for folder in ["train", "test"]:
        members = []
        for name in sorted(os.listdir(os.path.join(public, folder))):
            with open(os.path.join(public, folder, name), "rb") as f:
                members.append(("%s/%s" % (folder, name), f.read()))
        write_stored_7z(os.path.join(public, folder + ".7z"), members)
        shutil.rmtree(os.path.join(public, folder))
