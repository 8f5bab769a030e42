"""tgs-salt-identification-challenge: answers, leaderboard and submissions, scored independently with numpy."""
import numpy as np
import pandas as pd

H = W = 101


def encode(mask):
    """Column-major, 1-based "start length" pairs."""
    flat = np.concatenate([[0], mask.T.flatten().astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(flat))
    starts, ends = edges[0::2], edges[1::2]
    return " ".join(f"{s + 1} {e - s}" for s, e in zip(starts, ends))


def decode(rle):
    """Upstream's decoding rules: sorted positive pairs, no overlap, numpy slicing past the end, odd counts broadcast."""
    if not rle.strip():
        return np.zeros((H, W), bool)
    s = [int(t) for t in rle.split()]
    starts, lengths = s[0::2], s[1::2]
    assert starts == sorted(starts) and all(x > 0 for x in starts) and all(x > 0 for x in lengths)
    lo = np.array(starts) - 1
    hi = lo + lengths
    img = np.zeros(H * W, bool)
    for a, b in zip(lo, hi):
        assert not img[a:b].any()
        img[a:b] = True
    return img.reshape((W, H)).T


def image_score(t, p):
    """Precision over IoU thresholds, one object per mask, intersections counted with histogram2d as upstream does."""
    if t.sum() == 0:
        return 1.0 if p.sum() == 0 else 0.0
    inter = np.histogram2d(t.flatten(), p.flatten(), bins=(2, 2))[0]
    at = np.histogram(t, bins=2)[0][:, None]
    ap = np.histogram(p, bins=2)[0][None, :]
    iou = inter[1, 1] / (at + ap - inter)[1, 1]
    return np.mean([1.0 if iou > th else 0.0 for th in np.arange(0.5, 1.0, 0.05)])


def blob(rng, cover):
    """A random salt region: pixels under a tilted, wavy boundary, covering roughly `cover` of the image."""
    r, c = np.mgrid[0:H, 0:W]
    wave = 6 * np.sin(c / rng.uniform(5, 15) + rng.uniform(0, 6))
    return (r + wave + rng.uniform(-0.3, 0.3) * (c - 50)) > H * (1 - cover)


def generate(g):
    rng = g.rng
    n = 24
    ids = g.hex_ids(n, 10)
    ids[0] = "0a" + ids[0][2:]
    covers = [0.0] * 6 + [0.85, 0.9, 0.7, 0.97] + list(rng.uniform(0.05, 0.6, n - 10))
    masks = [blob(rng, c) if c > 0 else np.zeros((H, W), bool) for c in covers]
    masks[6] = np.ones((H, W), bool)
    rles = [encode(m) for m in masks]
    order = np.argsort(ids)
    ans = pd.DataFrame({"id": np.array(ids)[order], "rle_mask": np.array(rles, dtype=object)[order]})
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.55, 0.896, 300), 5), reverse=True))

    def score(name):
        a = g.read("answers.csv").fillna("")
        s = g.read(f"{name}.csv")
        assert set(s.columns) == {"id", "rle_mask"} and len(s) == len(a)
        s = s.fillna("")
        assert all(isinstance(v, str) for v in s.id) and all(isinstance(v, str) for v in s.rle_mask)
        a = a.sort_values("id")
        s = s.sort_values("id")
        assert list(a.id) == list(s.id)
        preds = [decode(r) for r in s.rle_mask]
        return np.mean([image_score(decode(t), p) for t, p in zip(a.rle_mask, preds)])

    def write(name, col, shuffle=True, frame=None):
        df = frame if frame is not None else pd.DataFrame({"id": ids, "rle_mask": col})
        g.write(df.sample(frac=1, random_state=3) if shuffle else df, f"{name}.csv")

    def shifted(m, k):
        out = np.zeros_like(m)
        out[k:] = m[:-k] if k else m
        return out

    noisy = []
    for m in masks:
        x = shifted(m, int(rng.randint(0, 6)))
        x ^= rng.rand(H, W) < 0.0004
        noisy.append(encode(x))
    cases = {
        "perfect": rles,
        "sample_like": ["1 1"] * n,
        "noisy": noisy,
        # An all-blank column: every prediction is empty, scored as a full-image mask where salt exists.
        "all_empty": [np.nan] * n,
        "full_masks": [f"1 {H * W}"] * n,
        "some_blank": [r if i % 3 else np.nan for i, r in enumerate(rles)],
        # Odd token counts: one token draws nothing, three tokens share the single length.
        "odd_tokens": ["5" if i % 2 else "3 40 200" for i in range(n)],
        "runs_past_end": [f"{H * W - 10} 500" if i % 2 else f"{H * W + 5} 7" for i in range(n)],
        "loose_spacing": ["  " + r.replace(" ", "\t ") + " \n" if r else r for r in noisy],
    }
    for name, col in cases.items():
        write(name, col, shuffle=name != "perfect")
        g.record(name, score(name))
    assert g.expected["perfect"] == 1.0
    # Six empty truths scored 1 each, the full-image truth matched; the others depend on coverage.
    assert g.expected["full_masks"] > 0

    simple = [f"{1 + 7 * i} {3 + i}" for i in range(n)]
    base = pd.DataFrame({"id": ids, "rle_mask": simple})

    def invalid(name, frame=None, col=None):
        write(name, col, frame=frame)
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    invalid("missing_column", frame=base.drop(columns="rle_mask"))
    invalid("extra_column", frame=base.assign(depth=1))
    invalid("renamed_column", frame=base.rename(columns={"rle_mask": "predicted"}))
    invalid("missing_id", frame=base.iloc[1:])
    invalid("extra_id", frame=pd.concat([base, pd.DataFrame({"id": ["ffffffffff"], "rle_mask": ["1 1"]})]))
    dup = base.copy()
    dup.loc[5, "id"] = dup.loc[6, "id"]
    invalid("duplicate_id", frame=dup)
    invalid("unsorted_pairs", col=["50 2 10 2"] + simple[1:])
    invalid("overlapping_pairs", col=simple[:-1] + ["10 5 12 3"])
    invalid("zero_start", col=["0 3"] + simple[1:])
    invalid("zero_length", col=["4 0"] + simple[1:])
    invalid("five_tokens", col=["1 2 5 2 9"] + simple[1:])
    invalid("float_tokens", col=["1.0 2"] + simple[1:])
    invalid("numeric_column", col=[str(i + 1) for i in range(n)])
    invalid("boolean_column", col=["True"] * n)
