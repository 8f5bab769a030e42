"""3d-object-detection-for-autonomous-vehicles: answers, leaderboard and submissions, scored independently
with pandas + numpy + shapely (ground-rectangle intersections)."""
import math

import numpy as np
import pandas as pd
from shapely.geometry import Polygon

ID, PS = "Id", "PredictionString"
THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]
# Typical width, length, height per class (metres), roughly Lyft's means.
SIZES = {
    "car": (1.93, 4.76, 1.72), "pedestrian": (0.77, 0.81, 1.78), "truck": (2.84, 10.24, 3.44),
    "bicycle": (0.63, 1.76, 1.44), "bus": (2.96, 12.34, 3.44), "other_vehicle": (2.79, 8.2, 3.23),
    "motorcycle": (0.96, 2.35, 1.59), "emergency_vehicle": (2.45, 6.52, 2.39), "animal": (0.36, 0.73, 0.51),
}


class Refused(Exception):
    """Upstream would not produce a score (InvalidSubmissionError or any other exception)."""


def parse(text):
    """A PredictionString as upstream reads it: blank -> no boxes, single-space split, 9 tokens a box."""
    if text.strip() == "":
        return []
    tokens = text.split(" ")
    if len(tokens) % 9:
        raise Refused("token count")
    boxes = []
    for b in range(len(tokens) // 9):
        seg = tokens[9 * b: 9 * b + 9]
        try:
            conf, x, y, z, w, l, h, yaw = [float(t) for t in seg[:8]]
            half = yaw / 2.0
            quat = np.array([math.cos(half), 0.0 * math.sin(half), 0.0 * math.sin(half), math.sin(half)])
        except ValueError as e:
            raise Refused(str(e))
        boxes.append({"score": conf, "c": (x, y, z), "s": (w, l, h), "q": quat, "name": seg[8]})
    return boxes


def rotation(q):
    """The 3x3 rotation matrix of a quaternion (w, x, y, z), through the 4x4 left/right product matrices."""
    if not abs(1.0 - np.dot(q, q)) < 1e-14:
        q = q / math.sqrt(np.dot(q, q))
    a, b, c, d = q
    left = np.array([[a, -b, -c, -d], [b, a, -d, c], [c, d, a, -b], [d, -c, b, a]])
    right = np.array([[a, -b, -c, -d], [b, a, d, -c], [c, -d, a, b], [d, c, -b, a]])
    return np.dot(left, right.T)[1:, 1:]


def solid(box):
    """(ground polygon, min z, max z, volume), with the checks of the official Box3D."""
    if np.isnan(box["c"]).any() or np.isnan(box["s"]).any() or np.isnan(box["q"]).any():
        raise Refused("nan")
    w, l, h = box["s"]
    if not (w > 0 and l > 0 and h > 0):
        raise Refused("size")
    x, y, z = box["c"]
    r = rotation(box["q"])
    cos, sin = r[0, 0], r[1, 0]
    pts = [
        (x + l / 2 * cos + w / 2 * sin, y + l / 2 * sin - w / 2 * cos),
        (x + l / 2 * cos - w / 2 * sin, y + l / 2 * sin + w / 2 * cos),
        (x - l / 2 * cos - w / 2 * sin, y - l / 2 * sin + w / 2 * cos),
        (x - l / 2 * cos + w / 2 * sin, y - l / 2 * sin - w / 2 * cos),
    ]
    for a, b, c in [(0, 1, 3), (1, 0, 2), (2, 1, 3), (3, 0, 2)]:
        pa, pb, pc = pts[a], pts[b], pts[c]
        # Infinite corners give inf - inf = nan here, which fails the check as it should.
        with np.errstate(invalid="ignore"):
            dot = (pb[0] - pa[0]) * (pc[0] - pa[0]) + (pb[1] - pa[1]) * (pc[1] - pa[1])
        if not np.isclose(dot, 0):
            raise Refused("not a rectangle")
    return Polygon(pts + [pts[0]]), z - h / 2, z + h / 2, np.prod([w, l, h])


def iou(p, g):
    height = max(0, min(g[2], p[2]) - max(g[1], p[1]))
    inter = height * p[0].intersection(g[0]).area
    return np.clip(inter / (p[3] + g[3] - inter), 0, 1)


def class_ap(gts, preds, threshold):
    g_solids = [solid(b) for b in gts]
    ranked = sorted(preds, key=lambda b: b["score"], reverse=True)
    taken = [False] * len(gts)
    tp, fp = [], []
    for b in ranked:
        overlaps = [iou(solid(b), g) for g in g_solids]
        j = int(np.argmax(overlaps))
        hit = np.max(overlaps) > threshold and not taken[j]
        if hit:
            taken[j] = True
        tp.append(1.0 if hit else 0.0)
        fp.append(0.0 if hit else 1.0)
    tp, fp = np.cumsum(tp), np.cumsum(fp)
    rec = np.concatenate(([0.0], tp / float(len(gts)), [1.0]))
    prec = np.concatenate(([0.0], tp / np.maximum(tp + fp, np.finfo(np.float64).eps), [0.0]))
    for i in range(len(prec) - 1, 0, -1):
        prec[i - 1] = max(prec[i - 1], prec[i])
    i = np.where(rec[1:] != rec[:-1])[0]
    return np.sum((rec[i + 1] - rec[i]) * prec[i + 1])


def sample_maps(gt, pred):
    classes = sorted({b["name"] for b in gt})
    out = []
    for t in THRESHOLDS:
        aps = np.zeros(len(classes))
        for k, name in enumerate(classes):
            p = [b for b in pred if b["name"] == name]
            if p:
                aps[k] = class_ap([b for b in gt if b["name"] == name], p, t)
        out.append(np.mean(aps))
    return out


def score(g, name):
    """Upstream's steps: equal length, both columns, ids equal after sorting, empty cells -> "",
    parse every row, then per sample the mean AP over its true classes at each threshold; mean of all."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if len(s) != len(a) or ID not in s.columns or PS not in s.columns:
        return None
    s, a = s.sort_values(ID), a.sort_values(ID)
    if (s[ID].values != a[ID].values).any():
        return None
    texts = s[PS].fillna("").tolist()
    try:
        if not all(isinstance(t, str) for t in texts):
            raise Refused("not text")
        preds = [parse(t) for t in texts]
        gts = [parse(t) for t in a[PS]]
        return np.mean([m for gt, p in zip(gts, preds) for m in sample_maps(gt, p)])
    except Refused:
        return None


def fmt(v):
    return repr(round(float(v), 4))


def box_text(b):
    return " ".join([fmt(b["score"])] + [fmt(v) for v in (*b["c"], *b["s"], b["yaw"])] + [b["name"]])


def row_text(boxes):
    return " ".join(box_text(b) for b in boxes)


# 3d-object-detection-for-autonomous-vehicles: Lyft 3D mAP over IoU 0.5-0.95, per sample then averaged.
def generate(g):
    rng = g.rng
    n = 8
    ids = g.hex_ids(n, 64)
    classes = list(SIZES)
    weights = np.array([0.5, 0.13, 0.06, 0.06, 0.04, 0.1, 0.05, 0.03, 0.03])
    truth = []
    for k in range(n):
        ox, oy, oz = rng.uniform(500, 2800), rng.uniform(500, 2800), rng.uniform(-25, -15)
        boxes = []
        for _ in range(rng.randint(3, 8)):
            name = classes[rng.choice(len(classes), p=weights)]
            size = np.array(SIZES[name]) * rng.uniform(0.9, 1.1, 3)
            c = (ox + rng.uniform(-40, 40), oy + rng.uniform(-40, 40), oz + rng.uniform(-1, 1))
            boxes.append({"score": 1.0, "c": c, "s": tuple(size), "yaw": rng.uniform(-math.pi, math.pi), "name": name})
        if k == 0:
            # A parking row: cars side by side, so a loose prediction overlaps two true boxes.
            for j in range(4):
                c = (ox + 2.3 * j, oy - 50, oz)
                boxes.append({"score": 1.0, "c": c, "s": (1.9, 4.6, 1.7), "yaw": 1.5707963 + 0.02 * j, "name": "car"})
        truth.append(boxes)
    # Round the way the CSV stores them, so predictions built from `truth` match the answers exactly.
    for boxes in truth:
        for b in boxes:
            b["c"] = tuple(round(v, 4) for v in b["c"])
            b["s"] = tuple(round(v, 4) for v in b["s"])
            b["yaw"] = round(b["yaw"], 4)
    g.write(pd.DataFrame({ID: ids, PS: [row_text(b) for b in truth]}), "answers.csv")
    # Kaggle's private leaderboard: 547 teams, the best near 0.2.
    g.leaderboard(sorted(np.round(0.2 * rng.beta(2, 3, 547), 5), reverse=True))

    def jitter(b, pos, size, yaw, score=None):
        return {
            "score": rng.uniform(0.2, 1.0) if score is None else score,
            "c": tuple(v + rng.normal(0, s) for v, s in zip(b["c"], (pos, pos, pos / 2))),
            "s": tuple(v * (1 + rng.normal(0, size)) for v in b["s"]),
            "yaw": b["yaw"] + rng.normal(0, yaw),
            "name": b["name"],
        }

    def noisy_boxes(pos, size, yaw, keep=0.85):
        out = []
        for boxes in truth:
            p = [jitter(b, pos, size, yaw) for b in boxes if rng.rand() < keep]
            for _ in range(rng.randint(0, 3)):
                b = boxes[rng.randint(len(boxes))]
                p.append(jitter(b, 3.0, 0.2, 0.5, score=rng.uniform(0.0, 0.6)))
            out.append(p)
        return out

    def frame(rows, i=ids):
        return pd.DataFrame({ID: i, PS: [row_text(r) for r in rows]})

    noisy = noisy_boxes(0.15, 0.04, 0.05)
    loose = noisy_boxes(0.6, 0.12, 0.2, keep=0.7)
    absent = [sorted(set(SIZES) - {b["name"] for b in boxes}) for boxes in truth]

    def with_extra(rows, make):
        return [r + [make(k)] for k, r in enumerate(rows)]

    def foreign(k, **kw):
        b = {"score": 0.9, "c": truth[k][0]["c"], "s": truth[k][0]["s"], "yaw": 0.3, "name": absent[k][0]}
        b.update(kw)
        return b

    # Two predictions of one true box with equal confidence: the string order decides which is the hit.
    target = truth[1][0]
    good = dict(jitter(target, 0.05, 0.01, 0.01), score=0.7)
    # Moved a quarter of its length forwards: an IoU of about 0.6 with the true box.
    along = 0.25 * target["s"][1]
    poor = dict(target, score=0.7, c=(target["c"][0] + along * math.cos(target["yaw"]), target["c"][1] + along * math.sin(target["yaw"]), target["c"][2]))
    tie_rows = [list(r) for r in noisy]
    tie_rows[1] = [good, poor] + noisy[1]
    tie_swapped = [list(r) for r in tie_rows]
    tie_swapped[1] = [poor, good] + noisy[1]
    flipped = [[dict(b, yaw=b["yaw"] + math.pi) for b in boxes] for boxes in truth]
    shifted_z = [[dict(b, c=(b["c"][0], b["c"][1], b["c"][2] + 0.1 * b["s"][2])) for b in boxes] for boxes in truth]
    inf_scores = [list(r) for r in noisy]
    inf_scores[0] = [dict(b, score=math.inf if i % 2 else -math.inf) for i, b in enumerate(noisy[0])]
    duplicated = [r + r[:1] for r in noisy]
    spelled = frame(noisy)
    # Spellings Python's float() reads as the same numbers: a sign, digit groups, an exponent.
    spellings = {1: lambda t: "+" + t, 2: lambda t: t[0] + "_" + t[1:] if t[:2].isdigit() else t, 4: lambda t: t + "e0"}
    spelled.loc[2, PS] = " ".join(spellings.get(i % 9, str)(t) for i, t in enumerate(row_text(noisy[2]).split(" ")))
    blanks = frame(noisy)
    blanks.loc[3, PS] = np.nan
    blanks.loc[4, PS] = "   "
    valid = {
        "perfect": frame(truth),
        "sample": pd.DataFrame({ID: ids, PS: [""] * n}),
        "noisy": frame(noisy),
        "noisy_shuffled": frame(noisy).sample(frac=1, random_state=4),
        "loose": frame(loose),
        "yaw_flipped": frame(flipped),
        "shifted_up": frame(shifted_z),
        "tie_order": frame(tie_rows),
        "tie_order_swapped": frame(tie_swapped),
        "infinite_confidences": frame(inf_scores),
        "duplicated_boxes": frame(duplicated),
        # Boxes of classes a sample has no true box of are never looked at, even broken ones.
        "foreign_class": frame(with_extra(noisy, foreign)),
        "foreign_class_broken": frame(with_extra(noisy, lambda k: foreign(k, c=(math.nan, 1.0, 2.0), s=(-1.0, 0.0, 1.0), yaw=math.nan))),
        "foreign_class_nan_confidence": frame(with_extra(noisy, lambda k: foreign(k, score=math.nan))),
        "float_spellings": spelled,
        "blank_rows": blanks,
        "extra_column": frame(noisy).assign(note="x"),
    }
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)

    def broken(k, **kw):
        rows = [list(r) for r in noisy]
        rows[k] = [dict(rows[k][0], **kw)] + rows[k][1:]
        return frame(rows)

    base = frame(noisy)
    text = base[PS].tolist()
    invalid = {
        "missing_column": base[[ID]],
        "missing_id_column": base[[PS]],
        "missing_row": base.iloc[1:],
        "extra_row": pd.concat([base, base.iloc[[0]]]),
        "duplicate_id": base.assign(**{ID: ids[:-1] + ids[:1]}),
        "unknown_id": base.assign(**{ID: ids[:-1] + ["f" * 64]}),
        "upper_case_id": base.assign(**{ID: [i.upper() for i in ids]}),
        "eight_tokens": base.assign(**{PS: [text[0].rsplit(" ", 1)[0]] + text[1:]}),
        # Kaggle's format without the confidence: 9 boxes of 8 tokens pass the count, then "car" lands on a number.
        "no_confidence": base.assign(**{PS: [" ".join(["1.0", "2.0", "-18.0", "1.9", "4.6", "1.7", "0.5", "car"] * 9)] + text[1:]}),
        "word_for_number": base.assign(**{PS: [" ".join(["one"] + text[0].split(" ")[1:])] + text[1:]}),
        "double_space": base.assign(**{PS: [text[0].replace(" ", "  ", 1)] + text[1:]}),
        "trailing_space": base.assign(**{PS: [text[0] + " "] + text[1:]}),
        "infinite_yaw": broken(2, yaw=math.inf),
        "nan_centre": broken(2, c=(math.nan, 1.0, 1.0)),
        "nan_size": broken(2, s=(1.0, math.nan, 1.0)),
        "nan_yaw": broken(2, yaw=math.nan),
        "zero_width": broken(2, s=(0.0, 4.0, 1.5)),
        "negative_height": broken(2, s=(2.0, 4.0, -1.5)),
        "infinite_centre": broken(2, c=(math.inf, 1.0, 1.0)),
        "infinite_length": broken(2, s=(2.0, math.inf, 1.5)),
        # Far from the map the corners no longer pass the official rectangle check.
        "far_away": broken(2, c=(3.1e9, 2.7e9, -20.0), yaw=0.7),
        "numeric_column": base.assign(**{PS: [5] * n}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(g, name) is None, name
        g.record(name, None)
    e = g.expected
    assert e["perfect"] == 1.0 and e["sample"] == 0.0 and e["yaw_flipped"] == 1.0
    assert e["noisy"] == e["noisy_shuffled"] == e["foreign_class"] == e["foreign_class_broken"] == e["extra_column"]
    assert e["noisy"] == e["foreign_class_nan_confidence"] == e["float_spellings"]
    assert e["tie_order"] != e["tie_order_swapped"]
    assert 0 < e["loose"] < e["noisy"] < 1 and 0 < e["shifted_up"] < 1, (e["loose"], e["noisy"], e["shifted_up"])
