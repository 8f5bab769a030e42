"""vesuvius-challenge-ink-detection: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd
from sklearn.metrics import fbeta_score

FRAGMENTS = [("a", 45, 60), ("b", 30, 52)]  # (Id, height, width)


def decode(rle, size):
    """A mask in flat RLE pixel order, decoded with upstream's rules: Python ints split on any
    whitespace, starts sorted and positive, lengths positive, starts + lengths with numpy
    broadcasting, slices clipped to the image, no pixel painted twice."""
    flat = np.zeros(size, dtype=bool)
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


def f05(truth, pred):
    """F0.5 from counts as scikit-learn >= 1.3 computes it (0 when neither mask has a pixel)."""
    tp = np.sum(truth & pred)
    denom = 0.25 * np.sum(truth) + np.sum(pred)
    value = 0.0 if denom == 0 else 1.25 * tp / denom
    # Debian's scikit-learn goes through precision and recall; it must agree.
    assert abs(value - fbeta_score(truth, pred, beta=0.5, zero_division=0)) < 1e-12
    return value


def score(g, name):
    """Upstream's steps: equal row counts; rows paired by position; each row exactly two fields,
    Id and Predicted, the Id equal to the answers' Id, Predicted a str; both masks decoded on
    width × height pixels in the RLE's own order; mean of the per-row F0.5."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if len(s) != len(a):
        return None
    scores = []
    for (_, srow), (_, arow) in zip(s.iterrows(), a.iterrows()):
        if len(srow) != 2 or not {"Id", "Predicted"} <= set(srow.index) or srow["Id"] != arow["Id"]:
            return None
        if not isinstance(srow["Predicted"], str):
            return None
        size = int(arow["width"]) * int(arow["height"])
        try:
            pred = decode(srow["Predicted"], size)
        except ValueError:
            return None
        scores.append(f05(decode(arow["Predicted"], size), pred))
    return float(np.mean(scores))


def ink(g, height, width):
    """A row-major flat mask of a few ink strokes."""
    yy, xx = np.mgrid[0:height, 0:width]
    mask = np.zeros((height, width), dtype=bool)
    for _ in range(5):
        y0, x0, slope = g.rng.uniform(0, height), g.rng.uniform(0, width), g.rng.uniform(-1, 1)
        mask |= (np.abs((yy - y0) - slope * (xx - x0)) < 1.5) & (np.abs(xx - x0) < g.rng.uniform(4, 12))
    return mask.reshape(-1)


# vesuvius-challenge-ink-detection: mean per-fragment F0.5 of row-major RLE ink masks.
def generate(g):
    truths = [ink(g, h, w) for _, h, w in FRAGMENTS]
    ids = [i for i, _, _ in FRAGMENTS]
    answers = pd.DataFrame({"Id": ids, "Predicted": [encode(t) for t in truths],
                            "width": [w for _, _, w in FRAGMENTS], "height": [h for _, h, _ in FRAGMENTS]})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.3, 0.8336, 1249), 5), reverse=True))

    def write(name, predicted, frame=None):
        g.write(frame if frame is not None else pd.DataFrame({"Id": ids, "Predicted": predicted}), name + ".csv")

    def flip(t, count):
        m = t.copy()
        m[g.rng.choice(len(t), count, replace=False)] ^= True
        return m

    noisy = [flip(t, 40) for t in truths]
    valid = {
        "perfect": [encode(t) for t in truths],
        "sample_like": ["1 1 5 1"] * len(ids),
        "noisy": [encode(m) for m in noisy],
        "shifted": [encode(np.roll(t, 2)) for t in truths],
        # The RLE runs along rows: the same mask read down the columns scores far lower.
        "column_major": [encode(t.reshape(h, w).T.reshape(-1)) for t, (_, h, w) in zip(truths, FRAGMENTS)],
        "everything": [f"1 {h * w}" for _, h, w in FRAGMENTS],
        # A blank cell is NaN to pandas and refused, but a lone space is text for an empty mask.
        "space_for_empty": [" ", encode(truths[1])],
        "runs_past_end": [encode(t) + (f" {h * w - 1} 99" if not t[-2:].any() else "") for t, (_, h, w) in zip(truths, FRAGMENTS)],
        "odd_three_values": ["3 4 40", encode(truths[1])],
        "python_int_spellings": ["+1_0\t0012  \u0664\u0660 \u0665", encode(truths[1])],
    }
    for name, predicted in valid.items():
        write(name, predicted)
        g.record(name, score(g, name))
    assert g.expected["perfect"] == 1.0
    assert g.expected["everything"] < g.expected["noisy"] < 1
    assert g.expected["column_major"] < g.expected["noisy"]

    base = pd.DataFrame({"Id": ids, "Predicted": [encode(m) for m in noisy]})
    invalid = {
        "rows_swapped": base.iloc[::-1],
        "wrong_id": base.assign(Id=["a", "c"]),
        "extra_column": base.assign(width=[w for _, _, w in FRAGMENTS]),
        "missing_predicted": base.drop(columns="Predicted"),
        "lowercase_columns": base.rename(columns={"Id": "id", "Predicted": "predicted"}),
        "missing_row": base.iloc[:1],
        "extra_row": pd.concat([base, pd.DataFrame({"Id": ["c"], "Predicted": ["1 2"]})]),
        "empty_cell": base.assign(Predicted=[base.Predicted[0], np.nan]),
        "numeric_predicted": base.assign(Predicted=[5, 9]),
        "unsorted_pairs": base.assign(Predicted=["9 2 1 3", base.Predicted[1]]),
        "overlapping_pairs": base.assign(Predicted=[base.Predicted[0], "4 6 8 2"]),
        "zero_length": base.assign(Predicted=["1 0", base.Predicted[1]]),
        "five_values": base.assign(Predicted=["1 2 5 1 9", base.Predicted[1]]),
        "decimal_token": base.assign(Predicted=["1 2 5.0 1", base.Predicted[1]]),
    }
    for name, frame in invalid.items():
        write(name, None, frame=frame)
        g.record(name, score(g, name))
        assert g.expected[name] is None, name
