"""alaska2-image-steganalysis: synthetic raw files and upstream's preparation steps.

Upstream holds out exactly 5000 cover images, so the raw folder needs more than that: 5012 tiny
covers. To keep the fixture small, a stego folder only holds the files upstream reads from it
(those of the train images and of the test images drawn as positives), computed with the same
draws as prepare() below."""
import os
import random
import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

ALGS = ["JMiPOD", "JUNIWARD", "UERD"]
TEST_SIZE = 5000
COVERS = 5012


def split(raw):
    covers = sorted(list((Path(raw) / "Cover").glob("*.jpg")))
    return train_test_split(covers, test_size=TEST_SIZE, random_state=42)


def test_draws(test):
    """(cover path, algorithm or None) for each test image in output order, consuming random as upstream."""
    random.seed(0)
    random.shuffle(test)
    return [(fp, None if random.choice([True, False]) else random.choice(ALGS)) for fp in test]


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    new_train, new_test = split(raw)
    for sub in ["Cover", "Test"] + ALGS:
        (public / sub).mkdir(parents=True, exist_ok=True)
    for idx, fp in enumerate(new_train):
        shutil.copyfile(fp, public / "Cover" / f"{idx + 1:05d}.jpg")
        for alg in ALGS:
            shutil.copyfile(raw / alg / fp.name, public / alg / f"{idx + 1:05d}.jpg")
    rows = []
    for idx, (fp, alg) in enumerate(test_draws(new_test)):
        test_id = f"{idx + 1:04d}.jpg"
        shutil.copyfile(fp if alg is None else raw / alg / fp.name, public / "Test" / test_id)
        rows.append({"Id": test_id, "Label": 0 if alg is None else 1})
    answers = pd.DataFrame(rows)
    answers.to_csv(private / "test.csv", index=False)
    sample = answers.copy()
    sample["Label"] = 0
    sample.to_csv(public / "sample_submission.csv", index=False)


def make_raw(raw):
    raw = Path(raw)
    (raw / "Cover").mkdir()
    # Kaggle numbers the covers 00001.jpg...; a gap and a 6-digit name make the sort order matter.
    names = ["%05d.jpg" % i for i in range(1, COVERS)] + ["100000.jpg"]
    names[7] = "0a007.jpg"
    for name in names:
        (raw / "Cover" / name).write_bytes(b"\xff\xd8C" + name.encode())
    new_train, new_test = split(raw)
    needed = {alg: {fp.name for fp in new_train} for alg in ALGS}
    for fp, alg in test_draws(list(new_test)):
        if alg is not None:
            needed[alg].add(fp.name)
    for alg in ALGS:
        (raw / alg).mkdir()
        for name in sorted(needed[alg]):
            (raw / alg / name).write_bytes(b"\xff\xd8" + alg[:2].encode() + name.encode())
