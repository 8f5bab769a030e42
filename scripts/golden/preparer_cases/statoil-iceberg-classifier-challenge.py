"""statoil-iceberg-classifier-challenge: synthetic raw files and upstream's preparation steps.

Kaggle ships train.json.7z and test.json.7z, each holding data/processed/<name>.json: a list of
radar images (id, band_1, band_2 as flattened 75x75 float lists, inc_angle a float or "na",
is_iceberg in train). The bands here are 3x4 so the fixture stays small; the preparer never looks
inside them. Upstream writes its outputs with py7zr (LZMA2); the port has 7-Zip store the members
uncompressed instead (see src/competitions/statoil-iceberg-classifier-challenge/README.md), so this
oracle writes stored archives in 7-Zip's layout, which makes the md5 of each .7z a check of its
member's bytes."""
import json
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _sevenzip import extract_7z, write_kaggle_7z, write_stored_7z

BAND = 12


def float_text(rs, x):
    """A band value in one of the spellings a JSON writer may use; json.load reads them all back as floats."""
    k = rs.randint(0, 6)
    if k == 0:
        return "%.6f" % x
    if k == 1:
        return repr(float(np.float32(x)))
    if k == 2:
        return "%.4e" % x
    if k == 3:
        return "%.17g" % x if "." in "%.17g" % x or "e" in "%.17g" % x else "%.17g.0" % x
    if k == 4:
        return "%d" % round(x) if abs(x) < 50 else repr(x)
    return repr(round(x, 6))


def sample_text(rs, sid, labelled):
    bands = []
    for _ in range(2):
        values = rs.normal(-20, 6, size=BAND)
        values[rs.randint(0, BAND)] = [-0.0, 1e-05, 0.1, 45.0][rs.randint(0, 4)]
        bands.append("[" + ", ".join(float_text(rs, v) for v in values) + "]")
    angle = '"na"' if rs.random_sample() < 0.08 else repr(round(float(rs.uniform(30, 46)), 4))
    fields = ['"id": "%s"' % sid, '"band_1": %s' % bands[0], '"band_2": %s' % bands[1], '"inc_angle": %s' % angle]
    if labelled:
        fields.append('"is_iceberg": %d' % (rs.random_sample() < 0.47))
    return "{" + ", ".join(fields) + "}"


def ids(rs, n):
    out = []
    while len(out) < n:
        s = "".join("0123456789abcdef"[d] for d in rs.randint(0, 16, size=8))
        if s not in out:
            out.append(s)
    return out


def make_raw(raw):
    rs = np.random.RandomState(17)
    all_ids = ids(rs, 90 + 25)
    train = "[" + ", ".join(sample_text(rs, s, True) for s in all_ids[:90]) + "]"
    test = "[" + ", ".join(sample_text(rs, s, False) for s in all_ids[90:]) + "]"
    dirs = [("data", None), ("data/processed", None)]
    write_kaggle_7z(os.path.join(raw, "train.json.7z"), dirs + [("data/processed/train.json", train.encode())], "lzma2", encode_header=True)
    write_kaggle_7z(os.path.join(raw, "test.json.7z"), [("data/processed/test.json", test.encode())], "lzma", encode_header=False)


def prepare(raw, public, private):
    old_train = json.loads(extract_7z(os.path.join(raw, "train.json.7z"))["data/processed/train.json"])
    old_test = json.loads(extract_7z(os.path.join(raw, "test.json.7z"))["data/processed/test.json"])
    test_fields = list(old_test[0].keys())
    new_train, new_test = train_test_split(old_train, test_size=0.2, random_state=0)
    unlabelled = [{k: s[k] for k in test_fields} for s in new_test]
    write_stored_7z(os.path.join(public, "train.json.7z"), [("train.json", json.dumps(new_train).encode())])
    write_stored_7z(os.path.join(public, "test.json.7z"), [("test.json", json.dumps(unlabelled).encode())])
    answers = pd.DataFrame([{"id": s["id"], "is_iceberg": int(s["is_iceberg"])} for s in new_test])
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    sample = answers.copy()
    sample["is_iceberg"] = 0.5
    sample.to_csv(os.path.join(private, "sample_submission.csv"), index=False)
    with open(os.path.join(private, "sample_submission.csv"), "rb") as f:
        write_stored_7z(os.path.join(public, "sample_submission.csv.7z"), [("sample_submission.csv", f.read())])
