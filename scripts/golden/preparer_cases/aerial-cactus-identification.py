"""aerial-cactus-identification: synthetic raw files and upstream's preparation steps."""
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members


def cactus_ids(rs, n):
    """Kaggle names each 32x32 tile by a 32-hex-digit hash plus ".jpg"."""
    halves = rs.randint(0, 2**62, size=(n, 2), dtype=np.int64)
    return ["%016x%016x.jpg" % (a, b) for a, b in halves]


def fake_jpg(i, name):
    # Stand-ins for the tiles: never decoded, only copied, so any distinct bytes will do.
    return b"\xff\xd8\xff\xe0 fake cactus tile %d %s\xff\xd9" % (i, name.encode())


def zip_folder(src, dest):
    """Every file under src, named relative to it, deflated (rglob order, like upstream's zipper)."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for p in Path(src).rglob("*"):
            if p.is_file():
                z.write(p, arcname=p.relative_to(src))


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    new_train, new_test = train_test_split(old_train, test_size=0.19, random_state=0)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    sample = new_test.copy()
    sample["has_cactus"] = 0.5
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    with zipfile.ZipFile(os.path.join(raw, "train.zip")) as z:
        z.extractall(raw)
    for frame, folder in ((new_train, "train"), (new_test, "test")):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for image in frame["id"]:
            shutil.copy(os.path.join(raw, "train", image), os.path.join(public, folder, image))
    for folder in ("train", "test"):
        zip_folder(os.path.join(public, folder), os.path.join(public, folder + ".zip"))
        shutil.rmtree(os.path.join(public, folder))
    shutil.rmtree(os.path.join(raw, "train"))


def make_raw(raw):
    rs = np.random.RandomState(23)
    n = 260
    ids = cactus_ids(rs, n + 12)
    # Kaggle's labels are about three quarters cacti.
    df = pd.DataFrame({"id": ids[:n], "has_cactus": (rs.random_sample(n) < 0.75).astype(int)})
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    train = {"train/": b""}
    train.update({"train/" + name: fake_jpg(i, name) for i, name in enumerate(ids[:n])})
    write_zip_members(os.path.join(raw, "train.zip"), train)
    test = {"test/" + name: fake_jpg(i, name) for i, name in enumerate(ids[n:])}
    write_zip_members(os.path.join(raw, "test.zip"), test)
    pd.DataFrame({"id": ids[n:], "has_cactus": 0.5}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)
