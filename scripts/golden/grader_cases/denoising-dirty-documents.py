"""denoising-dirty-documents: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def _rmse_or_none(a, s):
    """Upstream's steps: id and value columns, values castable to float, row count, ids equal after
    sorting both sides, then RMSE (which refuses NaN and infinity)."""
    if "id" not in s.columns or "value" not in s.columns:
        return None
    try:
        v = s["value"].astype(float)
    except ValueError:
        return None
    if len(s) != len(a):
        return None
    order_s = s.assign(value=v).sort_values("id")
    order_a = a.sort_values("id")
    if (order_s["id"].values != order_a["id"].values).any():
        return None
    d = order_s["value"].to_numpy(dtype=float) - order_a["value"].to_numpy(dtype=float)
    if not np.isfinite(d).all():
        return None
    return float(np.sqrt(np.mean(d * d)))


# denoising-dirty-documents: RMSE over pixels, one row per pixel with id "<image>_<row>_<col>".
def generate(g):
    images = {3: (9, 7), 17: (6, 11), 101: (8, 5)}  # image number -> (height, width)
    ids, values = [], []
    for img, (h, w) in images.items():
        page = np.where(g.rng.rand(h, w) < 0.15, g.rng.randint(0, 120, (h, w)), 255)
        for r in range(h):
            for c in range(w):
                ids.append(f"{img}_{r + 1}_{c + 1}")
                values.append(page[r, c] / 255)
    n = len(ids)
    values = np.array(values)
    g.write(pd.DataFrame({"id": ids, "value": values}), "answers.csv")
    g.write(pd.DataFrame({"id": ids, "value": np.ones(n, dtype=int)}), "sample_ones.csv")
    lb = np.round(np.concatenate([g.rng.uniform(0.01, 0.05, 40), g.rng.uniform(0.05, 0.2, 100)]), 5)
    g.leaderboard(sorted(lb))
    noisy = np.clip(values + g.rng.normal(0, 0.08, n), 0, 1)

    def sub(v, i=ids):
        return pd.DataFrame({"id": i, "value": v})

    subs = {
        "perfect": sub(values),
        "noisy": sub(noisy),
        "noisy_shuffled": sub(noisy).sample(frac=1, random_state=11),
        "rounded": sub(np.round(noisy, 2)),
        # Upstream does not range-check pixel values.
        "outside_unit_range": sub(noisy * 1.6 - 0.3),
        "columns_swapped_extra": pd.DataFrame({"value": noisy, "extra": 1, "id": ids}),
        "missing_value_column": pd.DataFrame({"id": ids, "pixel": noisy}),
        "missing_id_column": pd.DataFrame({"Id": ids, "value": noisy}),
        "missing_row": sub(noisy[:-1], ids[:-1]),
        "extra_row": sub(np.append(noisy, 0.5), ids + ["101_9_1"]),
        "duplicate_id": sub(noisy, ids[:5] + [ids[4]] + ids[6:]),
        "unknown_id": sub(noisy, ["3_0_1"] + ids[1:]),
    }
    bad = noisy.copy()
    bad[10] = np.nan
    subs["nan_value"] = sub(bad)
    bad = noisy.copy()
    bad[12] = np.inf
    subs["infinite_value"] = sub(bad)
    text = noisy.astype(object)
    text[4] = "white"
    subs["text_value"] = sub(text)
    # pandas keeps these as text; upstream's astype(float) parses each with Python's float().
    text = noisy.astype(object)
    text[6] = "1_0"
    text[9] = " 0.25 "
    text[13] = "-Infinity"
    subs["python_float_text_infinite"] = sub(text)
    text[13] = "+.5E-1"
    subs["python_float_text"] = sub(text)
    for name, df in subs.items():
        g.write(df, f"{name}.csv")
    for name in ["sample_ones"] + list(subs):
        g.record(name, _rmse_or_none(g.read("answers.csv"), g.read(f"{name}.csv")))
    for name in ("perfect", "sample_ones", "noisy", "noisy_shuffled", "rounded", "outside_unit_range", "columns_swapped_extra", "python_float_text"):
        assert g.expected[name] is not None, name
    assert g.expected["perfect"] == 0.0 and g.expected["noisy"] == g.expected["noisy_shuffled"]
