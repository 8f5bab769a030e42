"""kuzushiji-recognition: synthetic raw files and upstream's preparation steps.

Kaggle ships train.csv (image_id like "100241706_00004_2" or "umgy001-010"; labels a flat list
"U+306F 1231 3465 133 53 U+304C ..." of class, x, y, width, height per character, missing for
pages without characters), train_images.zip and test_images.zip holding <image_id>.jpg at the
top level, unicode_translation.csv (Unicode,char) and sample_submission.csv."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members

CODES = ["U+306F", "U+304C", "U+3044", "U+306B", "U+3057", "U+3066", "U+306E", "U+308B", "U+2000B", "U+5E74",
         "U+4E00", "U+FF2F", "U+003F", "U+3068", "U+304B", "U+308A", "U+3092", "U+306A", "U+304F", "U+4EBA"]
BOOKS = ["100241706", "100249371", "200003076", "200014740", "umgy001", "hnsd004", "brsk001", "200021712"]


def fake_jpg(tag):
    return b"\xff\xd8\xff\xe0 fake kuzushiji page " + tag.encode() + b"\xff\xd9"


def page_labels(rs):
    boxes = []
    for _ in range(rs.randint(1, 12)):
        x, y = rs.randint(0, 3000), rs.randint(0, 4500)
        boxes.append("%s %d %d %d %d" % (CODES[rs.randint(len(CODES))], x, y, rs.randint(10, 250), rs.randint(10, 250)))
    return " ".join(boxes)


def page_id(rs, book, k):
    if book[0].isdigit():
        return "%s_%05d_%d" % (book, k, rs.randint(1, 3))
    return "%s-%03d" % (book, k)


def make_raw(raw):
    rs = np.random.RandomState(1900)
    n = 140
    ids = sorted({page_id(rs, BOOKS[rs.randint(len(BOOKS))], rs.randint(1, 200)) for _ in range(n + 20)})[:n]
    labels = [page_labels(rs) for _ in ids]
    # Some pages have no characters; upstream's gold step cannot read those, so they sit in train.
    train_rows, _ = train_test_split(np.arange(n), test_size=0.1, random_state=0)
    for i in train_rows[:4]:
        labels[i] = None
    df = pd.DataFrame({"image_id": ids, "labels": labels})
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    write_zip_members(os.path.join(raw, "train_images.zip"), {i + ".jpg": fake_jpg(i) for i in ids})
    tests = ["test_00145af3", "test_001f1111"]
    write_zip_members(os.path.join(raw, "test_images.zip"), {i + ".jpg": fake_jpg(i) for i in tests})
    pd.DataFrame({"image_id": tests, "labels": "U+003F 1 1 U+FF2F 2 2"}).to_csv(
        os.path.join(raw, "sample_submission.csv"), index=False)
    chars = [chr(int(c[2:], 16)) for c in CODES]
    pd.DataFrame({"Unicode": CODES + ["U+002C", "U+0022"], "char": chars + [",", '"']}).to_csv(
        os.path.join(raw, "unicode_translation.csv"), index=False)


def shifted(label):
    """Each "class x y w h" box as the point "class x+1 y+1", just inside the box."""
    fields = label.split()
    return " ".join("%s %d %d" % (c, int(x) + 1, int(y) + 1) for c, x, y in zip(fields[0::5], fields[1::5], fields[2::5]))


def prepare(raw, public, private):
    import zipfile
    raw, public, private = Path(raw), Path(public), Path(private)
    with zipfile.ZipFile(raw / "train_images.zip") as z:
        z.extractall(raw / "train")
    df = pd.read_csv(raw / "train.csv", float_precision="round_trip")
    train, test = train_test_split(df, test_size=0.1, random_state=0)
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / "test.csv", index=False)
    for frame, folder in ((train, "train"), (test, "test")):
        (public / folder).mkdir(exist_ok=True)
        for i in frame["image_id"]:
            shutil.copyfile(raw / "train" / (i + ".jpg"), public / folder / (i + ".jpg"))
    shutil.make_archive(str(public / "train_images"), "zip", public / "train")
    shutil.make_archive(str(public / "test_images"), "zip", public / "test")
    shutil.rmtree(public / "train")
    shutil.rmtree(public / "test")
    shutil.copyfile(raw / "unicode_translation.csv", public / "unicode_translation.csv")
    sample = test.copy()
    sample["labels"] = "U+003F 1 1 U+FF2F 2 2"
    sample.to_csv(public / "sample_submission.csv", index=False)
    gold = test.copy()
    gold["labels"] = [shifted(label) for label in test["labels"]]
    gold.to_csv(private / "gold_submission.csv", index=False)
