"""denoising-dirty-documents: synthetic raw files and upstream's preparation steps.

Kaggle ships train.zip (train/<n>.png) and train_cleaned.zip (train_cleaned/<n>.png), 8-bit
greyscale scans. The cleaned images of the held-out scans are decoded with PIL, so the ones that
land in the test split are written in every PNG flavour PIL reads differently (RGB, palette,
16-bit, low bit depths, transparency) to pin down the conversion to "L"."""
import io
import os
import shutil
import struct
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split

from _common import zip_tree

N_IMAGES = 55


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _raw_png(width, height, depth, colour, rows, extra=b""):
    """A PNG written by hand, for layouts PIL cannot save (16-bit colour, 2/4-bit grey, tRNS on grey)."""
    body = b"".join(b"\x00" + r for r in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + extra + _chunk(b"IDAT", zlib.compress(body)) + _chunk(b"IEND", b"")


def _pil_png(img):
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _pack_bits(values, depth):
    out, acc, nbits = bytearray(), 0, 0
    for v in values:
        acc = (acc << depth) | int(v)
        nbits += depth
        if nbits == 8:
            out.append(acc)
            acc, nbits = 0, 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


def _flavour(kind, rs, w, h):
    """PNG bytes of a random w x h image in one of the layouts below."""
    if kind == "L":
        return _pil_png(Image.fromarray(rs.randint(0, 256, (h, w)).astype(np.uint8), "L"))
    if kind == "RGB":
        return _pil_png(Image.fromarray(rs.randint(0, 256, (h, w, 3)).astype(np.uint8), "RGB"))
    if kind == "RGBA":
        return _pil_png(Image.fromarray(rs.randint(0, 256, (h, w, 4)).astype(np.uint8), "RGBA"))
    if kind == "LA":
        return _pil_png(Image.fromarray(rs.randint(0, 256, (h, w, 2)).astype(np.uint8), "LA"))
    if kind == "P":
        img = Image.fromarray(rs.randint(0, 16, (h, w)).astype(np.uint8), "P")
        img.putpalette([int(v) for v in rs.randint(0, 256, 48)])
        return _pil_png(img)
    if kind == "1":
        return _pil_png(Image.fromarray(rs.randint(0, 2, (h, w)).astype(bool)).convert("1"))
    if kind == "I16":
        # Mostly small values: PIL clamps 16-bit grey at 255 instead of scaling it.
        vals = np.where(rs.random_sample((h, w)) < 0.7, rs.randint(0, 256, (h, w)), rs.randint(0, 65536, (h, w)))
        rows = [b"".join(struct.pack(">H", int(v)) for v in row) for row in vals]
        return _raw_png(w, h, 16, 0, rows)
    if kind == "RGB16":
        vals = rs.randint(0, 65536, (h, w * 3))
        return _raw_png(w, h, 16, 2, [b"".join(struct.pack(">H", int(v)) for v in row) for row in vals])
    if kind == "L4":
        return _raw_png(w, h, 4, 0, [_pack_bits(row, 4) for row in rs.randint(0, 16, (h, w))])
    if kind == "L2":
        return _raw_png(w, h, 2, 0, [_pack_bits(row, 2) for row in rs.randint(0, 4, (h, w))])
    if kind == "LtRNS":
        vals = rs.randint(0, 4, (h, w)) * 60
        return _raw_png(w, h, 8, 0, [bytes(int(v) for v in row) for row in vals], _chunk(b"tRNS", struct.pack(">H", 60)))
    if kind == "RGBtRNS":
        vals = rs.randint(0, 3, (h, w * 3)) * 100
        return _raw_png(w, h, 8, 2, [bytes(int(v) for v in row) for row in vals], _chunk(b"tRNS", struct.pack(">3H", 100, 0, 200)))
    raise ValueError(kind)


FLAVOURS = ["RGB", "P", "I16", "RGB16", "L4", "1", "LA", "RGBA", "LtRNS", "RGBtRNS", "L2"]


def make_raw(raw):
    rs = np.random.RandomState(23)
    names = ["%d.png" % n for n in rs.choice(np.arange(1, 220), N_IMAGES, replace=False)]
    # Which scans the split holds out is known in advance, so each held-out one gets its own flavour.
    _, held = train_test_split(sorted(names), test_size=0.2, random_state=0)
    flavour = {name: FLAVOURS[i % len(FLAVOURS)] for i, name in enumerate(held)}
    with tempfile.TemporaryDirectory() as tmp:
        # Each archive holds its folder, as Kaggle's do: train.zip unpacks to train/.
        for folder in ("train", "train_cleaned"):
            os.makedirs(os.path.join(tmp, folder, folder))
        for name in names:
            w, h = int(rs.randint(3, 9)), int(rs.randint(2, 7))
            dirty = rs.randint(0, 256, (h, w)).astype(np.uint8)
            with open(os.path.join(tmp, "train", "train", name), "wb") as f:
                f.write(_pil_png(Image.fromarray(dirty, "L")))
            with open(os.path.join(tmp, "train_cleaned", "train_cleaned", name), "wb") as f:
                f.write(_flavour(flavour.get(name, "L"), rs, w, h))
        for folder in ("train", "train_cleaned"):
            zip_tree(os.path.join(tmp, folder), os.path.join(raw, folder + ".zip"))


def _pixels(path):
    """One row per pixel: "<stem>_<row>_<col>" (1-based) and the grey level scaled to [0, 1]."""
    grey = np.array(Image.open(path).convert("L")) / 255.0
    ids, values = [], []
    for r in range(grey.shape[0]):
        for c in range(grey.shape[1]):
            ids.append("%s_%d_%d" % (path.stem, r + 1, c + 1))
            values.append(grey[r, c])
    return pd.DataFrame({"id": ids, "value": values})


def _extract(zip_path, dest):
    import zipfile
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(dest)


def prepare(raw, public, private):
    raw, public, private = Path(raw), Path(public), Path(private)
    _extract(raw / "train.zip", public)
    scans = sorted((public / "train").glob("*.png"))
    _, held = train_test_split(scans, test_size=0.2, random_state=0)
    held_names = {p.name for p in held}
    (public / "test").mkdir(parents=True, exist_ok=True)
    for p in (public / "train").glob("*.png"):
        if p.name in held_names:
            shutil.move(p, public / "test" / p.name)
    _extract(raw / "train_cleaned.zip", public)
    (private / "train_cleaned").mkdir(parents=True, exist_ok=True)
    for p in (public / "train_cleaned").glob("*.png"):
        if p.name in held_names:
            shutil.move(p, private / "train_cleaned" / p.name)
    answers = pd.DataFrame(pd.concat([_pixels(p) for p in sorted((private / "train_cleaned").glob("*.png"))]))
    answers.to_csv(private / "answers.csv", index=False)
    shutil.rmtree(private / "train_cleaned")
    sample = answers.copy()
    sample["value"] = 1
    sample.to_csv(public / "sampleSubmission.csv", index=False)
