"""siim-covid19-detection: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import average_precision_score

STUDY_LABELS = ["negative", "typical", "indeterminate", "atypical"]


def box_iou(p, q):
    """Overlap of two corner boxes with Python's max/min (NaN-sensitive argument order kept)."""
    ix0, iy0 = max(p[0], q[0]), max(p[1], q[1])
    ix1, iy1 = min(p[2], q[2]), min(p[3], q[3])
    inter = max(0, ix1 - ix0) * max(0, iy1 - iy0)
    union = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter
    return inter / union if union > 0 else 0.0


def parse(text):
    """(label, confidence, box) triples; raises on anything upstream cannot parse."""
    if not isinstance(text, str):
        raise TypeError("PredictionString must be text")
    toks = text.split()
    if len(toks) % 6:
        raise ValueError("6 values per box")
    return [(toks[i], float(toks[i + 1]), [float(t) for t in toks[i + 2:i + 6]]) for i in range(0, len(toks), 6)]


def score_frames(s, a):
    """Per-label AP of (matched, confidence) pairs at IoU > 0.5, averaged over the answers' labels."""
    if len(s) != len(a) or "id" not in s.columns or "PredictionString" not in s.columns:
        raise ValueError("shape or columns")
    s = s.sort_values("id", kind="stable")
    a = a.sort_values("id", kind="stable")
    if list(s["id"]) != list(a["id"]):
        raise ValueError("ids differ")
    preds = [parse(t) for t in s["PredictionString"]]
    truths = [parse(t) for t in a["PredictionString"]]
    labels = sorted({lab for row in truths for lab, _, _ in row})
    aps = []
    for lab in labels:
        y, sc = [], []
        for p_row, t_row in zip(preds, truths):
            gts = [box for l, _, box in t_row if l == lab]
            mine = sorted([(c, box) for l, c, box in p_row if l == lab], key=lambda x: -x[0])
            used = [False] * len(gts)
            for c, box in mine:
                best, hit = 0, None
                for j, g in enumerate(gts):
                    if used[j]:
                        continue
                    v = box_iou(box, g)
                    if v > best and v > 0.5:
                        best, hit = v, j
                if hit is None:
                    y.append(0)
                else:
                    used[hit] = True
                    y.append(1)
                sc.append(c)
            missed = used.count(False)
            y += [1] * missed
            sc += [0.0] * missed
            if not mine and not gts:
                y.append(0)
                sc.append(0.0)
        assert 0 in y
        aps.append(average_precision_score(y, sc))
    return float(np.mean(aps)) if aps else 0.0


def box_text(box):
    return " ".join(repr(round(float(v), 5)) for v in box)


