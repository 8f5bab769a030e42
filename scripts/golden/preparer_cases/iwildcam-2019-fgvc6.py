"""iwildcam-2019-fgvc6: synthetic raw files and upstream's preparation steps."""
import os
import shutil
import uuid
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members


def fake_uuid(rs):
    return str(uuid.UUID(bytes=bytes(rs.randint(0, 256, size=16).astype(np.uint8).tolist()), version=1))


def fake_jpg(i, name):
    # Only copied, never decoded: distinct bytes are enough.
    return b"\xff\xd8\xff\xe0 fake camera trap frame %d %s\xff\xd9" % (i, name.encode())


def make_raw(raw):
    rs = np.random.RandomState(2019)
    n_seq = 150
    # Kaggle's location ids are small integers, not contiguous and in no particular order.
    location_pool = rs.choice(np.arange(0, 140), size=42, replace=False)
    rows = []
    for _ in range(n_seq):
        seq = fake_uuid(rs)
        frames = int(rs.choice([1, 1, 3]))
        loc = int(rs.choice(location_pool))
        cat = int(rs.choice([0, 0, 0, 1, 3, 8, 10, 11, 13, 16, 19, 22]))
        holder = rs.choice(["Justin Brown", "Erin Boydston", "Justin Brown, Jr.", None])
        day = "20%02d-%02d-%02d %02d:%02d:%02d" % (
            rs.randint(10, 14), rs.randint(1, 13), rs.randint(1, 29), rs.randint(0, 24), rs.randint(0, 60), rs.randint(0, 60))
        width, height = [(1024, 747), (2048, 1494), (1280, 720)][rs.randint(0, 3)]
        for f in range(frames):
            image_id = fake_uuid(rs)
            rows.append({
                "category_id": cat,
                "date_captured": day,
                "file_name": image_id + ".jpg",
                "frame_num": f + 1,
                "id": image_id,
                "location": loc,
                "rights_holder": holder,
                "seq_id": seq,
                "seq_num_frames": frames,
                "width": width,
                "height": height,
            })
    order = rs.permutation(len(rows))
    df = pd.DataFrame([rows[i] for i in order])
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    members = {name: fake_jpg(i, name) for i, name in enumerate(df["file_name"])}
    write_zip_members(os.path.join(raw, "train_images.zip"), members)
    # The Kaggle download also has a test set and sample submission that upstream ignores.
    pd.DataFrame({"id": [fake_uuid(rs) for _ in range(5)]}).to_csv(os.path.join(raw, "test.csv"), index=False)


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    locations = old_train["location"].unique()
    _, test_locations = train_test_split(locations, test_size=0.1, random_state=8)
    in_test = old_train["location"].apply(lambda loc: loc in test_locations)
    new_train = old_train[~in_test]
    answers = old_train[in_test]
    new_test = answers.drop(columns=["category_id"])
    gold = answers[["id", "category_id"]].rename(columns={"id": "Id", "category_id": "Category"})
    with zipfile.ZipFile(os.path.join(raw, "train_images.zip")) as z:
        z.extractall(os.path.join(raw, "train_images"))
    sample = new_test[["id"]].copy()
    sample["category_id"] = 0
    sample = sample.rename(columns={"id": "Id", "category_id": "Category"})
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    gold.to_csv(os.path.join(private, "answers.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(public, "test.csv"), index=False)
    # Upstream keeps the DataFrame index (the row numbers in Kaggle's train.csv) in this one file.
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=True)
    for frame, folder in ((new_train, "train_images"), (new_test, "test_images")):
        os.makedirs(os.path.join(public, folder))
        for image_id in frame["id"]:
            shutil.copyfile(os.path.join(raw, "train_images", image_id + ".jpg"), os.path.join(public, folder, image_id + ".jpg"))
        shutil.make_archive(os.path.join(public, folder), "zip", os.path.join(public, folder))
        shutil.rmtree(os.path.join(public, folder))
