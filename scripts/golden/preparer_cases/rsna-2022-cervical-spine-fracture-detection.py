"""rsna-2022-cervical-spine-fracture-detection: synthetic raw files and upstream's steps.

Kaggle ships train.csv (StudyInstanceUID "1.2.826.0.1.3680043.<n>", patient_overall, C1..C7 as
0/1), train_bounding_boxes.csv (StudyInstanceUID, x, y, width, height, slice_number; several
slices per study, for a subset of studies), segmentations/<uid>.nii for another subset that
overlaps it, and train_images/<uid>/<slice>.dcm. The counts here (150 studies, 35 with boxes,
45 segmented, 15 both) make every round(count * 0.1) a half, so Python's round-half-even shows."""
import os
import random
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

VERTEBRAE = ["C%d" % i for i in range(1, 8)]


def make_raw(raw):
    rs = np.random.RandomState(2022)
    uids = ["1.2.826.0.1.3680043.%d" % v for v in rs.choice(32000, 150, replace=False)]
    frac = (rs.random_sample((150, 7)) < 0.12).astype(int)
    df = pd.DataFrame({"StudyInstanceUID": uids, "patient_overall": frac.max(axis=1)})
    for j, c in enumerate(VERTEBRAE):
        df[c] = frac[:, j]
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    order = rs.permutation(150)
    both, boxes_only, seg_only = order[:15], order[15:35], order[35:65]
    rows = []
    for i in sorted(np.concatenate([both, boxes_only]), key=lambda k: uids[k]):
        for s in sorted(rs.choice(300, rs.randint(1, 4), replace=False)):
            x, y = rs.randint(0, 400, 2)
            w, h = rs.randint(10, 90, 2)
            vals = [float(x), float(y), float(w), float(h)]
            if rs.random_sample() < 0.5:
                vals = [round(v + rs.random_sample(), 2) for v in vals]
            rows.append([uids[i]] + vals + [int(s)])
    pd.DataFrame(rows, columns=["StudyInstanceUID", "x", "y", "width", "height", "slice_number"]).to_csv(
        os.path.join(raw, "train_bounding_boxes.csv"), index=False)
    os.makedirs(os.path.join(raw, "segmentations"))
    for i in np.concatenate([both, seg_only]):
        with open(os.path.join(raw, "segmentations", uids[i] + ".nii"), "wb") as f:
            f.write(b"\x5c\x01\x00\x00 fake nifti " + uids[i].encode())
    for uid in uids:
        folder = os.path.join(raw, "train_images", uid)
        os.makedirs(folder)
        for s in rs.choice(300, 2, replace=False):
            with open(os.path.join(folder, "%d.dcm" % (s + 1)), "wb") as f:
                f.write(b"\x00" * 8 + b"DICM " + ("%s/%d" % (uid, s)).encode())


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    rng = random.Random(0)
    old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
    n_train = round(len(old) * 0.1)
    boxes = pd.read_csv(raw / "train_bounding_boxes.csv", float_precision="round_trip")
    box_ids = sorted(boxes["StudyInstanceUID"].unique())
    seg_ids = sorted(f.stem for f in (raw / "segmentations").glob("*.nii"))
    overlap = [u for u in box_ids if u in seg_ids]
    picked_overlap = rng.sample(overlap, round(len(overlap) * 0.1))
    seg_extra = rng.sample([u for u in seg_ids if u not in overlap], round(len(seg_ids) * 0.1) - len(picked_overlap))
    box_extra = rng.sample([u for u in box_ids if u not in overlap], round(len(box_ids) * 0.1) - len(picked_overlap))
    new_segs = picked_overlap + seg_extra
    new_boxes = picked_overlap + box_extra
    train_ids = picked_overlap + seg_extra + box_extra
    train_ids += rng.sample([u for u in old["StudyInstanceUID"] if u not in train_ids], n_train - len(train_ids))
    train = old[old["StudyInstanceUID"].isin(train_ids)]
    train.to_csv(public / "train.csv", index=False)
    boxes[boxes["StudyInstanceUID"].isin(new_boxes)].to_csv(public / "train_bounding_boxes.csv", index=False)
    answers = old[~old["StudyInstanceUID"].isin(train_ids)].melt(
        id_vars="StudyInstanceUID", var_name="prediction_type", value_name="fractured")
    answers["row_id"] = answers["StudyInstanceUID"] + "_" + answers["prediction_type"]
    answers.to_csv(private / "answers.csv", index=False)
    sample = answers[["row_id", "fractured"]].copy()
    sample["fractured"] = 0.5
    sample.to_csv(public / "sample_submission.csv", index=False)
    test = answers.drop(columns=["fractured"])
    test.to_csv(public / "test.csv", index=False)
    (public / "segmentations").mkdir()
    for u in new_segs:
        shutil.copyfile(raw / "segmentations" / (u + ".nii"), public / "segmentations" / (u + ".nii"))
    for u in train["StudyInstanceUID"]:
        shutil.copytree(raw / "train_images" / u, public / "train_images" / u, dirs_exist_ok=True)
    for u in test["StudyInstanceUID"].unique():
        shutil.copytree(raw / "train_images" / u, public / "test_images" / u, dirs_exist_ok=True)
