"""dogs-vs-cats-redux-kernels-edition: synthetic raw files and upstream's preparation steps."""
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members


def fake_jpg(name, rs):
    # Photos are only copied, never decoded: distinct bytes of varying length suffice.
    return b"\xff\xd8\xff\xe0" + name.encode() + rs.bytes(int(rs.randint(5, 40))) + b"\xff\xd9"


def zip_folder(src, dest):
    """Every file under src, named relative to it, deflated (rglob order, like upstream's zipper)."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for p in Path(src).rglob("*"):
            if p.is_file():
                z.write(p, arcname=p.relative_to(src))


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    for name in ("train.zip", "test.zip"):
        with zipfile.ZipFile(raw / name) as z:
            z.extractall(raw)
    images = sorted((raw / "train").glob("*.jpg"))
    train_images, test_images = train_test_split(images, test_size=0.1, random_state=0)
    (public / "train").mkdir()
    counts = {"cat": 0, "dog": 0}
    for img in train_images:
        kind = "cat" if "cat" in img.name else "dog"
        shutil.copy(img, public / "train" / ("%s.%d.jpg" % (kind, counts[kind])))
        counts[kind] += 1
    (public / "test").mkdir()
    for i, img in enumerate(test_images, start=1):
        shutil.copy(img, public / "test" / ("%d.jpg" % i))
    # Upstream zips both folders but keeps them too.
    zip_folder(public / "train", public / "train.zip")
    zip_folder(public / "test", public / "test.zip")
    shutil.rmtree(raw / "train")
    shutil.rmtree(raw / "test")
    ids = list(range(1, len(test_images) + 1))
    pd.DataFrame({"id": ids, "label": [int("dog" in img.name) for img in test_images]}).to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"id": ids, "label": [0.5] * len(ids)}).to_csv(public / "sample_submission.csv", index=False)


def make_raw(raw):
    rs = np.random.RandomState(31)
    # Kaggle numbers each class from 0; uneven counts past 100 make name order differ from number order.
    names = ["cat.%d.jpg" % i for i in range(113)] + ["dog.%d.jpg" % i for i in range(97)]
    order = rs.permutation(len(names))
    train = {"train/": b""}
    train.update({"train/" + names[k]: fake_jpg(names[k], rs) for k in order})
    write_zip_members(os.path.join(raw, "train.zip"), train)
    test = {"test/%d.jpg" % i: fake_jpg("%d.jpg" % i, rs) for i in range(1, 31)}
    write_zip_members(os.path.join(raw, "test.zip"), test)
    pd.DataFrame({"id": range(1, 31), "label": 0.5}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)
