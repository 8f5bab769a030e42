"""vinbigdata-chest-xray-abnormalities-detection: answers, leaderboard and submissions, scored by
COCO-style AP at IoU 0.4 written out in numpy (following pycocotools' evaluate/accumulate steps)."""
import math

import numpy as np
import pandas as pd

CLASS_NAMES = ["Aortic enlargement", "Atelectasis", "Calcification", "Cardiomegaly", "Consolidation", "ILD",
               "Infiltration", "Lung Opacity", "Nodule/Mass", "Other lesion", "Pleural effusion",
               "Pleural thickening", "Pneumothorax", "Pulmonary fibrosis", "No finding"]
IOU_THR, MAX_DETS, AREA = 0.4, 100, (0.0, 1e10)
RECALL_THRS = np.linspace(0.0, 1.0, 101)


def c_fmin(a, b):
    return b if math.isnan(a) else a if math.isnan(b) else min(a, b)


def c_fmax(a, b):
    return b if math.isnan(a) else a if math.isnan(b) else max(a, b)


def xywh_iou(d, g):
    """Overlap of two boxes whose last two numbers are read as width and height (C arithmetic)."""
    w = c_fmin(d[2] + d[0], g[2] + g[0]) - c_fmax(d[0], g[0])
    if w <= 0:
        return 0.0
    h = c_fmin(d[3] + d[1], g[3] + g[1]) - c_fmax(d[1], g[1])
    if h <= 0:
        return 0.0
    inter = w * h
    return inter / (d[2] * d[3] + g[2] * g[3] - inter)


def match_image(gts, dts):
    """gts/dts: dicts with id, box, area (+ score). Returns (scores, matched gt ids, ignored flags, counted truths)."""
    g_ign = [1 if (g["area"] < AREA[0] or g["area"] > AREA[1]) else 0 for g in gts]
    g_order = [i for i in range(len(gts)) if not g_ign[i]] + [i for i in range(len(gts)) if g_ign[i]]
    d_order = np.argsort([-d["score"] for d in dts], kind="mergesort")[:MAX_DETS]
    matched_by = {}
    scores, matches, ignored = [], [], []
    for di in d_order:
        d = dts[di]
        best, m = min(IOU_THR, 1 - 1e-10), -1
        for gi in g_order:
            if matched_by.get(gi, 0) > 0:
                continue
            if m > -1 and g_ign[m] == 0 and g_ign[gi] == 1:
                break
            v = xywh_iou(d["box"], gts[gi]["box"])
            if v < best:
                continue
            best, m = v, gi
        ig = 0
        mid = 0
        if m > -1:
            ig = g_ign[m]
            mid = gts[m]["id"]
            matched_by[m] = d["id"]
        if mid == 0 and (d["area"] < AREA[0] or d["area"] > AREA[1]):
            ig = 1
        scores.append(d["score"])
        matches.append(mid)
        ignored.append(ig)
    return scores, matches, ignored, g_ign.count(0)


def precision_curve(evals):
    truths = sum(e[3] for e in evals)
    if truths == 0:
        return None
    scores = np.array([s for e in evals for s in e[0]], dtype=float)
    matched = np.array([m != 0 for e in evals for m in e[1]], dtype=bool)
    ignored = np.array([i for e in evals for i in e[2]], dtype=bool)
    order = np.argsort(-scores, kind="mergesort")
    matched, ignored = matched[order], ignored[order]
    tp = np.cumsum(matched & ~ignored).astype(float)
    fp = np.cumsum(~matched & ~ignored).astype(float)
    rc = tp / truths
    pr = list(tp / (fp + tp + np.spacing(1)))
    for i in range(len(pr) - 1, 0, -1):
        pr[i - 1] = max(pr[i - 1], pr[i])
    q = np.zeros(len(RECALL_THRS))
    for r, pos in enumerate(np.searchsorted(rc, RECALL_THRS, side="left")):
        if pos >= len(pr):
            break
        q[r] = pr[pos]
    return q


def score_frames(s, a):
    for col in ["PredictionString", "image_id"]:
        if col not in s.columns:
            raise ValueError(col)
    if set(s["image_id"]) != set(a["image_id"]):
        raise ValueError("image ids")
    images = list(pd.unique(a["image_id"]))
    img_index = {im: k for k, im in enumerate(images)}
    cats = sorted(set(a["class_id"]))
    gts = {}
    gid = 0
    for im in images:
        for _, r in a[a["image_id"] == im].iterrows():
            box = [r.x_min, r.y_min, r.x_max, r.y_max]
            gts.setdefault((img_index[im], r.class_id), []).append(
                {"id": gid, "box": box, "area": (r.x_max - r.x_min) * (r.y_max - r.y_min)})
            gid += 1
    dts = {}
    did = 0
    for im, text in zip(s["image_id"], s["PredictionString"]):
        vals = np.array([float(t) for t in text.split(" ")]).reshape(-1, 6)
        for v in vals:
            cat = int(v[0])
            if cat in cats:
                dts.setdefault((img_index[im], cat), []).append(
                    {"id": did, "score": v[1], "box": list(v[2:]), "area": (v[4] - v[2]) * (v[5] - v[3])})
            did += 1
    curves = []
    for c in cats:
        evals = [match_image(gts.get((k, c), []), dts.get((k, c), [])) for k in range(len(images))
                 if gts.get((k, c)) or dts.get((k, c))]
        curve = precision_curve(evals) if evals else None
        if curve is not None:
            curves.append(curve)
    if not curves:
        return -1.0
    return float(np.mean(np.stack(curves, axis=1)))


