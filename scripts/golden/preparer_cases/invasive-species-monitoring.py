"""invasive-species-monitoring: synthetic raw files and upstream's preparation steps.

Kaggle ships raw/train.7z (train/<name>.jpg) and raw/train_labels.csv.zip. Upstream's final
py7zr call (`write(public / "train")`) archives only a directory entry named after the absolute
path, so its public/train.7z and test.7z hold no images; the port ships the copied images instead,
stored as train/<name>.jpg and test/<name>.jpg (see the competition's README.md). This oracle
writes those archives in the stored layout of src/io/sevenzip.ts, so their md5 checks content."""
import os
import shutil
import struct
import zipfile
import zlib

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members
from _sevenzip import (K_CRC, K_END, K_FILES, K_FOLDER, K_HEADER, K_MAIN_STREAMS, K_NAME, K_NUM_UNPACK_STREAM, K_PACK,
                       K_SIZE, K_SUBSTREAMS, K_UNPACK, K_CODERS_UNPACK_SIZE, extract_7z, number, start_header,
                       write_kaggle_7z)


def write_stored_7z_members(path, members):
    """Non-empty members [(name, bytes)] stored in one Copy folder, laid out as writeStoredSevenZip lays them out."""
    data = b"".join(d for _, d in members)
    h = bytes([K_HEADER, K_MAIN_STREAMS])
    h += bytes([K_PACK]) + number(0) + number(1) + bytes([K_SIZE]) + number(len(data)) + bytes([K_END])
    h += bytes([K_UNPACK, K_FOLDER]) + number(1) + b"\x00" + number(1) + b"\x01\x00" + bytes([K_CODERS_UNPACK_SIZE]) + number(len(data)) + bytes([K_END])
    h += bytes([K_SUBSTREAMS])
    if len(members) > 1:
        h += bytes([K_NUM_UNPACK_STREAM]) + number(len(members)) + bytes([K_SIZE]) + b"".join(number(len(d)) for _, d in members[:-1])
    h += bytes([K_CRC, 1]) + b"".join(struct.pack("<I", zlib.crc32(d)) for _, d in members) + bytes([K_END, K_END])
    names = b"".join((n + "\x00").encode("utf-16-le") for n, _ in members)
    h += bytes([K_FILES]) + number(len(members)) + bytes([K_NAME]) + number(len(names) + 1) + b"\x00" + names + bytes([K_END, K_END])
    with open(path, "wb") as f:
        f.write(start_header(len(data), h) + data + h)


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
        write_stored_7z_members(os.path.join(public, folder + ".7z"), members)
        shutil.rmtree(os.path.join(public, folder))
