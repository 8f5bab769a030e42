"""google-research-identify-contrails-reduce-global-warming: synthetic raw files and upstream's preparation steps."""
import json
import os
import random
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# Kaggle's tiles are 256x256 with 8 time steps; tiny, non-square ones keep the fixture small
# while still showing if height and width were swapped.
HEIGHT, WIDTH, STEPS = 9, 6, 3
WKT = 'PROJCS["unknown",GEOGCS["unknown",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0]],PROJECTION["Geostationary_Satellite"],PARAMETER["central_meridian",-75],UNIT["metre",1]]'


def record(rs, record_id, folder, empty):
    os.makedirs(folder)
    for band in range(8, 17):
        np.save(os.path.join(folder, "band_%02d.npy" % band), rs.normal(280, 10, size=(HEIGHT, WIDTH, STEPS)).astype(np.float16))
    pixel = np.zeros((HEIGHT, WIDTH, 1), dtype=np.int32) if empty else (rs.random_sample((HEIGHT, WIDTH, 1)) < 0.3).astype(np.int32)
    np.save(os.path.join(folder, "human_pixel_masks.npy"), pixel)
    raters = rs.randint(4, 6)
    np.save(os.path.join(folder, "human_individual_masks.npy"), (rs.random_sample((HEIGHT, WIDTH, 1, raters)) < 0.3).astype(np.uint8))
    return {
        "row_min": float(rs.randint(-4000000, 4000000)) + 0.5,
        "row_size": 2000.0,
        "col_min": float(rs.randint(-4000000, 4000000)) + rs.random_sample(),
        "col_size": 2000.0,
        "timestamp": float(rs.randint(1554000000, 1566000000)),
        "projection_wkt": WKT,
        "record_id": record_id,
    }


def make_raw(raw):
    rs = np.random.RandomState(8)
    ids = [str(v) for v in rs.randint(10**17, 10**18 - 1, size=44, dtype=np.int64)]
    for split, chosen in (("train", ids[:38]), ("validation", ids[38:])):
        meta = [record(rs, rid, os.path.join(raw, split, rid), empty=rs.random_sample() < 0.25) for rid in chosen]
        with open(os.path.join(raw, split + "_metadata.json"), "w") as f:
            json.dump(meta, f)
    os.makedirs(os.path.join(raw, "test", ids[0][::-1]))
    pd.DataFrame({"record_id": [ids[0][::-1]], "encoded_pixels": ["-"]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def runs(mask):
    """Kaggle's contrails RLE: 1-based starts and lengths of foreground runs, column by column."""
    dots = np.where(mask.T.flatten() == 1)[0]
    out, prev = [], -2
    for b in dots:
        if b > prev + 1:
            out.extend((b + 1, 0))
        out[-1] += 1
        prev = b
    return out


def prepare(raw, public, private):
    with open(os.path.join(raw, "train_metadata.json")) as f:
        train_meta = json.load(f)
    with open(os.path.join(raw, "validation_metadata.json")) as f:
        validation_meta = json.load(f)
    new_train, new_test = train_test_split(train_meta, test_size=len(validation_meta), random_state=0)
    answers = []
    for sample in new_test:
        rid = sample["record_id"]
        rle = runs(np.load(os.path.join(raw, "train", rid, "human_pixel_masks.npy")))
        height, width, _ = np.load(os.path.join(raw, "train", rid, "band_08.npy")).shape
        answers.append({"record_id": rid, "encoded_pixels": " ".join(str(i) for i in rle) if rle else "-", "height": height, "width": width})
    answers = pd.DataFrame(answers)
    train_files = ["band_%02d.npy" % b for b in range(8, 17)] + ["human_individual_masks.npy", "human_pixel_masks.npy"]
    for samples, folder, files in ((new_train, "train", train_files), (new_test, "test", train_files[:9])):
        for sample in samples:
            rid = sample["record_id"]
            os.makedirs(os.path.join(public, folder, rid), exist_ok=True)
            for name in files:
                shutil.copyfile(os.path.join(raw, "train", rid, name), os.path.join(public, folder, rid, name))
    os.makedirs(os.path.join(raw, "validation"), exist_ok=True)
    shutil.copytree(os.path.join(raw, "validation"), os.path.join(public, "validation"), dirs_exist_ok=True)
    shutil.copyfile(os.path.join(raw, "validation_metadata.json"), os.path.join(public, "validation_metadata.json"))
    with open(os.path.join(public, "train_metadata.json"), "w") as f:
        f.write(json.dumps(new_train))
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample = answers.copy()
    random.seed(0)
    sample["encoded_pixels"] = [random.choice(["1 3 10 5", "-"]) for _ in range(len(sample))]
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