def generate(g):
    rng = g.rng
    n_study = 9
    studies = sorted(g.hex_ids(n_study, 12))
    study_rows, image_rows, image_boxes = [], [], {}
    for st in studies:
        lab = STUDY_LABELS[rng.randint(4)]
        study_rows.append((st + "_study", f"{lab} 1 0 0 1 1"))
        for _ in range(rng.randint(1, 3)):
            img = g.hex_ids(1, 12)[0] + "_image"
            boxes = []
            if lab != "negative" and rng.rand() < 0.8:
                for _ in range(rng.randint(1, 4)):
                    x0, y0 = rng.uniform(100, 2000), rng.uniform(100, 1500)
                    boxes.append([round(x0, 5), round(y0, 5), round(x0 + rng.uniform(300, 1200), 5), round(y0 + rng.uniform(400, 1800), 5)])
            image_boxes[img] = boxes
    # One image with round coordinates, so an IoU of exactly 0.5 can be written.
    image_boxes[g.hex_ids(1, 12)[0] + "_image"] = [[100.0, 200.0, 300.0, 400.0]]
    for img in sorted(image_boxes):
        boxes = image_boxes[img]
        text = " ".join(f"opacity 1 {box_text(b)}" for b in boxes) if boxes else "none 1 0 0 1 1"
        image_rows.append((img, text))
    ans = pd.DataFrame(study_rows + image_rows, columns=["id", "PredictionString"])
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.3, 0.635, 120), 5), reverse=True))

    ids = list(ans["id"])
    truth_text = dict(zip(ans["id"], ans["PredictionString"]))
    study_label = {i: t.split()[0] for i, t in truth_text.items() if i.endswith("_study")}
    special = [i for i in ids if image_boxes.get(i) == [[100.0, 200.0, 300.0, 400.0]]][0]

    def write(name, texts, frame=None):
        df = frame if frame is not None else pd.DataFrame({"id": ids, "PredictionString": [texts[i] for i in ids]})
        g.write(df, f"{name}.csv")

    def score(name):
        return score_frames(g.read(f"{name}.csv"), g.read("answers.csv"))

    def noisy_text(i, jitter, fp_rate, seed_shift=0.0):
        if i.endswith("_study"):
            confs = rng.dirichlet(np.ones(4))
            confs[STUDY_LABELS.index(study_label[i])] += 0.2 * rng.rand()
            return " ".join(f"{lab} {round(c, 4)} 0 0 1 1" for lab, c in zip(STUDY_LABELS, confs))
        parts = []
        for b in image_boxes[i]:
            if rng.rand() < 0.85:
                jb = [v + rng.normal(0, jitter) for v in b]
                parts.append(f"opacity {round(rng.uniform(0.2, 0.95), 3)} {box_text(jb)}")
        if rng.rand() < fp_rate:
            x0, y0 = rng.uniform(0, 2000), rng.uniform(0, 1500)
            parts.append(f"opacity {round(rng.uniform(0.05, 0.6), 3)} {box_text([x0, y0, x0 + 500, y0 + 700])}")
        parts.append(f"none {round(rng.uniform(0, 1) if not image_boxes[i] else rng.uniform(0, 0.5), 3)} 0 0 1 1")
        return " ".join(parts)

    cases = {}
    cases["perfect"] = dict(truth_text)
    cases["sample_like"] = {i: ("negative 1 0 0 1 1" if i.endswith("_study") else "none 1 0 0 1 1") for i in ids}
    cases["noisy"] = {i: noisy_text(i, 40, 0.4) for i in ids}
    cases["very_noisy"] = {i: noisy_text(i, 400, 0.9) for i in ids}
    # Every true box predicted twice: the second copy finds its truth taken and is a false positive.
    dups, k = dict(truth_text), 0
    for i in ids:
        if i.endswith("_image") and image_boxes[i]:
            parts = []
            for b in image_boxes[i]:
                c = round(0.95 - 0.03 * k, 2)
                k += 1
                parts.append(f"opacity {c} {box_text(b)} opacity {round(c - 0.05, 2)} {box_text(b)}")
            dups[i] = " ".join(parts)
    cases["duplicate_boxes"] = dups
    # IoU of exactly 0.5 does not match (upstream requires > 0.5).
    half = dict(truth_text)
    half[special] = "opacity 0.9 100 200 300 300"
    cases["iou_exactly_half"] = half
    just_over = dict(truth_text)
    just_over[special] = "opacity 0.9 100 200 300 300.5"
    cases["iou_just_over_half"] = just_over
    # Any whitespace separates tokens; leading/trailing spaces and underscores in numbers are fine.
    spaced = {i: "  " + t.replace(" ", "\t  ", 3) + " " for i, t in truth_text.items()}
    spaced[special] = "opacity 1 1_00 200 300 400"
    cases["whitespace_variants"] = spaced
    # A cell of blanks holds no boxes (not a missing value).
    blank = dict(cases["noisy"])
    blank[ids[0]] = " "
    blank[special] = "   "
    cases["blank_cells"] = blank
    # Labels that are not in the answers (other case, unknown) are ignored, even with an infinite confidence.
    odd = dict(truth_text)
    for i in ids[:4]:
        odd[i] = odd[i] + " Negative 0.9 0 0 1 1 NONE 0.8 0 0 1 1 covid inf 0 0 1 1"
    cases["unknown_labels"] = odd
    # Opacity boxes on study rows are false positives; confidences need not be probabilities.
    study_fp = dict(truth_text)
    for i in ids:
        if i.endswith("_study"):
            study_fp[i] = study_fp[i] + " opacity 5 0 0 100 100"
    study_fp[ids[-1]] = study_fp[ids[-1]].replace("opacity 1 ", "opacity -2 ", 1)
    cases["study_row_opacity_and_odd_confidences"] = study_fp
    # NaN or infinite coordinates are scored through Python's max/min.
    nanbox = dict(cases["noisy"])
    img_with_box = [i for i in ids if i.endswith("_image") and image_boxes[i]]
    b = image_boxes[img_with_box[0]][0]
    nanbox[img_with_box[0]] = f"opacity 0.99 nan {b[1]} {b[2]} {b[3]} opacity 0.98 {b[0]} {b[1]} inf {b[3]} " + nanbox[img_with_box[0]]
    b2 = image_boxes[img_with_box[1]][0]
    nanbox[img_with_box[1]] = f"opacity 0.97 {b2[0]} {b2[1]} {b2[2]} NaN " + nanbox[img_with_box[1]]
    cases["nan_and_inf_coordinates"] = nanbox
    # Every study label on every study row, with tied confidences.
    cases["ties"] = {i: (" ".join(f"{lab} 0.25 0 0 1 1" for lab in STUDY_LABELS) if i.endswith("_study") else "none 0.5 0 0 1 1 opacity 0.5 0 0 1000 1000")
                     for i in ids}

    for name, texts in cases.items():
        write(name, texts)
        g.record(name, score(name))
    base = pd.DataFrame({"id": ids, "PredictionString": [cases["noisy"][i] for i in ids]})
    write("noisy_shuffled", None, base.sample(frac=1, random_state=3))
    g.record("noisy_shuffled", score("noisy_shuffled"))
    write("extra_column", None, base.assign(extra=1.5)[["extra", "id", "PredictionString"]])
    g.record("extra_column", score("extra_column"))

    assert g.expected["perfect"] == 1.0
    assert g.expected["whitespace_variants"] == 1.0 and g.expected["unknown_labels"] == 1.0
    assert g.expected["noisy_shuffled"] == g.expected["noisy"] == g.expected["extra_column"]
    assert g.expected["iou_exactly_half"] < g.expected["iou_just_over_half"] == 1.0
    assert g.expected["duplicate_boxes"] < 1.0 and g.expected["study_row_opacity_and_odd_confidences"] < 1.0
    assert g.expected["sample_like"] < g.expected["noisy"] < 1.0

    def invalid(name, frame):
        g.write(frame, f"{name}.csv")
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    invalid("missing_id_column", base.drop(columns="id"))
    invalid("missing_prediction_column", base.drop(columns="PredictionString"))
    invalid("missing_row", base.iloc[1:])
    invalid("extra_row", pd.concat([base, pd.DataFrame({"id": ["ffffffffffff_image"], "PredictionString": ["none 1 0 0 1 1"]})]))
    dup = base.copy()
    dup.loc[1, "id"] = dup.loc[0, "id"]
    invalid("duplicate_id", dup)
    unknown = base.copy()
    unknown.loc[2, "id"] = "000000000000_study"
    invalid("unknown_id", unknown)
    empty = base.copy()
    empty.loc[3, "PredictionString"] = np.nan
    invalid("empty_prediction", empty)
    short = base.copy()
    short.loc[4, "PredictionString"] = "none 1 0 0 1"
    invalid("five_values", short)
    text_conf = base.copy()
    text_conf.loc[5, "PredictionString"] = "none high 0 0 1 1"
    invalid("text_confidence", text_conf)
    nan_conf = base.copy()
    nan_conf.loc[len(base) - 1, "PredictionString"] = "opacity nan 0 0 10 10"
    invalid("nan_confidence", nan_conf)
    inf_conf = base.copy()
    inf_conf.loc[0, "PredictionString"] = "negative inf 0 0 1 1"
    invalid("infinite_confidence", inf_conf)
    invalid("numeric_predictions", base.assign(PredictionString=1))
