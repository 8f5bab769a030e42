"""google-research-identify-contrails-reduce-global-warming: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

SIDE = 48  # tiles are square (256 × 256 upstream)
RECORDS = 8


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
    """1-based 'start length' pairs of a flat 0/1 mask, "-" when empty (as the answers spell it)."""
    padded = np.concatenate([[0], flat.astype(int), [0]])
    edges = np.flatnonzero(np.diff(padded))
    starts, ends = edges[0::2] + 1, edges[1::2] + 1
    return " ".join(f"{s} {e - s}" for s, e in zip(starts, ends)) or "-"


def score(g, name):
    """Upstream's steps: record_id and encoded_pixels present, equal row counts, both sorted by
    record_id and compared element-wise by numpy, only the exact value "-" turned into "", masks
    decoded on the answers' height × width, Dice over all pixels of all records (NaN if none)."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if not {"record_id", "encoded_pixels"} <= set(s.columns) or len(s) != len(a):
        return None
    s = s.sort_values("record_id")
    a = a.sort_values("record_id")
    if (s["record_id"].values != a["record_id"].values).any():
        return None
    dims = list(zip(a["height"].values, a["width"].values))
    truths = [decode(r, int(h), int(w)) for r, (h, w) in zip(a["encoded_pixels"].replace("-", ""), dims)]
    try:
        preds = [decode(r, int(h), int(w)) for r, (h, w) in zip(s["encoded_pixels"].replace("-", ""), dims)]
    except (TypeError, ValueError):
        return None
    t = np.concatenate(truths)
    p = np.concatenate(preds)
    if t.sum() == 0 and p.sum() == 0:
        return float("nan")
    return 2 * np.sum(t & p) / (np.sum(t) + np.sum(p))


def contrails(g, present):
    """A column-major flat mask of thin diagonal streaks (empty when not present)."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    mask = np.zeros((SIDE, SIDE), dtype=bool)
    if present:
        for _ in range(g.rng.randint(1, 4)):
            y0, x0, slope = g.rng.uniform(8, SIDE - 8), g.rng.uniform(0, SIDE), g.rng.uniform(-0.3, 0.3)
            mask |= np.abs((yy - y0) - slope * (xx - x0)) < 1.2
    return mask.T.reshape(-1)


# google-research-identify-contrails-reduce-global-warming: global Dice over column-major RLE masks.
def generate(g):
    ids = sorted(int(v) for v in g.rng.randint(10**17, 10**18, RECORDS, dtype=np.int64) * 9 + 10**18)
    ids = [ids[i] for i in g.rng.permutation(RECORDS)]
    truths = [contrails(g, i % 3 != 0) for i in range(RECORDS)]
    answers = pd.DataFrame({"record_id": ids, "encoded_pixels": [encode(t) for t in truths],
                            "height": SIDE, "width": SIDE})
    g.write(answers, "answers.csv")
    assert g.read("answers.csv")["record_id"].dtype == np.int64
    g.leaderboard(sorted(np.round(g.rng.uniform(0.2, 0.7203, 954), 5), reverse=True))

    def write(name, pixels, frame=None, shuffle=True):
        df = frame if frame is not None else pd.DataFrame({"record_id": ids, "encoded_pixels": pixels})
        if shuffle:
            df = df.sample(frac=1, random_state=3)
        g.write(df, name + ".csv")

    def flip(t, count):
        m = t.copy()
        m[g.rng.choice(len(t), count, replace=False)] ^= True
        return m

    noisy = [flip(t, 25) for t in truths]
    import random
    random.seed(0)
    sample = answers.assign(encoded_pixels=[random.choice(["1 3 10 5", "-"]) for _ in ids])
    valid = {
        "perfect": [encode(t) for t in truths],
        "all_dash": ["-"] * RECORDS,
        "noisy": [encode(m) for m in noisy],
        "shifted": [encode(np.roll(t, 1)) for t in truths],
        "everything": [f"1 {SIDE * SIDE}"] * RECORDS,
        "odd_three_values": ["2 3 9"] + [encode(t) for t in truths[1:]],
        "runs_past_end": [encode(t) if t[-4:].any() else (encode(t).replace("-", "") + f" {SIDE * SIDE - 3} 9").strip() for t in truths],
        "python_int_spellings": ["+1_0\t0012  \u0664\u0660 \u0665"] + [encode(t) for t in truths[1:]],
        "whitespace_for_empty": [encode(t) if t.any() else " " for t in truths],
    }
    for name, pixels in valid.items():
        write(name, pixels)
        g.record(name, score(g, name))
    write("sample_like", None, frame=sample, shuffle=False)
    g.record("sample_like", score(g, "sample_like"))
    # Extra columns are ignored (the sample submission carries height and width).
    write("extra_columns", None, frame=answers.assign(encoded_pixels=[encode(m) for m in noisy], note="x"))
    g.record("extra_columns", score(g, "extra_columns"))
    # numpy compares int64 ids with float64 ones as floats: ids written as floats still match.
    float_ids = pd.DataFrame({"record_id": np.array(ids, dtype=float), "encoded_pixels": [encode(m) for m in noisy]})
    write("float_record_ids", None, frame=float_ids)
    g.record("float_record_ids", score(g, "float_record_ids"))
    assert g.read("float_record_ids.csv")["record_id"].dtype == np.float64
    assert g.expected["float_record_ids"] == g.expected["noisy"]
    assert g.expected["perfect"] == 1.0
    assert g.expected["all_dash"] == 0.0
    assert 0 <= g.expected["sample_like"] < g.expected["noisy"] < 1

    base = pd.DataFrame({"record_id": ids, "encoded_pixels": [encode(m) for m in noisy]})
    first = base.encoded_pixels.tolist()
    invalid = {
        "missing_encoded_pixels": base.drop(columns="encoded_pixels"),
        "missing_record_id": base.drop(columns="record_id"),
        "missing_row": base.iloc[1:],
        "extra_row": pd.concat([base, base.iloc[:1].assign(record_id=10**18 + 1)]),
        "duplicate_id": base.assign(record_id=[ids[0]] + ids[1:-1] + [ids[0]]),
        "unknown_id": base.assign(record_id=ids[:-1] + [ids[-1] + 1]),
        "text_ids": base.assign(record_id=[f"r{i}" for i in ids]),
        # Only the exact value "-" means empty: a blank cell or a padded dash is refused.
        "empty_cell": base.assign(encoded_pixels=[np.nan] + first[1:]),
        "padded_dash": base.assign(encoded_pixels=[" - "] + first[1:]),
        "unsorted_pairs": base.assign(encoded_pixels=["9 2 1 3"] + first[1:]),
        "overlapping_pairs": base.assign(encoded_pixels=["4 6 8 2"] + first[1:]),
        "zero_length": base.assign(encoded_pixels=["1 0"] + first[1:]),
        "five_values": base.assign(encoded_pixels=["1 2 5 1 9"] + first[1:]),
        "numeric_column": base.assign(encoded_pixels=list(range(1, RECORDS + 1))),
    }
    for name, frame in invalid.items():
        write(name, None, frame=frame, shuffle=False)
        g.record(name, score(g, name))
        assert g.expected[name] is None, name
