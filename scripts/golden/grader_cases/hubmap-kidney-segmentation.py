"""hubmap-kidney-segmentation: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

SIZES = [(40, 56), (64, 48), (37, 29), (50, 50), (33, 71)]  # (height, width)


def decode(rle, height, width):
    """A mask in flat RLE pixel order, decoded with upstream's rules: Python ints split on any
    whitespace, starts sorted and positive, lengths positive, starts + lengths with numpy
    broadcasting, slices clipped to the image, no pixel painted twice."""
    if not isinstance(rle, str):
        raise TypeError("not text")
    flat = np.zeros(height * width, dtype=bool)
    if not rle.strip():
        return flat
    values = [int(t) for t in rle.split()]
    starts, lengths = values[0::2], values[1::2]
    if starts != sorted(starts) or min(starts) <= 0 or (lengths and min(lengths) <= 0):
        raise ValueError("bad pairs")
    ends = np.array(starts) - 1 + lengths
    for lo, hi in zip(np.array(starts) - 1, ends):
        if flat[lo:hi].any():
            raise ValueError("overlap")
        flat[lo:hi] = True
    return flat


def encode(flat):
    """1-based 'start length' pairs of a flat 0/1 mask."""
    padded = np.concatenate([[0], flat.astype(int), [0]])
    edges = np.flatnonzero(np.diff(padded))
    starts, ends = edges[0::2] + 1, edges[1::2] + 1
    return " ".join(f"{s} {e - s}" for s, e in zip(starts, ends))


def blobs(g, height, width, count):
    """A column-major flat mask of a few ellipses (glomeruli)."""
    yy, xx = np.mgrid[0:height, 0:width]
    mask = np.zeros((height, width), dtype=bool)
    for _ in range(count):
        cy, cx = g.rng.uniform(0, height), g.rng.uniform(0, width)
        ry, rx = g.rng.uniform(3, 9), g.rng.uniform(3, 9)
        mask |= ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 <= 1
    return mask.T.reshape(-1)


def score(g, name):
    """Upstream's steps: id and predicted columns, equal row counts, equal id sets, both sorted by
    id, NaN predictions as "", answers decoded as they are, mean Dice with both-empty = 1."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if "id" not in s.columns or "predicted" not in s.columns or len(s) != len(a):
        return None
    if set(s["id"]) != set(a["id"]):
        return None
    s = s.sort_values("id").reset_index(drop=True)
    a = a.sort_values("id").reset_index(drop=True)
    predicted = s["predicted"].fillna("")
    dims = list(zip(a["height_pixels"].tolist(), a["width_pixels"].tolist()))
    try:
        preds = [decode(r, h, w) for r, (h, w) in zip(predicted, dims)]
    except (TypeError, ValueError):
        return None
    truths = [decode(r, h, w) for r, (h, w) in zip(a["encoding"], dims)]
    dices = []
    for p, t in zip(preds, truths):
        if p.sum() == 0 and t.sum() == 0:
            dices.append(1.0)
        else:
            dices.append(2 * np.sum(p & t) / (np.sum(p) + np.sum(t)))
    return float(np.mean(dices))


# hubmap-kidney-segmentation: mean per-image Dice of column-major RLE masks sized by the answers.
def generate(g):
    ids = g.hex_ids(len(SIZES), 9)
    truths = [blobs(g, h, w, 4) for h, w in SIZES]
    answers = pd.DataFrame({"id": ids, "encoding": [encode(t) for t in truths],
                            "width_pixels": [w for _, w in SIZES], "height_pixels": [h for h, _ in SIZES]})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.6, 0.9535, 1200), 5), reverse=True))

    def write(name, predicted, rows=None, frame=None, shuffle=True):
        df = frame if frame is not None else pd.DataFrame({"id": ids, "predicted": predicted})
        if shuffle:
            df = df.sample(frac=1, random_state=7)
        g.write(df, name + ".csv")

    def noisy(t, h, w, flips):
        m = t.copy()
        m[g.rng.choice(h * w, flips, replace=False)] ^= True
        return m

    noisy_masks = [noisy(t, h, w, 60) for t, (h, w) in zip(truths, SIZES)]
    shifted = [np.roll(t, 3) for t in truths]
    valid = {
        "perfect": [encode(t) for t in truths],
        "sample_like": [""] * len(ids),
        "noisy": [encode(m) for m in noisy_masks],
        "shifted": [encode(m) for m in shifted],
        "some_empty": [encode(m) if i % 2 else "" for i, m in enumerate(noisy_masks)],
        "everything": [f"1 {h * w}" for h, w in SIZES],
        # Runs past the last pixel are cut off, not refused.
        "runs_past_end": [encode(t) + f" {h * w - 2} 50" if not t[h * w - 3:].any() else encode(t) for t, (h, w) in zip(truths, SIZES)],
        # Python's int() and str.split(): signs, underscores, leading zeros, tabs and other scripts.
        "python_int_spellings": [encode(t).replace(" ", "\t", 1) if i != 2 else "+1_0 0012 \u0664\u0660 \u0665" for i, t in enumerate(truths)],
        # numpy broadcasting: three values use the one length for both starts; a lone start draws nothing.
        "odd_three_values": ["5 7 300" if i == 0 else encode(t) for i, t in enumerate(truths)],
        "odd_lone_start": ["17" if i == 1 else encode(t) for i, t in enumerate(truths)],
        "whitespace_only": ["   " if i == 3 else encode(t) for i, t in enumerate(truths)],
    }
    for name, predicted in valid.items():
        write(name, predicted)
        g.record(name, score(g, name))
    assert g.expected["perfect"] == 1.0
    assert g.expected["sample_like"] == 0.0
    assert 0 < g.expected["noisy"] < 1

    base = pd.DataFrame({"id": ids, "predicted": [encode(m) for m in noisy_masks]})
    invalid = {
        "missing_predicted": base.drop(columns="predicted"),
        "missing_id_column": base.drop(columns="id"),
        "renamed_column": base.rename(columns={"predicted": "encoding"}),
        "missing_row": base.iloc[1:],
        "extra_row": pd.concat([base, pd.DataFrame({"id": ["0123abcde"], "predicted": ["1 2"]})]),
        "duplicate_id": base.assign(id=[ids[0]] + ids[:-1]),
        "unknown_id": base.assign(id=ids[:-1] + ["ffffffff0"]),
        "unsorted_pairs": base.assign(predicted=["9 2 1 3"] + base.predicted.tolist()[1:]),
        "overlapping_pairs": base.assign(predicted=["1 5 3 2"] + base.predicted.tolist()[1:]),
        "zero_length": base.assign(predicted=["1 0"] + base.predicted.tolist()[1:]),
        "zero_start": base.assign(predicted=["0 4"] + base.predicted.tolist()[1:]),
        "decimal_token": base.assign(predicted=["1.5 3"] + base.predicted.tolist()[1:]),
        "five_values": base.assign(predicted=["1 2 5 1 9"] + base.predicted.tolist()[1:]),
        "numeric_column": base.assign(predicted=[7] * len(ids)),
        "numbers_and_gaps": base.assign(predicted=[7.0, np.nan, 9.0, np.nan, np.nan]),
        "boolean_column": base.assign(predicted=[True, False, True, False, True]),
    }
    for name, frame in invalid.items():
        write(name, None, frame=frame, shuffle=False)
        g.record(name, score(g, name))
        assert g.expected[name] is None, name
    # A header-only submission.
    g.write_text("id,predicted\n", "header_only.csv")
    g.record("header_only", score(g, "header_only"))
    assert g.expected["header_only"] is None
