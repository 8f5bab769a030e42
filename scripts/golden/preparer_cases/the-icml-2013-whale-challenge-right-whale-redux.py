"""the-icml-2013-whale-challenge-right-whale-redux: synthetic raw files and upstream's preparation steps."""
import os
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from _common import write_zip_members

DATES = ["20090328", "20090329", "20090330", "20090331"]


def clip_names(rs, n_per_day):
    """Kaggle's pattern: <date>_<HHMMSS>_<sss>s<m>ms_TRAIN<idx>_<label>.aif, idx not in time order."""
    stamps = []
    for date, n in zip(DATES, n_per_day):
        seconds = np.sort(rs.randint(0, 86400, size=n))
        for s in seconds:
            # Clips start every few seconds within the quarter-hour file named by HHMMSS.
            block = (int(s) // 900) * 900
            stamps.append("%s_%02d%02d00_%03ds%dms" % (date, block // 3600, block % 3600 // 60, int(s) - block, rs.randint(0, 10)))
    idx = rs.permutation(len(stamps))
    labels = (rs.random_sample(len(stamps)) < 0.2).astype(int)
    return ["%s_TRAIN%d_%d.aif" % (st, i, lab) for st, i, lab in zip(stamps, idx, labels)]


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    shutil.unpack_archive(raw / "train2.zip", raw)
    by_date = {}
    for sample in (raw / "train2").iterdir():
        by_date.setdefault(sample.name.split("_")[0], []).append(sample)
    dates = sorted(by_date)
    train = sorted(by_date[dates[0]] + by_date[dates[1]])
    test = sorted(by_date[dates[2]] + by_date[dates[3]])
    (public / "train2").mkdir(parents=True)
    for idx, sample in enumerate(train):
        shutil.copy(sample, public / "train2" / re.sub(r"TRAIN\d+", "TRAIN%d" % idx, sample.name))
    rows = []
    (public / "test2").mkdir(parents=True)
    for idx, sample in enumerate(test):
        name = sample.name.split("TRAIN")[0] + "Test%d.aif" % idx
        shutil.copy(sample, public / "test2" / name)
        rows.append({"clip": name, "probability": 1 if sample.stem.endswith("_1") else 0})
    for folder in ("train2", "test2"):
        shutil.make_archive(str(public / folder), "zip", public, folder)
        shutil.rmtree(public / folder)
    shutil.rmtree(raw / "train2")
    answers = pd.DataFrame(rows)
    answers.to_csv(private / "test.csv", index=False)
    sample_submission = answers.copy()
    sample_submission["probability"] = 0
    sample_submission.to_csv(public / "sampleSubmission.csv", index=False)


def make_raw(raw):
    rs = np.random.RandomState(41)
    names = clip_names(rs, [37, 44, 29, 51])
    members = {"train2/": b""}
    for k in rs.permutation(len(names)):
        # Tiny stand-ins for the 2-second AIFF clips: only copied and renamed, never decoded.
        members["train2/" + names[k]] = b"FORM\x00\x00\x00\x20AIFFCOMM" + names[k].encode() + rs.bytes(16)
    write_zip_members(os.path.join(raw, "train2.zip"), members)
    test = {"test2/": b""}
    test.update({"test2/20090401_000000_%03ds%dms_Test%d.aif" % (3 * i, i % 10, i): b"FORM fake" for i in range(5)})
    write_zip_members(os.path.join(raw, "test2.zip"), test)
    pd.DataFrame({"clip": [n[len("test2/"):] for n in list(test)[1:]], "probability": 0}).to_csv(os.path.join(raw, "sampleSubmission.csv"), index=False)
