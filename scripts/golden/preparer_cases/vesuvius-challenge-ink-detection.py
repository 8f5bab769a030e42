"""vesuvius-challenge-ink-detection: synthetic raw files and upstream's preparation steps."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image


def rle(mask):
    """Kaggle's run-length text: 1-based start and length pairs over the flattened mask."""
    flat = np.concatenate([[0], mask.flatten(), [0]])
    runs = np.where(flat[1:] != flat[:-1])[0] + 1
    runs[1::2] -= runs[::2]
    return " ".join(str(x) for x in runs)


def fake_tif(fragment, layer):
    # The surface volume slices are only copied, so any bytes stand in for the 16-bit TIFFs.
    return b"II*\x00 fake slice %s/%02d" % (fragment.encode(), layer)


def write_fragment(root, name, size, rs, labelled, layers=6):
    folder = os.path.join(root, name)
    os.makedirs(os.path.join(folder, "surface_volume"))
    w, h = size
    Image.fromarray((rs.random_sample((h, w)) < 0.9).astype(np.uint8) * 255).save(os.path.join(folder, "mask.png"))
    for layer in range(layers):
        with open(os.path.join(folder, "surface_volume", "%02d.tif" % layer), "wb") as f:
            f.write(fake_tif(name, layer))
    if labelled:
        ink = (rs.random_sample((h, w)) < 0.3).astype(np.uint8)
        Image.fromarray(ink * 255).save(os.path.join(folder, "inklabels.png"))
        Image.fromarray(rs.randint(0, 256, size=(h, w)).astype(np.uint8)).save(os.path.join(folder, "ir.png"))
        pd.DataFrame({"Id": [int(name)], "Predicted": [rle(ink)]}).to_csv(os.path.join(folder, "inklabels_rle.csv"), index=False)


def make_raw(raw):
    rs = np.random.RandomState(65)
    # Width and height differ so that swapping them would show in the answers.
    for name, size in (("1", (19, 13)), ("2", (15, 21)), ("3", (23, 17))):
        write_fragment(os.path.join(raw, "train"), name, size, rs, labelled=True)
    for name, size in (("a", (11, 9)), ("b", (9, 11))):
        write_fragment(os.path.join(raw, "test"), name, size, rs, labelled=False)
    pd.DataFrame({"Id": ["a", "b"], "Predicted": ["1 1 5 1", "1 1 5 1"]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    for name in ("1", "2"):
        shutil.copytree(raw / "train" / name, public / "train" / name)
    fragment = raw / "train" / "3"
    labels = pd.read_csv(fragment / "inklabels_rle.csv", float_precision="round_trip")
    with Image.open(fragment / "ir.png") as img:
        width, height = img.size
    labels["width"] = width
    labels["height"] = height
    labels["Id"] = "a"
    labels.to_csv(private / "inklabels_rle.csv", index=False)
    labels.drop(columns=["width", "height"]).to_csv(private / "gold_submission.csv", index=False)
    for path in fragment.rglob("*"):
        if path.is_file() and path.name not in ("inklabels.png", "inklabels_rle.csv", "ir.png"):
            dst = public / "test" / "a" / path.relative_to(fragment)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, dst)
    pd.DataFrame({"Id": ["a"], "Predicted": ["1 1 5 1"]}).to_csv(public / "sample_submission.csv", index=False)
