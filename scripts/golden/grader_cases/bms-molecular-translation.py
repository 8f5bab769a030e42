"""bms-molecular-translation: answers, leaderboard and submissions, scored with a plain-Python edit distance."""
import numpy as np
import pandas as pd


def lev(a, b):
    """Unit-cost edit distance over Python str elements (code points)."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def read(g, name):
    # Upstream runs pandas >= 2.2, whose default missing-value tokens include "None" (1.5's do not).
    return pd.read_csv(g.path(name), float_precision="round_trip", na_values=["None"])


def score(g, name):
    """Upstream's steps: length, both columns, both sorted by image_id and compared, astype(str), mean distance."""
    s = read(g, f"{name}.csv")
    a = read(g, "answers.csv")
    if len(s) != len(a) or "image_id" not in s.columns or "InChI" not in s.columns:
        return None
    s = s.sort_values("image_id")
    a = a.sort_values("image_id")
    if (s["image_id"].values != a["image_id"].values).any():
        return None
    truth = a["InChI"].astype(str)
    pred = s["InChI"].astype(str)
    return float(np.mean([lev(t, p) for t, p in zip(truth, pred)]))


def inchi(rng):
    c, h = rng.randint(4, 30), rng.randint(4, 40)
    extra = "".join(rng.choice(["", "N", "N2", "O", "O2", "S", "Cl", "Br", "F3"], 2))
    chain = "-".join(str(rng.randint(1, c + 1)) for _ in range(rng.randint(3, 9)))
    hyd = ",".join(f"{rng.randint(1, c)}-{rng.randint(1, c)}" for _ in range(rng.randint(1, 4)))
    out = f"InChI=1S/C{c}H{h}{extra}/c{chain}/h{hyd}H,{rng.randint(1, 9)}H2"
    if rng.rand() < 0.3:
        out += f"/t{rng.randint(1, 20)}-/m{rng.randint(0, 2)}/s1"
    return out


def mutate(s, rng):
    chars = list(s)
    for _ in range(rng.randint(1, 6)):
        k = rng.randint(0, 3)
        i = rng.randint(0, len(chars))
        if k == 0:
            chars.insert(i, str(rng.randint(0, 10)))
        elif k == 1 and len(chars) > 1:
            del chars[i]
        else:
            chars[i] = rng.choice(list("CHNOS0123456789-,()/"))
    return "".join(chars)


# bms-molecular-translation: mean Levenshtein distance of the InChI strings, rows matched by image_id.
def generate(g):
    n = 120
    rng = g.rng
    ids = g.hex_ids(n, 12)
    truth = [inchi(rng) for _ in range(n)]
    g.write(pd.DataFrame({"image_id": ids, "InChI": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.6, 80.0, 874), 5)))

    def sub(pred, name, ids=ids, shuffle=True):
        df = pd.DataFrame({"image_id": ids, "InChI": pred})
        g.write(df.sample(frac=1, random_state=3) if shuffle else df, f"{name}.csv")

    partly = [t if rng.rand() < 0.4 else mutate(t, rng) for t in truth]
    sub(truth, "perfect")
    sub(["InChI=1S/H2O/h1H2"] * n, "sample_submission", shuffle=False)
    sub(partly, "partly_right")
    sub([t.lower() for t in truth], "lower_case")
    sub([t[:20] for t in truth], "truncated")
    # astype(str) turns an empty cell (or pandas' "None" token) into the three letters "nan".
    gaps = list(partly)
    gaps[0] = gaps[5] = None
    gaps[7] = "None"
    gaps[9] = "nan"
    sub(gaps, "missing_cells_as_nan_text")
    sub([""] * n, "all_empty")
    # A column of numbers is scored by its Python spelling ("1.0", "2.5").
    sub([float(i % 7) / 2 for i in range(n)], "numeric_predictions")
    sub([i for i in range(n)], "integer_predictions")
    sub([t + "\u00e9\U0001f600" if i % 3 == 0 else t for i, t in enumerate(partly)], "non_ascii_characters")
    df = pd.DataFrame({"extra": range(n), "InChI": partly, "image_id": ids})
    g.write(df, "extra_column_and_order.csv")
    valid = (
        "perfect", "sample_submission", "partly_right", "lower_case", "truncated", "missing_cells_as_nan_text", "all_empty",
        "numeric_predictions", "integer_predictions", "non_ascii_characters", "extra_column_and_order",
    )
    for name in valid:
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)
    assert g.expected["perfect"] == 0.0
    # Empty cells are read as NaN and scored as "nan", not as empty strings.
    assert g.expected["all_empty"] == round(float(np.mean([lev(t, "nan") for t in truth])), 5)

    # Refused: a missing column, a missing / extra / repeated / unknown id.
    g.write(pd.DataFrame({"image_id": ids, "inchi": truth}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"InChI": truth}), "no_id_column.csv")
    sub(partly[:-1], "missing_id", ids=ids[:-1])
    sub(partly + [truth[0]], "extra_id", ids=ids + ["ffffffffffff"])
    sub(partly, "duplicate_id", ids=ids[:-1] + ids[:1])
    sub(partly, "unknown_id", ids=ids[:-1] + ["000000000000"])
    g.write_text("image_id,InChI\n", "header_only.csv")
    invalid = ("wrong_column_name", "no_id_column", "missing_id", "extra_id", "duplicate_id", "unknown_id", "header_only")
    for name in invalid:
        assert score(g, name) is None, name
        g.record(name, None)
