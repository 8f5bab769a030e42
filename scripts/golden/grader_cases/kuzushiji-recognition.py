"""kuzushiji-recognition: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

LABELS = ["U+306F", "U+304C", "U+3044", "U+3057", "U+306B", "U+3066", "U+308A", "U+3068"]


def page_counts(pred, truth):
    """One page's (tp, fp, fn): boxes in order, each claims the first unused prediction of its label strictly inside it."""
    if pd.isna(truth):
        return 0, 0 if pd.isna(pred) else len(pred.split(" ")) // 3, 0
    t = truth.split(" ")
    if pd.isna(pred):
        return 0, 0, len(t) // 5
    assert len(t) % 5 == 0
    boxes = [(t[i], float(t[i + 1]), float(t[i + 2]), float(t[i + 3]), float(t[i + 4])) for i in range(0, len(t), 5)]
    p = pred.split(" ")
    points = [(p[i], float(p[i + 1]), float(p[i + 2])) for i in range(0, len(p), 3)]
    used = [False] * len(points)
    tp = fn = 0
    for label, x, y, w, h in boxes:
        for k, (pl, px, py) in enumerate(points):
            if not used[k] and pl == label and x < px < x + w and y < py < y + h:
                used[k] = True
                tp += 1
                break
        else:
            fn += 1
    return tp, used.count(False), fn


def f1(tp, fp, fn):
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    p, r = tp / (tp + fp), tp / (tp + fn)
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0


def generate(g):
    rng = g.rng
    ids = [f"{100241706 + 17 * i}_{i % 7:05d}" for i in range(6)] + ["umgy007-028", "brsk-001", "hnsd005-012", "200003076_00034_2"]
    pages = []
    for i in range(len(ids)):
        if i == 3:
            pages.append(np.nan)
            continue
        boxes = []
        for _ in range(rng.randint(3, 30)):
            boxes.append(f"{rng.choice(LABELS)} {rng.randint(100, 3000)} {rng.randint(100, 4000)} {rng.randint(20, 150)} {rng.randint(20, 150)}")
        pages.append(" ".join(boxes))
    # Two overlapping boxes of one label: greedy matching in box order decides which one the point serves.
    pages[0] += " U+3042 500 500 100 100 U+3042 550 550 100 100"
    ans = pd.DataFrame({"image_id": ids, "labels": pages})
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.0, 0.95, 40), 5), reverse=True))

    def score(name):
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert len(s) == len(a) and {"image_id", "labels"} <= set(s.columns)
        s = s.sort_values("image_id").reset_index(drop=True)
        a = a.sort_values("image_id").reset_index(drop=True)
        assert all(s.image_id == a.image_id)
        for pred in s.labels:
            if pd.isna(pred):
                continue
            f = pred.split(" ")
            assert len(f) % 3 == 0
            [float(f[i]) for i in range(1, len(f), 3)] + [float(f[i]) for i in range(2, len(f), 3)]
        tp = fp = fn = 0
        for pred, truth in zip(s.labels, a.labels):
            c = page_counts(pred, truth)
            tp, fp, fn = tp + c[0], fp + c[1], fn + c[2]
        return f1(tp, fp, fn)

    def points(truth, keep=1.0, shift=1, wrong=0.0):
        if pd.isna(truth):
            return np.nan
        t = truth.split()
        out = []
        for i in range(0, len(t), 5):
            if rng.rand() >= keep:
                continue
            label = LABELS[rng.randint(len(LABELS))] if rng.rand() < wrong else t[i]
            out.append(f"{label} {int(t[i + 1]) + shift} {int(t[i + 2]) + shift}")
        return " ".join(out) if out else np.nan

    def write(name, col, shuffle=True, frame=None):
        df = frame if frame is not None else pd.DataFrame({"image_id": ids, "labels": col})
        g.write(df.sample(frac=1, random_state=5) if shuffle else df, f"{name}.csv")

    gold = [points(p) for p in pages]
    noisy = [points(p, keep=0.8, shift=int(rng.randint(1, 30)), wrong=0.15) for p in pages]
    # Predictions on a page without characters: every triple is a false positive.
    noisy[3] = "U+306F 10 10 U+304C 20 20"
    cases = {
        "perfect": gold,
        "sample_like": ["U+003F 1 1 U+FF2F 2 2"] * len(ids),
        "noisy": noisy,
        "all_blank": [np.nan] * len(ids),
        "some_blank": [p if i % 2 else np.nan for i, p in enumerate(noisy)],
        # A point on a box's edge is outside it: the comparisons are strict.
        "on_edges": [points(p, shift=0) for p in pages],
        "duplicated_points": [(p + " " + p) if isinstance(p, str) else p for p in gold],
        "float_coordinates": [p.replace(" 1", " 1.5e0") if isinstance(p, str) else p for p in noisy],
        "odd_numbers": [p + " U+306F nan inf U+304C -inf 1_0" if isinstance(p, str) else p for p in noisy],
        "padded_fields": [p.replace(" U+", "\t U+") if isinstance(p, str) else p for p in gold],
        "unicode_digits": [p.replace("1", "\u0661") if isinstance(p, str) else p for p in gold],
    }
    for name, col in cases.items():
        write(name, col, shuffle=name != "perfect")
        g.record(name, score(name))
    # The overlapping-box pair: the first box claims the first point inside it (the one in the overlap),
    # leaving the second box without a match although a one-to-one matching of both exists.
    col = list(gold)
    assert col[0].endswith(" U+3042 501 501 U+3042 551 551")
    col[0] = col[0][: -len(" U+3042 501 501 U+3042 551 551")] + " U+3042 560 560 U+3042 510 510"
    write("greedy_overlap", col)
    g.record("greedy_overlap", score("greedy_overlap"))
    write("extra_column", None, frame=pd.DataFrame({"image_id": ids, "labels": noisy, "note": "x"}))
    g.record("extra_column", score("extra_column"))
    assert g.expected["perfect"] == 1.0 and g.expected["all_blank"] == 0.0 and g.expected["on_edges"] < 0.1

    base = pd.DataFrame({"image_id": ids, "labels": gold})

    def invalid(name, frame=None, col=None):
        write(name, col, frame=frame)
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    invalid("missing_labels", frame=base.drop(columns="labels"))
    invalid("missing_image_id", frame=base.drop(columns="image_id"))
    invalid("missing_row", frame=base.iloc[1:])
    invalid("extra_row", frame=pd.concat([base, pd.DataFrame({"image_id": ["extra-001"], "labels": ["U+306F 1 1"]})]))
    dup = base.copy()
    dup.loc[2, "image_id"] = dup.loc[1, "image_id"]
    invalid("duplicate_id", frame=dup)
    invalid("pairs_not_triples", col=["U+306F 10 20 U+304C 30"] + gold[1:])
    invalid("double_space", col=["U+306F 10 20  U+304C 30 40"] + gold[1:])
    invalid("text_coordinate", col=gold[:-1] + ["U+306F ten 20"])
    invalid("numeric_labels", col=[str(i) for i in range(len(ids))])
