"""hubmap-kidney-segmentation: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def slide_id(rs):
    while True:
        s = "".join(rs.choice(list("0123456789abcdef"), size=9))
        # Kaggle's ids always carry a letter, so read_csv keeps them as text.
        if any(c.isalpha() for c in s) and "e" not in s[1:-1]:
            return s


def rle(rs, width, height):
    starts = np.sort(rs.choice(width * height // 50, size=rs.randint(3, 12), replace=False)) * 50 + 1
    return " ".join("%d %d" % (s, rs.randint(1, 40)) for s in starts)


def make_raw(raw):
    rs = np.random.RandomState(21)
    ids = []
    while len(ids) < 20:
        s = slide_id(rs)
        if s not in ids:
            ids.append(s)
    train_ids, test_ids = ids[:15], ids[15:]
    width = rs.randint(20000, 50000, size=20)
    height = rs.randint(14000, 40000, size=20)
    pd.DataFrame({"id": train_ids, "encoding": [rle(rs, width[i], height[i]) for i in range(15)]}).to_csv(os.path.join(raw, "train.csv"), index=False)
    # The information table lists test slides too, in its own order.
    order = rs.permutation(20)
    weight = np.round(rs.uniform(50, 120, size=20), 1)
    tall = rs.randint(150, 195, size=20).astype(float)
    info = pd.DataFrame({
        "image_file": [ids[k] + ".tiff" for k in order],
        "width_pixels": width[order],
        "height_pixels": height[order],
        "anatomical_structures_segmention_file": [ids[k] + "-anatomical-structure.json" for k in order],
        "glomerulus_segmentation_file": [ids[k] + ".json" if k < 15 else None for k in order],
        "patient_number": rs.randint(60000, 70000, size=20),
        "race": rs.choice(["White", "Black or African American", "Asian"], size=20),
        "ethnicity": rs.choice(["Not Hispanic or Latino", "Hispanic or Latino"], size=20),
        "sex": rs.choice(["Male", "Female"], size=20),
        "age": rs.randint(30, 80, size=20),
        "weight_kilograms": weight,
        "height_centimeters": tall,
        "bmi_kg/m^2": np.round(weight / (tall / 100) ** 2, 1),
        "laterality": rs.choice(["Right", "Left"], size=20),
        "percent_cortex": rs.choice([55, 65, 80, 100], size=20),
        "percent_medulla": rs.choice([0, 20, 35, 45], size=20),
    })
    info.loc[3, "weight_kilograms"] = np.nan
    info.to_csv(os.path.join(raw, "HuBMAP-20-dataset_information.csv"), index=False)
    os.makedirs(os.path.join(raw, "train"))
    os.makedirs(os.path.join(raw, "test"))
    for k, s in enumerate(ids):
        folder = "train" if k < 15 else "test"
        with open(os.path.join(raw, folder, s + ".tiff"), "wb") as f:
            f.write(b"II*\x00 fake slide %d" % k)
        with open(os.path.join(raw, folder, s + ".json"), "w") as f:
            json.dump([{"type": "Feature", "id": "PathAnnotationObject", "geometry": {"type": "Polygon", "coordinates": [[[k, 1], [2, 3], [k, 1]]]}}], f, indent=2)
        with open(os.path.join(raw, folder, s + "-anatomical-structure.json"), "w") as f:
            json.dump([{"type": "Feature", "properties": {"classification": {"name": "Cortex"}}, "slide": k}], f, indent=2)


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    info = pd.read_csv(os.path.join(raw, "HuBMAP-20-dataset_information.csv"))
    new_train, new_test = train_test_split(old_train, train_size=12, test_size=3, random_state=0)
    # Literal removal of ".tiff" (pandas 2's default; 1.5 would treat the dot as a regex).
    info["id"] = info["image_file"].str.replace(".tiff", "", regex=False)
    info = info[info["id"].isin(old_train["id"])]
    new_test = new_test.merge(info[["id", "width_pixels", "height_pixels"]], on="id")
    info = info.drop(columns=["id"])

    info.to_csv(os.path.join(public, "HuBMAP-20-dataset_information.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    sample = new_test[["id"]].copy()
    sample["predicted"] = ""
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    gold = sample.copy()
    gold["predicted"] = new_test["encoding"]
    gold.to_csv(os.path.join(private, "gold_submission.csv"), index=False)

    for folder, frame in (("train", new_train), ("test", new_test)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for s in frame["id"]:
            for name in (f"{s}.tiff", f"{s}.json", f"{s}-anatomical-structure.json"):
                shutil.copy(os.path.join(raw, "train", name), os.path.join(public, folder, name))
    shutil.copy(os.path.join(public, "sample_submission.csv"), os.path.join(public, "test", "sample_submission.csv"))
