"""mlsp-2013-birds: synthetic raw files and upstream's preparation steps.

Kaggle ships one mlsp_contest_dataset.zip: essential_data/ (CV folds, rec_id -> file stem,
labels with "?" for the hidden test recordings, species list, src_wavs/*.wav) and
supplemental_data/ (four folders of per-recording .bmp images, segmentation examples for only
some recordings, two shared images, and three comma-separated feature files keyed by rec_id)."""
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from _common import zip_tree

# Kaggle's counts: 645 recordings, 322 of them in fold 0 (training). Upstream holds out 20% of fold 0
# and checks that this makes exactly 64 recordings, so the fixture keeps the real fold sizes.
N_RECORDINGS = 645
N_FOLD_0 = 322
SPECIES = ["BRCR", "PAWR", "PSFL", "RBNU", "DEJU", "OSFL", "HETH", "CBCH", "VATH", "HEWA",
           "SWTH", "HAFL", "WETA", "BHGB", "GCKI", "WAWA", "MGWA", "WIWR", "STJA"]


def _write(path, text, crlf=False):
    """Text written as bytes so the line ends are exactly the ones asked for."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.replace("\n", "\r\n" if crlf else "\n").encode("utf-8"))


def _fake(path, tag):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"\x00fake " + tag.encode() + b"\xff")


def _swap_some(rs, lines, k=4):
    """Real files are in rec_id order; a few swapped neighbours check that file order is kept."""
    lines = list(lines)
    for i in rs.choice(len(lines) - 1, k, replace=False):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return lines


def make_raw(raw):
    rs = np.random.RandomState(2013)
    folds = np.ones(N_RECORDINGS, dtype=int)
    folds[rs.choice(N_RECORDINGS, N_FOLD_0, replace=False)] = 0
    stems = ["PC%d_2009%02d%02d_%06d_%04d" % (rs.randint(1, 14), rs.randint(5, 9), rs.randint(1, 29), rs.randint(0, 240000), 10 * i)
             for i in range(N_RECORDINGS)]
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "mlsp_contest_dataset")
        ess, sup = os.path.join(base, "essential_data"), os.path.join(base, "supplemental_data")
        _write(os.path.join(ess, "CVfolds_2.txt"), "rec_id,fold\n" + "".join("%d,%d\n" % (i, f) for i, f in enumerate(folds)), crlf=True)
        _write(os.path.join(ess, "rec_id2filename.txt"),
               "rec_id,filename\n" + "".join(_swap_some(rs, ["%d,%s\n" % (i, s) for i, s in enumerate(stems)])))
        label_lines = []
        for i, f in enumerate(folds):
            if f == 1:
                label_lines.append("%d,?\n" % i)
                continue
            k = rs.choice([0, 1, 1, 2, 3])
            labels = sorted(rs.choice(19, k, replace=False))
            if k == 0:
                # Unlabelled training recordings appear as a bare id, once with a stray comma.
                label_lines.append("%d,\n" % i if i % 7 == 0 else "%d\n" % i)
            else:
                label_lines.append("%d,%s\n" % (i, ",".join(str(v) for v in labels)))
        _write(os.path.join(ess, "rec_labels_test_hidden.txt"), "rec_id,[labels]\n" + "".join(_swap_some(rs, label_lines)), crlf=True)
        _write(os.path.join(ess, "species_list.txt"),
               "class_id,code,species\n" + "".join("%d,%s,Species “%s”, no. %d\n" % (i, c, c.title(), i) for i, c in enumerate(SPECIES)))
        for i, s in enumerate(stems):
            if folds[i] == 1 and i % 8:
                # Kaggle's own test recordings are never copied; a few of their files stand for all.
                continue
            _fake(os.path.join(ess, "src_wavs", s + ".wav"), "RIFF " + s)
            for folder in ("filtered_spectrograms", "spectrograms", "supervised_segmentation"):
                _fake(os.path.join(sup, folder, s + ".bmp"), folder + " " + s)
            if rs.random_sample() < 0.3:
                _fake(os.path.join(sup, "segmentation_examples", s + ".bmp"), "example " + s)
        _fake(os.path.join(sup, "segment_clusters.bmp"), "clusters")
        _fake(os.path.join(sup, "segment_mosaic.bmp"), "mosaic")
        hist = "".join("%d,%s\n" % (i, ",".join("%.6f" % v for v in rs.dirichlet(np.ones(6)) * (rs.random_sample() < 0.8)))
                       for i in range(N_RECORDINGS))
        _write(os.path.join(sup, "histogram_of_segments.txt"), "rec_id,[histogram of segment features]\n" + hist)
        feats, rects = [], []
        for i in range(N_RECORDINGS):
            for seg in range(rs.randint(0, 4)):
                feats.append("%d,%d,%s\n" % (i, seg, ",".join(repr(float(v)) for v in rs.random_sample(5))))
                x, y = rs.randint(0, 1200), rs.randint(0, 200)
                rects.append("%d,%d,%d,%d,%d,%d,\n" % (i, seg, x, x + rs.randint(5, 90), y, y + rs.randint(5, 50)))
        _write(os.path.join(sup, "segment_features.txt"), "rec_id,segment_id,[feature vector]\n" + "".join(feats))
        _write(os.path.join(sup, "segment_rectangles.txt"), "rec_id,segment_id,min_x,max_x,min_y,max_y,\n" + "".join(rects), crlf=True)
        zip_tree(tmp, os.path.join(raw, "mlsp_contest_dataset.zip"))


def _keep_by_id(src, dst, renumber):
    lines = open(src).read().splitlines()[1:]
    with open(dst, "w") as f:
        f.write("rec_id,[histogram of segment features]\n")
        for line in lines:
            old, rest = int(line.split(",")[0]), ",".join(line.split(",")[1:])
            if old in renumber:
                f.write("%d,%s\n" % (renumber[old], rest))


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    with zipfile.ZipFile(raw / "mlsp_contest_dataset.zip") as z:
        z.extractall(raw)
    data = raw / "mlsp_contest_dataset"
    (public / "essential_data").mkdir(exist_ok=True)
    (public / "supplemental_data").mkdir(exist_ok=True)

    folds = pd.read_csv(data / "essential_data/CVfolds_2.txt", float_precision="round_trip")
    folds = folds[folds["fold"] == 0].reset_index(drop=True)
    folds.loc[folds.sample(frac=0.2, random_state=0).index, "fold"] = 1
    renumber = {old: new for new, old in enumerate(folds["rec_id"].values)}
    folds["rec_id"] = folds.index
    folds.to_csv(public / "essential_data/CVfolds_2.txt", index=False)
    held = folds[folds["fold"] == 1]["rec_id"].values

    names = pd.read_csv(data / "essential_data/rec_id2filename.txt", float_precision="round_trip")
    names = names[names["rec_id"].isin(renumber.keys())].copy()
    names["rec_id"] = names["rec_id"].map(renumber)
    names.to_csv(public / "essential_data/rec_id2filename.txt", index=False)

    labels = []
    for line in open(data / "essential_data/rec_labels_test_hidden.txt").read().splitlines()[1:]:
        fields = line.split(",")
        if int(fields[0]) in renumber:
            labels.append((renumber[int(fields[0])], ",".join(fields[1:]) if len(fields) > 1 else ""))
    with open(public / "essential_data/rec_labels_test_hidden.txt", "w") as f:
        f.write("rec_id,[labels]\n")
        for rec, lab in labels:
            shown = "?" if rec in held else lab
            f.write("%d\n" % rec if shown == "" else "%d,%s\n" % (rec, shown))

    ids, hits = [], []
    for rec, lab in labels:
        if rec in held:
            present = [int(v) for v in lab.split(",") if v != ""]
            for s in range(19):
                ids.append(rec * 100 + s)
                hits.append(int(s in present))
    pd.DataFrame({"Id": ids, "Probability": hits}).to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"Id": [rec * 100 + s for rec in held for s in range(19)], "Probability": 0}).to_csv(
        public / "sample_submission.csv", index=False)

    shutil.copyfile(data / "essential_data/species_list.txt", public / "essential_data/species_list.txt")
    (public / "essential_data/src_wavs").mkdir(exist_ok=True)
    for stem in names["filename"]:
        shutil.copyfile(data / "essential_data/src_wavs" / (stem + ".wav"), public / "essential_data/src_wavs" / (stem + ".wav"))
    folders = ["filtered_spectrograms", "segmentation_examples", "spectrograms", "supervised_segmentation"]
    for folder in folders:
        (public / "supplemental_data" / folder).mkdir(exist_ok=True)
    for stem in names["filename"]:
        for folder in folders:
            src = data / "supplemental_data" / folder / (stem + ".bmp")
            if folder == "segmentation_examples" and not src.exists():
                continue
            shutil.copyfile(src, public / "supplemental_data" / folder / (stem + ".bmp"))
    for name in ("segment_clusters.bmp", "segment_mosaic.bmp"):
        shutil.copyfile(data / "supplemental_data" / name, public / "supplemental_data" / name)
    for name in ("histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"):
        _keep_by_id(data / "supplemental_data" / name, public / "supplemental_data" / name, renumber)
