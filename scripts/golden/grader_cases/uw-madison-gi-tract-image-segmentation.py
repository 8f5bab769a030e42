"""uw-madison-gi-tract-image-segmentation: answers, leaderboard and submissions, scored independently with
numpy + scipy's directed_hausdorff."""
import numpy as np
import pandas as pd
from scipy.spatial.distance import directed_hausdorff

CLASSES = ["large_bowel", "small_bowel", "stomach"]
# (case_day, slices, height, width): "day20" sorts before "day3", and one size is not square.
CASE_DAYS = [("case7_day0", 6, 40, 40), ("case7_day12", 5, 40, 40), ("case101_day20", 6, 36, 44), ("case101_day3", 4, 36, 44)]


def encode(mask):
    flat = np.concatenate([[0], mask.T.flatten().astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(flat))
    return " ".join(f"{s + 1} {e - s}" for s, e in zip(edges[0::2], edges[1::2]))


def decode(rle, h, w):
    """Upstream's decoding rules: sorted positive pairs, no overlap, numpy slicing past the end, odd counts broadcast."""
    assert isinstance(rle, str)
    if not rle.strip():
        return np.zeros((h, w), bool)
    s = [int(t) for t in rle.split()]
    starts, lengths = s[0::2], s[1::2]
    assert starts == sorted(starts) and all(x > 0 for x in starts) and all(x > 0 for x in lengths)
    lo = np.array(starts) - 1
    hi = lo + lengths
    img = np.zeros(h * w, bool)
    for a, b in zip(lo, hi):
        assert not img[a:b].any()
        img[a:b] = True
    return img.reshape((w, h)).T


def volumes(masks, ids):
    """Sort rows by id (stable), OR each id's masks, stack each case-day's slices in that order."""
    by_id, order = {}, []
    for m, i in sorted(zip(masks, ids), key=lambda x: x[1]):
        if i not in by_id:
            by_id[i] = []
            order.append(i)
        by_id[i].append(m)
    days, day_order = {}, []
    for i in order:
        d = i.split("_slice_")[0]
        if d not in days:
            days[d] = []
            day_order.append(d)
        days[d].append(np.logical_or.reduce(np.array(by_id[i])).astype(np.uint8))
    return [np.stack(days[d]) for d in day_order]


def hausdorff(p, t):
    if p.sum() == 0 and t.sum() == 0:
        return np.nan
    if p.shape == t.shape and (p == t).all():
        return 0
    if (p.sum() == 0) != (t.sum() == 0):
        return 1
    if p.sum() > 10 * t.sum():
        return 1
    tc = np.argwhere(t) / t.shape
    pc = np.argwhere(p) / t.shape
    return max(directed_hausdorff(tc, pc)[0], directed_hausdorff(pc, tc)[0]) / np.sqrt(3)


def dice(p, t):
    if p.sum() == 0 and t.sum() == 0:
        return np.nan
    return 2 * (p & t).sum() / (p.sum() + t.sum())


def blob(rng, h, w, z, n):
    """An ellipsoid-ish organ cross-section that grows and shrinks over the slices."""
    r, c = np.mgrid[0:h, 0:w]
    cy, cx = rng.uniform(0.3, 0.7) * h, rng.uniform(0.3, 0.7) * w
    size = np.sin(np.pi * (z + 0.5) / n) * rng.uniform(0.1, 0.3)
    return ((r - cy) / (h * size + 1e-9)) ** 2 + ((c - cx) / (w * size * 1.3 + 1e-9)) ** 2 < 1


def generate(g):
    rng = g.rng
    rows = []
    for day, n, h, w in CASE_DAYS:
        for z in range(n):
            for k, cls in enumerate(CLASSES):
                present = rng.rand() < 0.6 and not (day == "case7_day12" and cls == "stomach")
                m = blob(rng, h, w, z, n) if present else np.zeros((h, w), bool)
                rows.append({"id": f"{day}_slice_{z + 1:04d}", "class": cls, "predicted": encode(m) or np.nan,
                             "image_width": float(w), "image_height": float(h)})
    ans = pd.DataFrame(rows)
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.7, 0.88, 150), 5), reverse=True))

    def score(name):
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert {"id", "class", "predicted"} <= set(s.columns)
        hs = a.image_height.astype(int).tolist()
        ws = a.image_width.astype(int).tolist()
        pm = [decode(r, h, w) for r, h, w in zip(s.predicted.fillna("").tolist(), hs, ws)]
        am = [decode(r, h, w) for r, h, w in zip(a.predicted.fillna("").tolist(), hs, ws)]
        pv, av = volumes(pm, s.id), volumes(am, a.id)
        d = np.nanmean([dice(p, t) for p, t in zip(pm, am)])
        hd = np.nanmean([hausdorff(p, t) for p, t in zip(pv, av)])
        return 0.4 * d + 0.6 * (1 - hd)

    def write(name, frame):
        g.write(frame, f"{name}.csv")

    truth = ans.predicted.fillna("").tolist()
    masks = [decode(r, int(h), int(w)) for r, h, w in zip(truth, ans.image_height, ans.image_width)]
    sub = ans[["id", "class"]].copy()

    def with_pred(col):
        return sub.assign(predicted=col)

    def shifted(m, dy, dx):
        return np.roll(np.roll(m, dy, axis=0), dx, axis=1)

    noisy = [encode(shifted(m, int(rng.randint(-2, 3)), int(rng.randint(-2, 3))) | (rng.rand(*m.shape) < 0.003)) for m in masks]
    cases = {
        "perfect": with_pred(ans.predicted),
        "sample_like": with_pred("1 1 5 2"),
        "noisy": with_pred(noisy),
        "all_blank": with_pred(np.nan),
        "full_images": with_pred([f"1 {int(h * w)}" for h, w in zip(ans.image_height, ans.image_width)]),
        # Classes swapped within each slice: Dice drops, the OR-ed Hausdorff volumes do not change.
        "classes_rotated": with_pred([truth[i - (i % 3) + (i + 1) % 3] for i in range(len(truth))]),
        "class_column_ignored": with_pred(ans.predicted).assign(**{"class": "stomach"}),
        # A stray far-away voxel on one slice: the Hausdorff term reacts, Dice barely.
        "stray_voxel": with_pred([(t + " " if t else "") + str(int(h * w)) + " 1" if i == 10 else t
                                  for i, (t, h, w) in enumerate(zip(truth, ans.image_height, ans.image_width))]),
        "odd_tokens": with_pred(["7" if i % 2 else "3 4 40" for i in range(len(truth))]),
        "runs_past_end": with_pred([f"{int(h * w) - 5} 90" for h, w in zip(ans.image_height, ans.image_width)]),
        # Rows are matched by position, so rows reordered inside one case-day change Dice but stay valid.
        "rows_reordered_within_day": pd.concat([with_pred(ans.predicted).iloc[:18].iloc[::-1], with_pred(ans.predicted).iloc[18:]]),
        # Fewer rows than the answers: only the first rows count; the last volume loses slices.
        "missing_rows": with_pred(noisy).iloc[:-5],
        "extra_rows": pd.concat([with_pred(noisy), pd.DataFrame({"id": ["case999_day1_slice_0001"], "class": ["stomach"], "predicted": ["9 9 1 1"]})]),
        # Ids without "_slice_": every slice id is its own volume, paired by position with the true case-days.
        "ids_without_slice": with_pred(noisy).assign(id=lambda d: d.id.str.replace("_slice_", "_s")),
        # Two case-days merged under one name: a predicted volume deeper than the true one it is paired with,
        # its slice coordinates divided by the true depth (so beyond 1), and every later pair shifted.
        "merged_days": with_pred(noisy).assign(id=lambda d: d.id.str.replace("case7_day12_slice_00", "case7_day0_slice_01")),
        "bloated": with_pred([f"1 {int(h * w) // 2}" if (i // 3) % 2 else "" for i, (h, w) in enumerate(zip(ans.image_height, ans.image_width))]),
    }
    for name, frame in cases.items():
        write(name, frame)
        g.record(name, score(name))
    assert g.expected["perfect"] == 1.0 and g.expected["class_column_ignored"] == 1.0

    def invalid(name, frame):
        write(name, frame)
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    base = with_pred(noisy)
    invalid("missing_class", base.drop(columns="class"))
    invalid("missing_predicted", base.drop(columns="predicted"))
    invalid("missing_id", base.drop(columns="id"))
    invalid("unsorted_pairs", with_pred(["30 2 10 2"] + noisy[1:]))
    invalid("overlapping_pairs", with_pred(noisy[:-1] + ["10 5 12 3"]))
    invalid("zero_length", with_pred(noisy[:4] + ["10 0"] + noisy[5:]))
    invalid("five_tokens", with_pred(["1 2 5 2 9"] + noisy[1:]))
    invalid("text_token", with_pred(["1 2 x 2"] + noisy[1:]))
    invalid("numeric_predicted", with_pred([str(i + 1) for i in range(len(noisy))]))
    invalid("blank_id", base.assign(id=[np.nan] + list(base.id[1:])))
    # Whole-table shuffle: a slice's rows get masks of different image sizes, which cannot be combined.
    invalid("shuffled_rows", base.sample(frac=1, random_state=7))