def generate(g):
    rng = g.rng
    images = g.hex_ids(14, 32)
    rows = []
    for k, im in enumerate(images):
        if k % 4 == 3:
            rows.append((im, 14, 0.0, 0.0, 1.0, 1.0))
            continue
        for c in sorted(rng.choice(14, rng.randint(1, 5), replace=False)):
            x0, y0 = float(rng.randint(200, 1800)), float(rng.randint(200, 1800))
            w, h = rng.randint(60, 900), rng.randint(60, 900)
            rows.append((im, int(c), x0, y0, x0 + w, y0 + h))
    rows.sort(key=lambda r: (r[0], r[1]))
    ans = pd.DataFrame(rows, columns=["image_id", "class_id", "x_min", "y_min", "x_max", "y_max"])
    ans.insert(2, "class_name", [CLASS_NAMES[c] for c in ans.class_id])
    ans.insert(3, "rad_id", ["R%d" % rng.randint(1, 18) for _ in range(len(ans))])
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.05, 0.314, 140), 5), reverse=True))
    ordered = sorted(set(images))

    def write(name, frame):
        g.write(frame, f"{name}.csv")

    def score(name):
        return score_frames(g.read(f"{name}.csv"), g.read("answers.csv"))

    def frame(per_image, order=None):
        ids = order if order is not None else ordered
        return pd.DataFrame({"image_id": ids, "PredictionString": [" ".join(per_image[i]) for i in ids]})

    def box_text(c, conf, x0, y0, x1, y1):
        return f"{c} {conf} {x0} {y0} {x1} {y1}"

    # The gold submission as upstream's preparer writes it: every truth with confidence 1.0.
    gold = {im: [] for im in ordered}
    for r in ans.itertuples():
        gold[r.image_id].append(box_text(r.class_id, 1.0, r.x_min, r.y_min, r.x_max, r.y_max))
    noisy = {im: [] for im in ordered}
    for r in ans.itertuples():
        if rng.rand() < 0.85:
            j = rng.normal(0, 25, 4) if r.class_id != 14 else np.zeros(4)
            noisy[r.image_id].append(box_text(r.class_id, round(rng.uniform(0.2, 0.99), 3),
                                              *[round(v, 1) for v in (r.x_min + j[0], r.y_min + j[1], r.x_max + j[2], r.y_max + j[3])]))
    for im in ordered:
        for _ in range(rng.randint(0, 3)):
            x0, y0 = rng.randint(0, 2000), rng.randint(0, 2000)
            noisy[im].append(box_text(rng.randint(0, 15), round(rng.uniform(0.01, 0.7), 3), x0, y0, x0 + rng.randint(50, 700), y0 + rng.randint(50, 700)))
        if not noisy[im]:
            noisy[im].append("14 0.5 0 0 1 1")

    cases = {}
    cases["gold"] = frame(gold)
    cases["sample_like"] = frame({im: ["14 1 0 0 1 1"] for im in ordered})
    cases["noisy"] = frame(noisy)
    # Annotation ids follow row order, so the order of rows changes which box gets id 0.
    cases["gold_reversed"] = frame(gold, ordered[::-1])
    cases["noisy_shuffled"] = cases["noisy"].sample(frac=1, random_state=5)
    # The first detection (id 0) leaves its truth free for a second match; truth id 0 is never found.
    r = next(i for i in range(1, len(ans)) if ans.class_id[i] == ans.class_id[0] and ans.image_id[i] != ans.image_id[0])
    img_r = ans.image_id[r]
    box_r = box_text(ans.class_id[r], 1.0, ans.x_min[r], ans.y_min[r], ans.x_max[r], ans.y_max[r])
    order_r = [img_r] + [i for i in ordered if i != img_r]
    first = dict(gold)
    first[img_r] = [box_r] + [b for b in gold[img_r] if b != box_r]
    cases["gold_rows_reordered"] = frame(first, order_r)
    twice = dict(first)
    twice[img_r] = [box_r, box_r.replace(" 1.0 ", " 0.9 ", 1)] + first[img_r][1:]
    cases["first_detection_matched_twice"] = frame(twice, order_r)
    # False positives with inverted corners have negative area and are ignored when unmatched.
    fps_neg, fps_pos = dict(noisy), dict(noisy)
    for im in ordered[:6]:
        x0, y0 = rng.randint(500, 1500), rng.randint(500, 1500)
        fps_neg[im] = noisy[im] + [box_text(3, 0.95, x0 + 400, y0, x0, y0 + 400)]
        fps_pos[im] = noisy[im] + [box_text(3, 0.95, x0, y0, x0 + 400, y0 + 400)]
    cases["inverted_false_positives"] = frame(fps_neg)
    cases["regular_false_positives"] = frame(fps_pos)
    # Only the 100 best-scored boxes per image and class count.
    many = dict(gold)
    r0 = ans[ans.class_id != 14].iloc[-1]
    junk = [box_text(r0.class_id, round(0.99 - 0.001 * k, 3), 10 * k, 10, 10 * k + 5, 15) for k in range(105)]
    real = box_text(r0.class_id, 0.5, r0.x_min, r0.y_min, r0.x_max, r0.y_max)
    others = [b for b in gold[r0.image_id] if not b.startswith(f"{r0.class_id} ")]
    many[r0.image_id] = junk + [real] + others
    cases["over_100_boxes"] = frame(many)
    many99 = dict(many)
    many99[r0.image_id] = junk[:99] + [real] + others
    cases["exactly_100_boxes"] = frame(many99)
    # One image's boxes spread over two rows (upstream only compares sets of ids).
    split = frame(gold)
    busy = max(ordered, key=lambda i: len(gold[i]))
    extra = pd.DataFrame({"image_id": [busy], "PredictionString": [" ".join(gold[busy][:1])]})
    split.loc[split.image_id == busy, "PredictionString"] = " ".join(gold[busy][1:])
    cases["repeated_image_rows"] = pd.concat([split, extra])
    # Classes are truncated to integers; classes absent from the answers are ignored but use up ids.
    odd = {im: [] for im in ordered}
    for im in ordered:
        for b in gold[im]:
            c, rest = b.split(" ", 1)
            odd[im].append(f"{int(c) + 0.7} {rest}")
        odd[im].append("20 0.99 0 0 100 100")
        odd[im].append("-0.5 0.3 0 0 10 10")
    cases["fractional_and_unknown_classes"] = frame(odd)
    # NaN and infinite values other than the class are accepted.
    weird = dict(noisy)
    weird[ordered[0]] = noisy[ordered[0]] + ["3 nan 10 10 500 500", "5 inf 0 0 300 300"]
    weird[ordered[1]] = noisy[ordered[1]] + ["7 0.8 nan 100 900 900", "14 -inf 0 0 1 1"]
    cases["nan_and_inf_values"] = frame(weird)
    # Equal scores across images keep image order.
    tied = {im: [" ".join([b.split(" ")[0], "0.5"] + b.split(" ")[2:]) for b in noisy[im]] for im in ordered}
    cases["tied_scores"] = frame(tied)
    cases["tied_scores_reversed_rows"] = frame(tied, ordered[::-1])
    # Boxes that do not overlap their truth at all still match once corners are read as width/height.
    shifted = {im: [] for im in ordered}
    for r in ans.itertuples():
        dx = 1.0 * (r.x_max - r.x_min)
        shifted[r.image_id].append(box_text(r.class_id, 0.9, r.x_min + dx, r.y_min, r.x_max + dx, r.y_max))
    cases["shifted_boxes"] = frame(shifted)
    cases["extra_column"] = frame(noisy).assign(width=1024)

    for name, df in cases.items():
        write(name, df)
        g.record(name, score(name))

    assert 0.9 < g.expected["gold"] < 1.0
    assert g.expected["first_detection_matched_twice"] > g.expected["gold_rows_reordered"]
    assert g.expected["inverted_false_positives"] == g.expected["noisy"] > g.expected["regular_false_positives"]
    assert g.expected["sample_like"] < g.expected["noisy"] < g.expected["gold"]
    assert g.expected["extra_column"] == g.expected["noisy"]
    assert g.expected["over_100_boxes"] < g.expected["exactly_100_boxes"]
    assert g.expected["shifted_boxes"] > 0

    def invalid(name, df):
        write(name, df)
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    base = frame(noisy)
    invalid("missing_prediction_column", base.drop(columns="PredictionString"))
    invalid("missing_image_id_column", base.drop(columns="image_id"))
    invalid("missing_image", base.iloc[1:])
    invalid("unknown_image", pd.concat([base, pd.DataFrame({"image_id": ["0" * 32], "PredictionString": ["14 1 0 0 1 1"]})]))
    empty = base.copy()
    empty.loc[2, "PredictionString"] = np.nan
    invalid("empty_prediction", empty)
    double = base.copy()
    double.loc[3, "PredictionString"] = "14  1 0 0 1 1"
    invalid("double_space", double)
    seven = base.copy()
    seven.loc[4, "PredictionString"] = "14 1 0 0 1 1 1"
    invalid("seven_values", seven)
    nan_cls = base.copy()
    nan_cls.loc[5, "PredictionString"] = "nan 1 0 0 1 1"
    invalid("nan_class", nan_cls)
    inf_cls = base.copy()
    inf_cls.loc[5, "PredictionString"] = "inf 1 0 0 1 1"
    invalid("infinite_class", inf_cls)
    text = base.copy()
    text.loc[6, "PredictionString"] = "14 high 0 0 1 1"
    invalid("text_value", text)
    invalid("numeric_predictions", base.assign(PredictionString=14))
