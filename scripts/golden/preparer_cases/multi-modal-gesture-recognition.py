"""multi-modal-gesture-recognition: synthetic raw files and upstream's preparation steps.

Kaggle ships one tar.gz per training and validation batch, each a folder of SampleNNNNN.zip
recordings; training.csv labels every training sample with a space-separated gesture sequence
under a four-digit, zero-padded Id ("0046"), which upstream reads as text. Upstream turns
training4 into the test set: its recordings' Ids leave training.csv for the answers. Here
training4.tar.gz also holds a notes file and a nested folder with a zip, which the top-level
"*.zip" match leaves out, and training.csv has a few rows out of Id order. The 7z archives and
the sample code zip are only copied, so they hold stand-in bytes (the zip a real zip).
"""
import glob
import gzip
import io
import os
import random
import shutil
import tarfile

import numpy as np
import pandas as pd

from _common import write_zip_members

BATCHES = {"training1": range(1, 16), "training2": range(16, 31), "training3": range(31, 46), "training4": range(46, 62)}
VALIDATION = {"validation1": range(410, 420), "validation2": range(420, 430), "validation3": range(430, 440)}


def tar_gz(path, members):
    """A gzipped tar of {name: bytes} with fixed dates, so the fixture's bytes do not change between runs."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1370000000
            tar.addfile(info, io.BytesIO(data))
    with open(path, "wb") as f:
        f.write(gzip.compress(buf.getvalue(), mtime=0))


def recordings(ids):
    return {"Sample%05d.zip" % i: b"PK\x03\x04 fake recording %05d" % i for i in ids}


def make_raw(raw):
    rs = np.random.RandomState(2013)
    for name, ids in BATCHES.items():
        members = recordings(ids)
        if name == "training4":
            members["training4_notes.txt"] = b"recorded with Kinect\n"
            members["extra/Sample00999.zip"] = b"PK\x03\x04 not at the top level"
        tar_gz(os.path.join(raw, name + ".tar.gz"), members)
    for name, ids in VALIDATION.items():
        tar_gz(os.path.join(raw, name + ".tar.gz"), recordings(ids))
    lines = []
    for ids in BATCHES.values():
        for i in ids:
            seq = rs.permutation(np.arange(1, 21))[: rs.randint(8, 13)]
            lines.append("%04d,%s\n" % (i, " ".join(str(v) for v in seq)))
    for _ in range(3):
        j = rs.randint(0, len(lines) - 1)
        lines[j], lines[j + 1] = lines[j + 1], lines[j]
    with open(os.path.join(raw, "training.csv"), "w", newline="") as f:
        f.write("Id,Sequence\n" + "".join(lines))
    valid_ids = [i for ids in VALIDATION.values() for i in ids]
    with open(os.path.join(raw, "test.csv"), "w", newline="") as f:
        f.write("Id\n" + "".join("%04d\n" % i for i in valid_ids))
    with open(os.path.join(raw, "randomPredictions.csv"), "w", newline="") as f:
        f.write("Id,Sequence\n" + "".join("%04d,%s\n" % (i, " ".join(str(v) for v in rs.permutation(20) + 1)) for i in valid_ids))
    for name in ["devel01-40.7z", "valid_all_files_combined.7z"]:
        with open(os.path.join(raw, name), "wb") as f:
            f.write(b"7z\xbc\xaf\x27\x1c stand-in for " + name.encode())
    write_zip_members(os.path.join(raw, "sample_code_mmrgc.zip"), {
        "sample_code_mmrgc/main.m": b"% ChaLearn sample code\r\nload('Sample00001_data.mat');\r\n",
        "sample_code_mmrgc/README.txt": b"Run main.m\n",
    })


def prepare(raw, public, private):
    with tarfile.open(os.path.join(raw, "training4.tar.gz")) as tar:
        tar.extractall(os.path.join(raw, "training4"))
    stems = [os.path.basename(p)[: -len(".zip")] for p in glob.glob(os.path.join(raw, "training4", "*.zip"))]
    test_ids = sorted(s[-4:] for s in stems)
    labels = pd.read_csv(os.path.join(raw, "training.csv"), dtype={"Id": str, "Sequence": str})
    held = labels["Id"].isin(test_ids)
    labels[~held].to_csv(os.path.join(public, "training.csv"), index=False)
    labels[held].to_csv(os.path.join(private, "test.csv"), index=False)
    pd.DataFrame({"Id": test_ids}).to_csv(os.path.join(public, "test.csv"), index=False)
    random.seed(0)
    guesses = [" ".join(str(v) for v in random.sample(range(1, 21), 20)) for _ in test_ids]
    pd.DataFrame({"Id": test_ids, "Sequence": guesses}).to_csv(os.path.join(public, "randomPredictions.csv"), index=False)
    shutil.copyfile(os.path.join(raw, "training4.tar.gz"), os.path.join(public, "test.tar.gz"))
    for name in ["training1", "training2", "training3", "validation1", "validation2", "validation3"]:
        shutil.copyfile(os.path.join(raw, name + ".tar.gz"), os.path.join(public, name + ".tar.gz"))
    for name in ["devel01-40.7z", "valid_all_files_combined.7z", "sample_code_mmrgc.zip"]:
        shutil.copyfile(os.path.join(raw, name), os.path.join(public, name))
