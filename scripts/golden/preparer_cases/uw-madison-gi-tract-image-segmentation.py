"""uw-madison-gi-tract-image-segmentation: synthetic raw files and upstream's preparation steps.

Kaggle's train.csv has three rows per MRI slice (id "case123_day20_slice_0001", class
large_bowel / small_bowel / stomach, segmentation RLE or empty) and train/ holds
case<N>/case<N>_day<M>/scans/slice_<S>_<width>_<height>_<px>_<px>.png. Here cases come in
shuffled order, several have more than four days (the later ones move to the test side, ordered
by day number, so "day2" comes before "day10"), and widths differ from heights so that the two
columns cannot be swapped unnoticed. Scans are only copied and their names parsed, so they are
stand-in bytes.
"""
import glob
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

CLASSES = ["large_bowel", "small_bowel", "stomach"]
SIZES = [(266, 266, "1.50"), (310, 360, "1.50"), (234, 234, "1.63"), (276, 276, "1.63")]


def rle(rs):
    if rs.random_sample() < 0.6:
        return ""
    starts = np.sort(rs.choice(60000, size=rs.randint(1, 5), replace=False)) + 1
    return " ".join("%d %d" % (s, rs.randint(1, 40)) for s in starts)


def make_raw(raw):
    rs = np.random.RandomState(2022)
    cases = ["case%d" % c for c in rs.choice(np.arange(2, 160), size=14, replace=False)]
    lines = ["id,class,segmentation"]
    for case in cases:
        width, height, px = SIZES[int(rs.randint(0, len(SIZES)))]
        n_days = int(rs.choice([1, 2, 3, 4, 5, 6, 7]))
        days = ["day%d" % d for d in sorted(rs.choice(np.arange(0, 40), size=n_days, replace=False))]
        for d in rs.permutation(days):
            scans = os.path.join(raw, "train", case, "%s_%s" % (case, d), "scans")
            os.makedirs(scans)
            for s in range(1, int(rs.randint(2, 4)) + 1):
                name = "slice_%04d_%d_%d_%s_%s.png" % (s, width, height, px, px)
                with open(os.path.join(scans, name), "wb") as f:
                    f.write(b"\x89PNG\r\n\x1a\n stand-in " + name.encode() + case.encode())
                for c in CLASSES:
                    lines.append("%s_%s_slice_%04d,%s,%s" % (case, d, s, c, rle(rs)))
    with open(os.path.join(raw, "train.csv"), "w", newline="") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(raw, "sample_submission.csv"), "w", newline="") as f:
        f.write("id,class,predicted\n")


def prepare(raw, public, private):
    rows = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    parts = rows["id"].str.split("_")
    rows["case"], rows["day"], rows["slice"] = parts.str[0], parts.str[1], parts.str[-1]
    cases = rows["case"].unique()
    train_cases, test_cases = train_test_split(cases, test_size=0.1, random_state=42)
    rows["set"] = np.where(rows["case"].isin(list(test_cases)), "test", "train")
    for case, days in rows[rows["set"] == "train"].groupby("case")["day"]:
        later = sorted(set(days), key=lambda d: int(d[3:]))[4:]
        rows.loc[(rows["case"] == case) & rows["day"].isin(later), "set"] = "test"

    for case in cases:
        side = "train" if case in set(train_cases) else "test"
        shutil.copytree(os.path.join(raw, "train", case), os.path.join(public, side, case), dirs_exist_ok=True)
    for _, r in rows[rows["set"] == "test"].iterrows():
        folder = "%s_%s" % (r["case"], r["day"])
        src = os.path.join(public, "train", r["case"], folder)
        if os.path.exists(src):
            os.makedirs(os.path.join(public, "test", r["case"]), exist_ok=True)
            shutil.move(src, os.path.join(public, "test", r["case"], folder))

    train = rows[rows["set"] == "train"].copy()
    test = rows[rows["set"] == "test"].copy()
    for label, r in test.iterrows():
        pattern = os.path.join(raw, "train", r["case"], "%s_%s" % (r["case"], r["day"]), "scans", "slice_%s_*.png" % r["slice"])
        (found,) = glob.glob(pattern)
        width, height = (int(v) for v in os.path.basename(found)[:-4].split("_")[2:4])
        # Assigning into a column that does not exist yet creates it as float64 (NaN elsewhere).
        test.loc[label, "image_width"] = width
        test.loc[label, "image_height"] = height
    helper = ["set", "case", "day", "slice"]
    train = train.drop(columns=helper)
    test = test.drop(columns=helper).rename(columns={"segmentation": "predicted"})

    sample = test.drop(columns=["image_height", "image_width"]).copy()
    sample["predicted"] = "1 1 5 2"
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False, na_rep="")
    test.to_csv(os.path.join(private, "test.csv"), index=False, na_rep="")
    train.to_csv(os.path.join(public, "train.csv"), index=False, na_rep="")
    test.drop(columns=["predicted", "image_width", "image_height"]).to_csv(os.path.join(public, "test.csv"), index=False, na_rep="")
